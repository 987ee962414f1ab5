/**
 * Extractive baselines for the summary evaluation, each cut to the same number of words as Recap's summary
 * and given as its sentences:
 * Lead (the first sentences), TextRank (the classic unsupervised ranker) and a greedy oracle that picks the
 * sentences best matching the human summary (an upper bound for any extractive summarizer at that length).
 */
import { contentTerms, wordCount, type Sentence } from "../src/analysis/nlp.ts";
import { DEFAULT_SUMMARY_OPTIONS } from "../src/analysis/summary.ts";
import { f1, ngramCounts, rougeTokens, truncateWords } from "./metrics/rouge.ts";
import { textRankScores } from "./metrics/textrank.ts";

/** Sentences the baselines may pick: the same cleaned sentences and minimum length the system uses. */
function baselinePool(sentences: readonly Sentence[]): Sentence[] {
  return sentences.filter((s) => wordCount(s) >= DEFAULT_SUMMARY_OPTIONS.minWords);
}

/** The chosen pool sentences in meeting order, cut to `words` ROUGE tokens in all (one summary sentence each). */
function joined(pool: readonly Sentence[], chosen: readonly number[], words: number): string[] {
  const sentences: string[] = [];
  let left = words;
  for (const i of [...chosen].sort((a, b) => a - b)) {
    if (left <= 0) break;
    const text = truncateWords(pool[i]?.text ?? "", left);
    sentences.push(text);
    left -= rougeTokens(text).length;
  }
  return sentences;
}

/** Takes pool indexes in the given order until `words` ROUGE tokens are reached. */
function fill(pool: readonly Sentence[], order: readonly number[], words: number): number[] {
  const chosen: number[] = [];
  let count = 0;
  for (const i of order) {
    if (count >= words) break;
    chosen.push(i);
    count += rougeTokens(pool[i]?.text ?? "").length;
  }
  return chosen;
}

export function leadSummary(sentences: readonly Sentence[], words: number): string[] {
  const pool = baselinePool(sentences);
  return joined(
    pool,
    fill(
      pool,
      pool.map((_, i) => i),
      words,
    ),
    words,
  );
}

export function textRankSummary(sentences: readonly Sentence[], words: number): string[] {
  const pool = baselinePool(sentences);
  const scores = textRankScores(pool.map(contentTerms));
  const order = pool.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  return joined(pool, fill(pool, order, words), words);
}

/**
 * Greedy oracle: each round adds the sentence that most raises ROUGE-1 + ROUGE-2 F1 against the reference,
 * until `words` tokens are reached (bigrams across sentence joins are ignored while choosing).
 */
export function oracleSummary(sentences: readonly Sentence[], words: number, reference: string): string[] {
  const pool = baselinePool(sentences);
  const referenceTokens = rougeTokens(reference);
  const referenceGrams = [ngramCounts(referenceTokens, 1), ngramCounts(referenceTokens, 2)] as const;
  const referenceTotals = [referenceTokens.length, Math.max(0, referenceTokens.length - 1)] as const;
  const grams = pool.map((s) => {
    const tokens = rougeTokens(s.text);
    return { length: tokens.length, counts: [ngramCounts(tokens, 1), ngramCounts(tokens, 2)] as const };
  });
  const pickedCounts = [new Map<string, number>(), new Map<string, number>()] as const;
  const overlap = [0, 0];
  const totals = [0, 0];
  const gain = (n: 0 | 1, counts: Map<string, number>): number => {
    let added = 0;
    for (const [gram, count] of counts) {
      const limit = referenceGrams[n].get(gram) ?? 0;
      const before = pickedCounts[n].get(gram) ?? 0;
      added += Math.min(before + count, limit) - Math.min(before, limit);
    }
    return added;
  };
  const chosen: number[] = [];
  const taken = new Set<number>();
  while (totals[0]! < words && taken.size < pool.length) {
    let best = -1;
    let bestScore = -Infinity;
    grams.forEach((g, i) => {
      if (taken.has(i) || g.length === 0) return;
      const score =
        f1(overlap[0]! + gain(0, g.counts[0]), totals[0]! + g.length, referenceTotals[0]) +
        f1(overlap[1]! + gain(1, g.counts[1]), totals[1]! + Math.max(0, g.length - 1), referenceTotals[1]);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    const g = grams[best];
    if (g === undefined) break;
    taken.add(best);
    chosen.push(best);
    for (const n of [0, 1] as const) {
      overlap[n]! += gain(n, g.counts[n]);
      for (const [gram, count] of g.counts[n])
        pickedCounts[n].set(gram, (pickedCounts[n].get(gram) ?? 0) + count);
    }
    totals[0]! += g.length;
    totals[1]! += Math.max(0, g.length - 1);
  }
  return joined(pool, chosen, words);
}
