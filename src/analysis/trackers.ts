import { stemOf } from "./stem.ts";

/** A tracker as matching needs it: its id, name and phrases. */
export interface TrackerDefinition {
  id: string;
  name: string;
  vocabulary: string[];
}

/** A text to search: a line, or an insight (with its type). */
export interface TrackedText {
  id: string;
  text: string;
  type?: string;
}

/** Where a phrase was found: the line's or insight's id, the words that matched as written there, and where they start. */
interface Ref {
  id: string;
  text: string;
  offset: number;
}

export interface TrackerMatch {
  type: "vocabulary";
  value: string;
  messageRefs: Ref[];
  insightRefs: (Ref & { type: string })[];
}

export interface DetectedTracker {
  id: string;
  name: string;
  matches: TrackerMatch[];
}

/** The trackers with a match, and whether the search stopped at a limit before the last text. */
export interface DetectedTrackers {
  trackers: DetectedTracker[];
  truncated: boolean;
}

/** What one detection may cost (docs/SYMBL-COMPAT.md, Trackers). */
export interface DetectionLimits {
  /** References (messageRefs and insightRefs, over every tracker) an answer holds at most. */
  maxRefs: number;
  /** Steps (a word read, a phrase's word compared) one detection takes at most. */
  maxSteps: number;
}

export const DETECTION_LIMITS: DetectionLimits = { maxRefs: 10_000, maxSteps: 50_000_000 };

/** A word: letters and digits, with inner apostrophes ("don't") kept. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

const stemOfWord = (word: string) => stemOf(word.toLowerCase().replace(/’/g, "'"));

/** A distinct phrase (its stems as numbers), the tracker phrases that are it, and the texts it was found in. */
interface Phrase {
  stems: number[];
  owners: { tracker: number; phrase: number }[];
  hits: { text: number; start: number; end: number }[];
  /** The last text it was found in, so each text gives it one hit, where it first occurs. */
  lastText: number;
}

/**
 * The trackers' phrases, each distinct stem sequence once, sorted by their stems (shorter before longer
 * with the same start), so the phrases that start with some words are one run of `sorted`: matching walks
 * a text's words narrowing that run, without an index as large as the vocabulary.
 */
class Vocabulary {
  readonly stemIds = new Map<string, number>();
  readonly sorted: Phrase[];
  /** The run of `sorted` that starts with each stem. */
  readonly firstRun = new Map<number, [number, number]>();
  /** Of each tracker, each phrase's entry (undefined for a phrase without a word). */
  readonly phraseOf: (Phrase | undefined)[][];
  readonly words: number;

  constructor(trackers: TrackerDefinition[]) {
    const byKey = new Map<string, Phrase>();
    let words = 0;
    this.phraseOf = trackers.map((tracker, t) =>
      tracker.vocabulary.map((value, p) => {
        const stems = (value.match(WORD) ?? []).map((word) => {
          const stem = stemOfWord(word);
          let id = this.stemIds.get(stem);
          if (id === undefined) this.stemIds.set(stem, (id = this.stemIds.size));
          return id;
        });
        words += stems.length;
        if (stems.length === 0) return undefined;
        const key = stems.join(" ");
        let phrase = byKey.get(key);
        if (phrase === undefined) byKey.set(key, (phrase = { stems, owners: [], hits: [], lastText: -1 }));
        phrase.owners.push({ tracker: t, phrase: p });
        return phrase;
      }),
    );
    this.words = words;
    this.sorted = [...byKey.values()].sort((a, b) => compareStems(a.stems, b.stems));
    for (const [index, phrase] of this.sorted.entries()) {
      const run = this.firstRun.get(phrase.stems[0] ?? -1);
      if (run) run[1] = index + 1;
      else this.firstRun.set(phrase.stems[0] ?? -1, [index, index + 1]);
    }
  }

  /**
   * Of sorted[lo, hi), phrases whose first `depth` stems are alike, the run whose stem at `depth` is
   * `stem`; a phrase of `depth` stems has none there and sorts first.
   */
  narrow(lo: number, hi: number, depth: number, stem: number): [number, number] {
    const stemAt = (index: number) => this.sorted[index]?.stems[depth] ?? -1;
    let from = lo;
    let to = hi;
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (stemAt(mid) < stem) from = mid + 1;
      else to = mid;
    }
    let end = from;
    to = hi;
    while (end < to) {
      const mid = (end + to) >>> 1;
      if (stemAt(mid) <= stem) end = mid + 1;
      else to = mid;
    }
    return [from, end];
  }
}

function compareStems(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  }
  return a.length - b.length;
}

/**
 * Each tracker with a match in the lines or insights, as Symbl's `/trackers` gave them: per phrase, the
 * lines and insights in which its words occur in a row, in any case and any inflection ("sending the
 * reports" for "send the report": words are compared by their Porter2 stems). Trackers without a match
 * are left out. A reference names the line or insight by id and holds the words that matched as written
 * there (`text`) and where they start (`offset`), not the whole text.
 *
 * Lines are searched in order, then insights. The search stops, `truncated`, at the first text whose
 * matches would take the answer past `limits.maxRefs` references, or once it has taken `limits.maxSteps`
 * steps; the answer then holds the matches of the texts before it. A word is compared with the phrases that
 * start with the words before it, narrowing a sorted run, so the time grows with the words of the texts
 * (times the words of the longest phrase matched), not with words times phrases.
 */
export function detectTrackers(
  trackers: TrackerDefinition[],
  lines: TrackedText[],
  insights: TrackedText[],
  limits: DetectionLimits = DETECTION_LIMITS,
): DetectedTrackers {
  const vocabulary = new Vocabulary(trackers);
  const texts = [...lines, ...insights];
  const { sorted, firstRun } = vocabulary;

  let steps = vocabulary.words;
  let refs = 0;
  let truncated = false;
  texts: for (let t = 0; t < texts.length; t++) {
    const text = texts[t]?.text ?? "";
    const ids: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for (const match of text.matchAll(WORD)) {
      if (++steps > limits.maxSteps) {
        truncated = true;
        break texts;
      }
      ids.push(vocabulary.stemIds.get(stemOfWord(match[0])) ?? -1);
      starts.push(match.index);
      ends.push(match.index + match[0].length);
    }
    const found: { phrase: Phrase; start: number; end: number }[] = [];
    let adding = 0;
    for (let i = 0; i < ids.length; i++) {
      let run = firstRun.get(ids[i] ?? -1);
      for (let depth = 0; run !== undefined; depth++) {
        if (++steps > limits.maxSteps) {
          truncated = true;
          break texts;
        }
        const [lo, hi] = run;
        const shortest = sorted[lo];
        if (shortest?.stems.length === depth + 1 && shortest.lastText !== t) {
          shortest.lastText = t;
          found.push({ phrase: shortest, start: starts[i] ?? 0, end: ends[i + depth] ?? 0 });
          adding += shortest.owners.length;
        }
        const next = ids[i + depth + 1];
        if (next === undefined || next < 0) break;
        const narrowed = vocabulary.narrow(lo, hi, depth + 1, next);
        run = narrowed[0] < narrowed[1] ? narrowed : undefined;
      }
    }
    if (refs + adding > limits.maxRefs) {
      truncated = true;
      break;
    }
    refs += adding;
    for (const hit of found) hit.phrase.hits.push({ text: t, start: hit.start, end: hit.end });
  }

  const detected = trackers.flatMap((tracker, t) => {
    const matches = tracker.vocabulary.flatMap((value, p): TrackerMatch[] => {
      const hits = vocabulary.phraseOf[t]?.[p]?.hits ?? [];
      if (hits.length === 0) return [];
      const messageRefs: Ref[] = [];
      const insightRefs: (Ref & { type: string })[] = [];
      for (const hit of hits) {
        const source = texts[hit.text];
        if (source === undefined) continue;
        const ref = { id: source.id, text: source.text.slice(hit.start, hit.end), offset: hit.start };
        if (hit.text < lines.length) messageRefs.push(ref);
        else insightRefs.push({ ...ref, type: source.type ?? "" });
      }
      return [{ type: "vocabulary", value, messageRefs, insightRefs }];
    });
    return matches.length > 0 ? [{ id: tracker.id, name: tracker.name, matches }] : [];
  });
  return { trackers: detected, truncated };
}
