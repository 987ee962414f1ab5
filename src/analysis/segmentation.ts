/**
 * Where a conversation changes subject: TextTiling over its content terms, helped by who is talking and
 * by the phrases people use to move on, with an absolute confidence threshold.
 */
import { TOPIC_CUES } from "./lexicon.ts";
import { contentTerms, type Sentence } from "./nlp.ts";

/** Tunable segmentation parameters (tuned on QMSum train, see docs/ANALYSIS.md). */
export interface SegmentationOptions {
  /** Content terms per pseudo-sentence. */
  termsPerUnit: number;
  /** Pseudo-sentences on each side of a gap when comparing blocks. */
  blockUnits: number;
  /** Gaps on each side averaged into a gap's similarity (0: no smoothing). */
  smoothing: number;
  /** Weight of the speaker-change depth beside the lexical depth. */
  speakerWeight: number;
  /** Added to a gap's score when a message near it says the meeting moves on ("next item", "questions now on"). */
  cueWeight: number;
  /** Messages on each side of a gap searched for such a phrase. */
  cueReach: number;
  /** A boundary needs a score above this, whatever the other gaps score: when unsure, say nothing. */
  threshold: number;
  /** No segment shorter than this share of the conversation's content terms. */
  minSegmentShare: number;
  /** At most this many segments. */
  maxSegments: number;
}

export const DEFAULT_SEGMENTATION_OPTIONS: SegmentationOptions = {
  termsPerUnit: 40,
  blockUnits: 6,
  smoothing: 3,
  speakerWeight: 0.25,
  cueWeight: 0.1,
  cueReach: 8,
  threshold: 0.3,
  minSegmentShare: 0.1,
  maxSegments: 5,
};

interface Unit {
  /** Content-term stems and how often the unit says each. */
  terms: Map<string, number>;
  /** Speakers and how many of the unit's terms each said. */
  speakers: Map<string, number>;
  size: number;
  /** Message where a segment starting at this unit would start. */
  startMessage: number;
}

const emptyUnit = (): Unit => ({ terms: new Map(), speakers: new Map(), size: 0, startMessage: 0 });

function add(bag: Map<string, number>, key: string, count: number): void {
  bag.set(key, (bag.get(key) ?? 0) + count);
}

/** Cuts the stream of content terms into pseudo-sentences of equal size (TextTiling's token-sequences). */
function pseudoSentences(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  size: number,
): Unit[] {
  const units: Unit[] = [];
  let current = emptyUnit();
  let previousMessage = -1;
  let firstTermOfMessage = true;
  for (const sentence of sentences) {
    if (sentence.messageIndex !== previousMessage) {
      previousMessage = sentence.messageIndex;
      firstTermOfMessage = true;
    }
    const speaker = speakers[sentence.messageIndex] ?? "";
    for (const term of contentTerms(sentence)) {
      if (current.size === 0) {
        // A unit that starts inside a message moves its boundary to the next message.
        current.startMessage = firstTermOfMessage ? sentence.messageIndex : sentence.messageIndex + 1;
      }
      add(current.terms, term, 1);
      add(current.speakers, speaker, 1);
      current.size++;
      firstTermOfMessage = false;
      if (current.size >= size) {
        units.push(current);
        current = emptyUnit();
      }
    }
  }
  const last = units[units.length - 1];
  if (current.size > 0) {
    if (current.size < size / 2 && last !== undefined) {
      for (const [term, count] of current.terms) add(last.terms, term, count);
      for (const [speaker, count] of current.speakers) add(last.speakers, speaker, count);
      last.size += current.size;
    } else units.push(current);
  }
  return units;
}

/**
 * Cosine between the counts (of terms, or of speakers) in the k units before and the k units after
 * every gap, with both blocks slid one unit at a time: the dot product and squared norms are kept as
 * integer sums, so the result equals the cosine of freshly counted blocks without recounting them.
 */
function blockSimilarities(units: readonly ReadonlyMap<string, number>[], k: number): number[] {
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  let dot = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  const change = (side: "left" | "right", bag: ReadonlyMap<string, number>, delta: 1 | -1): void => {
    const counts = side === "left" ? left : right;
    const other = side === "left" ? right : left;
    let squares = 0;
    for (const [term, count] of bag) {
      const before = counts.get(term) ?? 0;
      const after = before + delta * count;
      counts.set(term, after);
      squares += after * after - before * before;
      dot += delta * count * (other.get(term) ?? 0);
    }
    if (side === "left") leftSquares += squares;
    else rightSquares += squares;
  };
  const similarities: number[] = [];
  const none = new Map<string, number>();
  for (let u = 1; u <= Math.min(k, units.length - 1); u++) change("right", units[u] ?? none, 1);
  for (let gap = 0; gap < units.length - 1; gap++) {
    change("left", units[gap] ?? none, 1);
    if (gap - k >= 0) change("left", units[gap - k] ?? none, -1);
    if (gap > 0) {
      change("right", units[gap] ?? none, -1);
      if (gap + k < units.length) change("right", units[gap + k] ?? none, 1);
    }
    similarities.push(dot === 0 ? 0 : dot / (Math.sqrt(leftSquares) * Math.sqrt(rightSquares)));
  }
  return similarities;
}

/** The mean of each value and its `width` neighbours on either side. */
function smooth(values: readonly number[], width: number): number[] {
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - width), i + width + 1);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
}

/** How far each similarity lies below the highest peaks on either side of it (Hearst's depth score). */
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

/** Messages whose text says the meeting moves on to something else. */
function cueMessages(sentences: readonly Sentence[]): Set<number> {
  const found = new Set<number>();
  for (const sentence of sentences) if (TOPIC_CUES.test(sentence.text)) found.add(sentence.messageIndex);
  return found;
}

/**
 * Topic segments of a conversation: lexical cohesion between neighbouring blocks of content terms
 * (TextTiling, Hearst 1997) and the change of who is talking, each as a depth below its neighbouring
 * peaks, plus a bonus where someone says the meeting moves on. A gap becomes a boundary only when its
 * score passes an absolute threshold, so a conversation without a clear change of subject stays one
 * segment. A boundary near a moving-on phrase starts at that message. Returns the message index where
 * each segment starts, the first always 0; messages without content join the segment around them.
 */
export function segmentBoundaries(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  options: SegmentationOptions = DEFAULT_SEGMENTATION_OPTIONS,
): number[] {
  const messageCount = speakers.length;
  if (messageCount === 0) return [];
  const units = pseudoSentences(sentences, speakers, options.termsPerUnit);
  const k = options.blockUnits;
  if (units.length < 2 * k + 1) return [0];

  const lexical = depthScores(
    smooth(
      blockSimilarities(
        units.map((u) => u.terms),
        k,
      ),
      options.smoothing,
    ),
  );
  const speaker = depthScores(
    smooth(
      blockSimilarities(
        units.map((u) => u.speakers),
        k,
      ),
      options.smoothing,
    ),
  );
  const cues = cueMessages(sentences);
  const cueNear = (message: number): number | undefined => {
    for (let d = 0; d <= options.cueReach; d++) {
      if (cues.has(message + d)) return message + d;
      if (d > 0 && cues.has(message - d)) return message - d;
    }
    return undefined;
  };

  const minUnits = Math.max(2, Math.round(units.length * options.minSegmentShare));
  const gaps = lexical
    .map((depth, gap) => {
      const start = units[gap + 1]?.startMessage ?? 0;
      const cue = cueNear(start);
      const score =
        depth + options.speakerWeight * (speaker[gap] ?? 0) + (cue === undefined ? 0 : options.cueWeight);
      return { gap, score, start: cue ?? start };
    })
    .filter(
      ({ score, gap }) =>
        score > options.threshold && gap + 1 >= minUnits && units.length - (gap + 1) >= minUnits,
    )
    .sort((a, b) => b.score - a.score || a.gap - b.gap);
  // Segments stay apart in units and, once moved to a cue, by a quarter of that share in messages
  // (two nearby gaps moved to one cue otherwise made chapters of a few lines).
  const minMessages = (messageCount * options.minSegmentShare) / 4;
  const chosen: { gap: number; start: number }[] = [];
  for (const candidate of gaps) {
    if (chosen.length >= options.maxSegments - 1) break;
    const apart = (c: { gap: number; start: number }): boolean =>
      Math.abs(c.gap - candidate.gap) >= minUnits && Math.abs(c.start - candidate.start) >= minMessages;
    if (
      candidate.start >= minMessages &&
      messageCount - candidate.start >= minMessages &&
      chosen.every(apart)
    )
      chosen.push(candidate);
  }
  const starts = new Set<number>([0]);
  for (const { start } of chosen) if (start > 0 && start < messageCount) starts.add(start);
  return [...starts].sort((a, b) => a - b);
}
