import { contentTerms, isContentToken, type Sentence, type Token } from "./nlp.ts";

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

interface Phrase {
  key: string;
  text: string;
  words: number;
}

/**
 * Words that never belong in a topic label although wink may tag them as nouns: forms of address,
 * discourse and filler words, unsplit contractions, names of times of day.
 */
const NOT_LABEL_WORDS = new Set([
  "alright",
  "allright",
  "dunno",
  "guy",
  "guys",
  "folks",
  "madam",
  "sir",
  "mister",
  "kay",
  "okey",
  "yep",
  "yup",
  "nope",
  "sorry",
  "hello",
  "hi",
  "hey",
  "bye",
  "thanks",
  "cheers",
  "gosh",
  "wow",
  "cool",
  "whatever",
  "somebody",
  "someone",
  "anybody",
  "anyone",
  "everybody",
  "everyone",
  "nobody",
  "today",
  "tomorrow",
  "yesterday",
  "tonight",
  "morning",
  "afternoon",
  "evening",
  "moment",
]);

/** Nouns too general to be a topic on their own; they may still end a longer phrase ("young people"). */
const GENERAL_NOUNS = new Set([
  "people",
  "person",
  "meeting",
  "meetings",
  "minute",
  "minutes",
  "second",
  "seconds",
  "hour",
  "hours",
  "day",
  "days",
  "week",
  "weeks",
  "year",
  "years",
  "part",
  "parts",
  "fact",
  "case",
  "example",
  "sense",
  "number",
  "type",
  "types",
  "kinds",
  "sorts",
  "problem",
  "problems",
  "issue",
  "issues",
  "place",
  "end",
  "level",
  "side",
  "area",
  "areas",
  "matter",
  "reason",
  "situation",
  "option",
  "options",
  "stage",
  "step",
  "task",
  "job",
  "work",
  "difficulty",
  "support",
  "sector",
  "vision",
  "mind",
  "deal",
  "chance",
  "term",
  "terms",
  "words",
  "word",
  "group",
  "hand",
  "list",
]);

/** Evaluative or vague adjectives dropped from the start of a label ("different choices" → "choices"). */
const VAGUE_ADJECTIVES = new Set([
  "actual",
  "real",
  "big",
  "different",
  "other",
  "certain",
  "particular",
  "various",
  "same",
  "whole",
  "entire",
  "several",
  "many",
  "own",
  "bad",
  "important",
  "possible",
  "similar",
  "proper",
  "wrong",
  "usual",
  "normal",
  "current",
]);

const phraseCache = new WeakMap<Sentence, Phrase[]>();

interface PhraseWord {
  stem: string;
  normal: string;
  value: string;
  pos: string;
}

/** A word that may start, continue or end a label: a content noun or adjective written as a word. */
function isLabelWord(token: Token): boolean {
  return (
    (token.pos === "NOUN" || token.pos === "PROPN" || token.pos === "ADJ") &&
    isContentToken(token) &&
    token.normal.length > 2 &&
    /^[a-z][a-z-]*[a-z0-9]$/.test(token.normal) &&
    !NOT_LABEL_WORDS.has(token.normal)
  );
}

/**
 * Whether a run of label words can stand as a topic: not made only of general nouns, and a single
 * word only when it is a common noun (names and adjectives alone say little) or an acronym ("TCL").
 */
function isLabel(words: readonly PhraseWord[]): boolean {
  if (words.every((w) => GENERAL_NOUNS.has(w.normal))) return false;
  if (words.length > 1) return true;
  const word = words[0];
  if (word === undefined) return false;
  if (/^[A-Z]{2,}$/.test(word.value)) return true;
  return word.pos === "NOUN" && !/(?:ful|ous|less)$/.test(word.normal);
}

/**
 * Noun phrases that can label a topic: runs of adjectives and nouns ending in a noun, at most three
 * words, without filler, address or discourse words (see isLabel for single words).
 */
export function nounPhrases(sentence: Sentence): Phrase[] {
  // The summary and the topic labels both read them: computed once per sentence object (do not mutate).
  const cached = phraseCache.get(sentence);
  if (cached !== undefined) return cached;
  const phrases: Phrase[] = [];
  let run: PhraseWord[] = [];
  const flush = (): void => {
    while (run.length > 0 && run[run.length - 1]?.pos === "ADJ") run.pop();
    let words = run.slice(-3);
    while (words.length > 1 && VAGUE_ADJECTIVES.has(words[0]?.normal ?? "")) words = words.slice(1);
    if (words.length > 0 && isLabel(words)) {
      phrases.push({
        key: words.map((w) => w.stem).join(" "),
        text: words.map((w) => w.normal).join(" "),
        words: words.length,
      });
    }
    run = [];
  };
  for (const token of sentence.tokens) {
    if (isLabelWord(token)) {
      run.push({ stem: token.stem, normal: token.normal, value: token.value, pos: token.pos });
    } else {
      flush();
    }
  }
  flush();
  phraseCache.set(sentence, phrases);
  return phrases;
}

/**
 * The conversation's most frequent noun phrases with the messages that mention them, for conversations
 * too short to segment: each becomes a topic of its own. Frequency × words, ties by text.
 */
export function keyPhrases(
  sentences: readonly Sentence[],
  limit: number,
  /** Phrase keys (stems) already used as labels. */
  exclude: ReadonlySet<string>,
): { text: string; weight: number; messages: number[] }[] {
  const found = new Map<string, { key: string; text: string; weight: number; messages: Set<number> }>();
  for (const sentence of sentences) {
    for (const phrase of nounPhrases(sentence)) {
      const entry = found.get(phrase.key) ?? {
        key: phrase.key,
        text: phrase.text,
        weight: 0,
        messages: new Set<number>(),
      };
      entry.weight += phrase.words;
      entry.messages.add(sentence.messageIndex);
      found.set(phrase.key, entry);
    }
  }
  return [...found.values()]
    .filter((e) => !exclude.has(e.key))
    .sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1))
    .slice(0, limit)
    .map((e) => ({ text: e.text, weight: e.weight, messages: [...e.messages].sort((a, b) => a - b) }));
}

export interface LabelledSegment {
  startMessage: number;
  endMessage: number;
  label: string;
  /** Stems of the label, to keep other topics from repeating it in another form ("button"/"buttons"). */
  labelKey: string;
  score: number;
}

/** How much a multi-word phrase outranks a single word with the same weight (see docs/ANALYSIS.md). */
const MULTI_WORD_PREFERENCE = 1.5;

/**
 * Labels each segment with its most distinctive noun phrase (frequency in the segment × inverse
 * segment frequency, favouring multi-word phrases), each label used once; scores segments 0..1 by
 * how much they hold and how strong their label is.
 */
export function labelSegments(
  sentences: readonly Sentence[],
  starts: readonly number[],
  messageCount: number,
): LabelledSegment[] {
  const segmentOf = (messageIndex: number): number => {
    let s = 0;
    while (s + 1 < starts.length && (starts[s + 1] ?? Infinity) <= messageIndex) s++;
    return s;
  };
  const counts = starts.map(() => new Map<string, { occurrences: number; words: number }>());
  const surfaces = new Map<string, Map<string, number>>();
  const sizes = starts.map(() => 0);
  const documentFrequency = new Map<string, number>();
  for (const sentence of sentences) {
    const s = segmentOf(sentence.messageIndex);
    const segmentCounts = counts[s];
    if (segmentCounts === undefined) continue;
    sizes[s] = (sizes[s] ?? 0) + contentTerms(sentence).length;
    for (const phrase of nounPhrases(sentence)) {
      const count = segmentCounts.get(phrase.key) ?? { occurrences: 0, words: phrase.words };
      count.occurrences++;
      segmentCounts.set(phrase.key, count);
      const forms = surfaces.get(phrase.key) ?? new Map<string, number>();
      forms.set(phrase.text, (forms.get(phrase.text) ?? 0) + 1);
      surfaces.set(phrase.key, forms);
    }
  }
  for (const segmentCounts of counts) {
    for (const key of segmentCounts.keys()) documentFrequency.set(key, (documentFrequency.get(key) ?? 0) + 1);
  }
  const used = new Set<string>();
  const labelled = starts.map((start, s) => {
    const segmentCounts = counts[s] ?? new Map<string, { occurrences: number; words: number }>();
    // A phrase said once is a label only in a segment with hardly any phrases.
    const ranked = [...segmentCounts.entries()]
      .filter(([, count]) => count.occurrences >= 2 || segmentCounts.size < 5)
      .map(([key, count]) => ({
        key,
        value:
          count.occurrences *
          count.words *
          (count.words > 1 ? MULTI_WORD_PREFERENCE : 1) *
          Math.log(1 + starts.length / (documentFrequency.get(key) ?? 1)),
      }))
      .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1));
    const best = ranked.find((r) => !used.has(r.key));
    if (best !== undefined) used.add(best.key);
    const forms = best === undefined ? undefined : surfaces.get(best.key);
    const label =
      forms === undefined
        ? "general discussion"
        : ([...forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ??
          "general discussion");
    return {
      startMessage: start,
      endMessage: (starts[s + 1] ?? messageCount) - 1,
      label,
      labelKey: best?.key ?? "",
      strength: best?.value ?? 0,
      size: sizes[s] ?? 0,
    };
  });
  const maxSize = Math.max(1, ...labelled.map((l) => l.size));
  const maxStrength = Math.max(1e-9, ...labelled.map((l) => l.strength));
  return labelled.map((l) => ({
    startMessage: l.startMessage,
    endMessage: l.endMessage,
    label: l.label,
    labelKey: l.labelKey,
    score: Math.round((0.6 * (l.size / maxSize) + 0.4 * (l.strength / maxStrength)) * 1000) / 1000,
  }));
}
