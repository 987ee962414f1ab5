/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F1 (Lin 2004), as computed by Google's rouge-score without stemming:
 * lowercase, every run of characters other than a–z and 0–9 is a separator, no stop-word removal.
 * ROUGE-L is the longest common subsequence over the whole token sequences ("rougeL", not "rougeLsum").
 */
export interface RougeScores {
  rouge1: number;
  rouge2: number;
  rougeL: number;
}

export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== "");
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join(" ");
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function f1(overlap: number, candidateTotal: number, referenceTotal: number): number {
  if (overlap === 0 || candidateTotal === 0 || referenceTotal === 0) return 0;
  const precision = overlap / candidateTotal;
  const recall = overlap / referenceTotal;
  return (2 * precision * recall) / (precision + recall);
}

function ngramF1(candidate: readonly string[], reference: readonly string[], n: number): number {
  const c = ngramCounts(candidate, n);
  const r = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of c) overlap += Math.min(count, r.get(gram) ?? 0);
  return f1(overlap, Math.max(0, candidate.length - n + 1), Math.max(0, reference.length - n + 1));
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      current[j] =
        x === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** ROUGE F1 scores of a candidate summary against one reference. */
export function rouge(candidate: string, reference: string): RougeScores {
  const c = rougeTokens(candidate);
  const r = rougeTokens(reference);
  return {
    rouge1: ngramF1(c, r, 1),
    rouge2: ngramF1(c, r, 2),
    rougeL: f1(lcsLength(c, r), c.length, r.length),
  };
}

/** The first `count` ROUGE tokens of a text, joined by spaces (baselines are cut to the system's length). */
export function truncateWords(text: string, count: number): string {
  return rougeTokens(text).slice(0, count).join(" ");
}
