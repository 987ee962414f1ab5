/** Where a conversation changes subject: TextTiling over its content terms. */
import { contentTerms, type Sentence } from "./nlp.ts";

/** Tunable TextTiling parameters (tuned on QMSum train, see docs/ANALYSIS.md). */
export interface SegmentationOptions {
  /** Content terms per pseudo-sentence. */
  termsPerUnit: number;
  /** Pseudo-sentences on each side of a gap when comparing blocks. */
  blockUnits: number;
  /** Boundaries need a depth above mean + cutoff × standard deviation of all depths. */
  cutoff: number;
  /** No segment shorter than this share of the conversation's content terms. */
  minSegmentShare: number;
  /** At most this many segments. */
  maxSegments: number;
}

export const DEFAULT_SEGMENTATION_OPTIONS: SegmentationOptions = {
  termsPerUnit: 40,
  blockUnits: 4,
  cutoff: 1.5,
  minSegmentShare: 0.1,
  maxSegments: 5,
};

interface Unit {
  terms: string[];
  /** Message where a segment starting at this unit would start. */
  startMessage: number;
}

/** Cuts the stream of content terms into pseudo-sentences of equal size (TextTiling's token-sequences). */
function pseudoSentences(sentences: readonly Sentence[], size: number): Unit[] {
  const units: Unit[] = [];
  let current: string[] = [];
  let startMessage = 0;
  let previousMessage = -1;
  let firstTermOfMessage = true;
  for (const sentence of sentences) {
    if (sentence.messageIndex !== previousMessage) {
      previousMessage = sentence.messageIndex;
      firstTermOfMessage = true;
    }
    for (const term of contentTerms(sentence)) {
      if (current.length === 0) {
        // A unit that starts inside a message moves its boundary to the next message.
        startMessage = firstTermOfMessage ? sentence.messageIndex : sentence.messageIndex + 1;
      }
      current.push(term);
      firstTermOfMessage = false;
      if (current.length >= size) {
        units.push({ terms: current, startMessage });
        current = [];
      }
    }
  }
  if (current.length > 0) {
    if (current.length < size / 2 && units.length > 0) units[units.length - 1]?.terms.push(...current);
    else units.push({ terms: current, startMessage });
  }
  return units;
}

/**
 * Cosine between the k units before and the k units after every gap, with both blocks slid one unit
 * at a time: the dot product and squared norms are kept as integer sums, so the result equals the
 * cosine of freshly counted blocks without recounting them at every gap.
 */
function blockSimilarities(units: readonly Unit[], k: number): number[] {
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  let dot = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  const change = (side: "left" | "right", terms: readonly string[], delta: 1 | -1): void => {
    const counts = side === "left" ? left : right;
    const other = side === "left" ? right : left;
    let squares = 0;
    for (const term of terms) {
      const before = counts.get(term) ?? 0;
      counts.set(term, before + delta);
      squares += delta === 1 ? 2 * before + 1 : 1 - 2 * before;
      dot += delta * (other.get(term) ?? 0);
    }
    if (side === "left") leftSquares += squares;
    else rightSquares += squares;
  };
  const similarities: number[] = [];
  for (let u = 1; u <= Math.min(k, units.length - 1); u++) change("right", units[u]?.terms ?? [], 1);
  for (let gap = 0; gap < units.length - 1; gap++) {
    change("left", units[gap]?.terms ?? [], 1);
    if (gap - k >= 0) change("left", units[gap - k]?.terms ?? [], -1);
    if (gap > 0) {
      change("right", units[gap]?.terms ?? [], -1);
      if (gap + k < units.length) change("right", units[gap + k]?.terms ?? [], 1);
    }
    similarities.push(dot === 0 ? 0 : dot / (Math.sqrt(leftSquares) * Math.sqrt(rightSquares)));
  }
  return similarities;
}

function depthScores(similarities: readonly number[]): number[] {
  return similarities.map((value, i) => {
    let left = value;
    for (let j = i - 1; j >= 0; j--) {
      const s = similarities[j] ?? 0;
      if (s < left) break;
      left = s;
    }
    let right = value;
    for (let j = i + 1; j < similarities.length; j++) {
      const s = similarities[j] ?? 0;
      if (s < right) break;
      right = s;
    }
    return left - value + (right - value);
  });
}

/**
 * TextTiling (Hearst 1997) over messages: lexical cohesion between neighbouring blocks of content terms,
 * smoothed, with boundaries at the deepest valleys. Returns the message index where each segment
 * starts, the first always 0; messages without content join the segment around them.
 */
export function segmentBoundaries(
  sentences: readonly Sentence[],
  messageCount: number,
  options: SegmentationOptions = DEFAULT_SEGMENTATION_OPTIONS,
): number[] {
  if (messageCount === 0) return [];
  const units = pseudoSentences(sentences, options.termsPerUnit);
  const k = options.blockUnits;
  if (units.length < 2 * k + 1) return [0];

  const raw = blockSimilarities(units, k);
  const smoothed = raw.map((_, i) => {
    const window = raw.slice(Math.max(0, i - 1), i + 2);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
  const depths = depthScores(smoothed);
  const mean = depths.reduce((a, b) => a + b, 0) / depths.length;
  const sd = Math.sqrt(depths.reduce((a, b) => a + (b - mean) ** 2, 0) / depths.length);
  const threshold = mean + options.cutoff * sd;

  const minUnits = Math.max(2, Math.round(units.length * options.minSegmentShare));
  const gaps = depths
    .map((depth, gap) => ({ depth, gap }))
    .filter(
      ({ depth, gap }) => depth > threshold && gap + 1 >= minUnits && units.length - (gap + 1) >= minUnits,
    )
    .sort((a, b) => b.depth - a.depth || a.gap - b.gap);
  const chosen: number[] = [];
  for (const { gap } of gaps) {
    if (chosen.length >= options.maxSegments - 1) break;
    if (chosen.every((c) => Math.abs(c - gap) >= minUnits)) chosen.push(gap);
  }
  const starts = new Set<number>([0]);
  for (const gap of chosen) {
    const start = units[gap + 1]?.startMessage ?? 0;
    if (start > 0 && start < messageCount) starts.add(start);
  }
  return [...starts].sort((a, b) => a - b);
}
