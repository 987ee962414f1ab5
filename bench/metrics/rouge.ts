/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F1 (Lin 2004), as computed by Google's rouge-score without stemming:
 * lowercase, every run of characters other than a–z and 0–9 is a separator, no stop-word removal.
 * ROUGE-L is the longest common subsequence over the whole token sequences ("rougeL"); rougeLsum below is
 * the summary-level variant papers report.
 */
import { stemmer } from "stemmer";

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

export function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join(" ");
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

export function f1(overlap: number, candidateTotal: number, referenceTotal: number): number {
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

/** The LCS table of two token sequences: table[i][j] is the LCS length of a[0..i) and b[0..j). */
function lcsTable(a: readonly string[], b: readonly string[]): number[][] {
  const table = [new Array<number>(b.length + 1).fill(0)];
  for (let i = 1; i <= a.length; i++) {
    const previous = table[i - 1] ?? [];
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      current[j] =
        a[i - 1] === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    table.push(current);
  }
  return table;
}

/** Indexes into `reference` of one longest common subsequence with `candidate` (rouge-score's backtracking). */
function lcsIndexes(reference: readonly string[], candidate: readonly string[]): number[] {
  const table = lcsTable(reference, candidate);
  const indexes: number[] = [];
  let i = reference.length;
  let j = candidate.length;
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      indexes.unshift(i - 1);
      i--;
      j--;
    } else if ((table[i]?.[j - 1] ?? 0) > (table[i - 1]?.[j] ?? 0)) j--;
    else i--;
  }
  return indexes;
}

/** rouge-score's tokens with its Porter stemming: tokens longer than three characters are stemmed. */
export function stemmedTokens(text: string): string[] {
  return rougeTokens(text).map((token) => (token.length > 3 ? stemmer(token) : token));
}

/** Sentences of a reference or of a candidate given as one text: split after ".", "!" or "?". */
export function rougeSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

/**
 * Summary-level ROUGE-L F1 ("rougeLsum" in rouge-score, with use_stemmer=True): for every reference
 * sentence, the union of its LCS with each candidate sentence counts as hits, each token at most as often
 * as it occurs on both sides.
 */
export function rougeLsum(
  candidateSentences: readonly string[],
  referenceSentences: readonly string[],
): number {
  const candidate = candidateSentences.map(stemmedTokens).filter((s) => s.length > 0);
  const reference = referenceSentences.map(stemmedTokens).filter((s) => s.length > 0);
  const count = (sentences: string[][]): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const sentence of sentences) for (const t of sentence) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  };
  const candidateCounts = count(candidate);
  const referenceCounts = count(reference);
  let hits = 0;
  for (const sentence of reference) {
    const union = new Set(candidate.flatMap((c) => lcsIndexes(sentence, c)));
    for (const index of [...union].sort((a, b) => a - b)) {
      const token = sentence[index] ?? "";
      if ((candidateCounts.get(token) ?? 0) > 0 && (referenceCounts.get(token) ?? 0) > 0) {
        hits++;
        candidateCounts.set(token, (candidateCounts.get(token) ?? 0) - 1);
        referenceCounts.set(token, (referenceCounts.get(token) ?? 0) - 1);
      }
    }
  }
  const total = (sentences: string[][]) => sentences.reduce((n, s) => n + s.length, 0);
  return f1(hits, total(candidate), total(reference));
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
