/**
 * TextRank (Mihalcea & Tarau 2004) for sentence extraction, the classic unsupervised baseline:
 * a graph of sentences weighted by word overlap normalised by log lengths, ranked with PageRank.
 */
export function textRankScores(
  sentences: readonly (readonly string[])[],
  damping = 0.85,
  iterations = 50,
): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  const sets = sentences.map((words) => new Set(words));
  // Inverted index so only sentences sharing a word are compared.
  const postings = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const word of set) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [i]);
      else list.push(i);
    }
  });
  const edges = Array.from({ length: n }, () => new Map<number, number>());
  sets.forEach((set, i) => {
    const overlaps = new Map<number, number>();
    for (const word of set) {
      for (const j of postings.get(word) ?? []) if (j > i) overlaps.set(j, (overlaps.get(j) ?? 0) + 1);
    }
    for (const [j, overlap] of overlaps) {
      const sizeI = set.size;
      const sizeJ = sets[j]?.size ?? 0;
      const denominator = Math.log(sizeI) + Math.log(sizeJ);
      if (denominator <= 0) continue;
      const weight = overlap / denominator;
      edges[i]?.set(j, weight);
      edges[j]?.set(i, weight);
    }
  });
  const outWeight = edges.map((e) => [...e.values()].reduce((a, b) => a + b, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < iterations; iteration++) {
    // Sentences with no similar sentence spread their rank evenly, so ranks keep summing to 1.
    let dangling = 0;
    edges.forEach((_, j) => {
      if ((outWeight[j] ?? 0) === 0) dangling += scores[j] ?? 0;
    });
    const next = new Array<number>(n).fill((1 - damping) / n + (damping * dangling) / n);
    edges.forEach((neighbours, j) => {
      const total = outWeight[j] ?? 0;
      if (total === 0) return;
      const share = (damping * (scores[j] ?? 0)) / total;
      for (const [i, weight] of neighbours) next[i] = (next[i] ?? 0) + share * weight;
    });
    scores = next;
  }
  return scores;
}
