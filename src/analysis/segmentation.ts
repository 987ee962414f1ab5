/**
 * Where a conversation changes subject. Every line is scored as the start of a chapter by a linear model
 * learned on QMSum train (bench/tune-segments.ts) over what marks a change of subject: lexical cohesion
 * (TextTiling) and the change of who is talking, each at two scales, the phrases people use to move on, the
 * main speaker, the lengths of the turns around it. A conversation gets as many
 * chapters as its length and its number of speakers suggest, each boundary at one of the best-scored lines.
 */
import { TOPIC_CUES } from "./lexicon.ts";
import { contentTerms, wordCount, type Sentence } from "./nlp.ts";
import { SEGMENTATION_WEIGHTS } from "./segmentation-weights.ts";

/** A TextTiling scale: how lexical cohesion and the speaker mix are compared across a gap. */
export interface TilingScale {
  /** Content terms per pseudo-sentence. */
  termsPerUnit: number;
  /** Pseudo-sentences on each side of a gap when comparing blocks. */
  blockUnits: number;
  /** Gaps on each side averaged into a gap's similarity (0: no smoothing). */
  smoothing: number;
}

/** Segmentation parameters (learned and tuned on QMSum train, see docs/ANALYSIS.md). */
export interface SegmentationOptions {
  /** The two TextTiling scales whose depths are features (the first is the coarser). */
  scales: readonly [TilingScale, TilingScale];
  /** Weight of each feature of a line (BOUNDARY_FEATURES order). */
  weights: readonly number[];
  /** Chapters of a conversation are about baseChapters + chaptersPerLogSpeaker × ln(speakers)… */
  baseChapters: number;
  chaptersPerLogSpeaker: number;
  /** …at most maxChapters, and at most one per minChapterTerms content terms (a short chat is one chapter). */
  maxChapters: number;
  minChapterTerms: number;
  /** Boundaries are at least this share of a mean chapter's lines apart, and as far from either end. */
  separation: number;
}

/** The features of a line as the start of a chapter, in the order of the weights. */
export const BOUNDARY_FEATURES = [
  "lexicalDepth",
  "lexicalDepthFine",
  "speakerDepth",
  "speakerDepthFine",
  "movesOn",
  "movesOnNear",
  "mainSpeaker",
  "length",
  "previousLength",
  "nearEdge",
] as const;

export const DEFAULT_SEGMENTATION_OPTIONS: SegmentationOptions = {
  scales: [
    { termsPerUnit: 40, blockUnits: 6, smoothing: 3 },
    { termsPerUnit: 20, blockUnits: 4, smoothing: 1 },
  ],
  weights: SEGMENTATION_WEIGHTS,
  baseChapters: 3.1493,
  chaptersPerLogSpeaker: 0.7748,
  maxChapters: 8,
  minChapterTerms: 150,
  separation: 0.2,
};

/** A gap's depth counts for the lines this close to where it falls, fading with the distance. */
const DEPTH_REACH = 3;
/** A moving-on phrase this many lines away still counts ("movesOnNear"). */
const CUE_REACH = 3;
/** Lines within this share of the conversation from either end are "nearEdge". */
const EDGE_SHARE = 0.05;

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
 * The lexical and speaker depth of every gap at one scale, each spread to the lines near where the gap
 * falls (the deepest gap within DEPTH_REACH lines, fading with the distance).
 */
function depthsByLine(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  scale: TilingScale,
): { lexical: Float64Array; speaker: Float64Array } {
  const n = speakers.length;
  const lexical = new Float64Array(n);
  const speaker = new Float64Array(n);
  const units = pseudoSentences(sentences, speakers, scale.termsPerUnit);
  const k = scale.blockUnits;
  if (units.length < 2 * k + 1) return { lexical, speaker };
  const depthsOf = (bags: ReadonlyMap<string, number>[]) =>
    depthScores(smooth(blockSimilarities(bags, k), scale.smoothing));
  const lexicalDepths = depthsOf(units.map((u) => u.terms));
  const speakerDepths = depthsOf(units.map((u) => u.speakers));
  lexicalDepths.forEach((depth, gap) => {
    const start = units[gap + 1]?.startMessage ?? 0;
    for (let d = -DEPTH_REACH; d <= DEPTH_REACH; d++) {
      const line = start + d;
      if (line < 0 || line >= n) continue;
      const fade = 1 - Math.abs(d) / (DEPTH_REACH + 1);
      lexical[line] = Math.max(lexical[line] ?? 0, depth * fade);
      speaker[line] = Math.max(speaker[line] ?? 0, (speakerDepths[gap] ?? 0) * fade);
    }
  });
  return { lexical, speaker };
}

/** The features of every line as the start of a chapter (BOUNDARY_FEATURES order), and the content terms said. */
export function boundaryFeatures(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  scales: SegmentationOptions["scales"],
): { features: number[][]; terms: number } {
  const n = speakers.length;
  const coarse = depthsByLine(sentences, speakers, scales[0]);
  const fine = depthsByLine(sentences, speakers, scales[1]);
  const cues = cueMessages(sentences);
  const words = new Float64Array(n);
  const talk = new Map<string, number>();
  let terms = 0;
  for (const sentence of sentences) {
    const count = wordCount(sentence);
    words[sentence.messageIndex] = (words[sentence.messageIndex] ?? 0) + count;
    const speaker = speakers[sentence.messageIndex] ?? "";
    talk.set(speaker, (talk.get(speaker) ?? 0) + count);
    terms += contentTerms(sentence).length;
  }
  let mainSpeaker: string | undefined;
  for (const [speaker, count] of talk) if (count > (talk.get(mainSpeaker ?? "") ?? -1)) mainSpeaker = speaker;
  const features: number[][] = [];
  for (let line = 0; line < n; line++) {
    let cueNear = 0;
    for (let d = 1; d <= CUE_REACH; d++) if (cues.has(line + d) || cues.has(line - d)) cueNear = 1;
    const position = line / n;
    features.push([
      coarse.lexical[line] ?? 0,
      fine.lexical[line] ?? 0,
      coarse.speaker[line] ?? 0,
      fine.speaker[line] ?? 0,
      cues.has(line) ? 1 : 0,
      cueNear,
      (speakers[line] ?? "") === mainSpeaker ? 1 : 0,
      Math.log1p(words[line] ?? 0),
      Math.log1p(words[line - 1] ?? 0),
      Math.min(position, 1 - position) < EDGE_SHARE ? 1 : 0,
    ]);
  }
  return { features, terms };
}

/** How many chapters a conversation gets: from its number of speakers, bounded by its length. */
export function chapterCount(terms: number, speakerCount: number, options: SegmentationOptions): number {
  const wanted = Math.round(
    options.baseChapters + options.chaptersPerLogSpeaker * Math.log(Math.max(1, speakerCount)),
  );
  return Math.max(1, Math.min(wanted, options.maxChapters, Math.floor(terms / options.minChapterTerms)));
}

/**
 * The chapters' starts from every line's score: the best-scored lines, kept apart by `separation` of a
 * mean chapter's lines (and as far from either end), until there are `count` chapters.
 */
export function chooseStarts(scores: readonly number[], count: number, separation: number): number[] {
  const n = scores.length;
  if (n === 0) return [];
  const apart = Math.max(2, Math.round((n / count) * separation));
  const candidates = scores
    .map((score, line) => ({ score, line }))
    .filter(({ line }) => line >= apart && n - line >= apart)
    .sort((a, b) => b.score - a.score || a.line - b.line);
  const chosen: number[] = [];
  for (const { line } of candidates) {
    if (chosen.length >= count - 1) break;
    if (chosen.every((c) => Math.abs(c - line) >= apart)) chosen.push(line);
  }
  return [0, ...chosen.sort((a, b) => a - b)];
}

/**
 * Chapter starts of a conversation: the message index where each starts, the first always 0; [] for no
 * messages. Each line is scored by the learned weights over its features, the number of chapters
 * follows the conversation's speakers and length, and the best-scored lines, kept apart, start them.
 */
export function segmentBoundaries(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  options: SegmentationOptions = DEFAULT_SEGMENTATION_OPTIONS,
): number[] {
  if (speakers.length === 0) return [];
  const { features, terms } = boundaryFeatures(sentences, speakers, options.scales);
  const count = chapterCount(terms, new Set(speakers).size, options);
  if (count <= 1) return [0];
  const scores = features.map((row) =>
    row.reduce((sum, value, j) => sum + value * (options.weights[j] ?? 0), 0),
  );
  return chooseStarts(scores, count, options.separation);
}
