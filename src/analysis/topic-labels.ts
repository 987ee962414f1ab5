/** Naming and scoring topic segments by their most distinctive noun phrase. */
import { contentTerms, type Sentence } from "./nlp.ts";
import { nounPhrases } from "./phrases.ts";

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

/** A phrase said once labels a segment only when the segment has fewer distinct phrases than this. */
const FEW_PHRASES = 5;

/** A phrase said in every segment of a segmented meeting is its subject: it titles a part only when nothing else can. */
const EVERYWHERE_PENALTY = 0.1;

/** The label of a segment without any noun phrase. */
const FALLBACK_LABEL = "general discussion";

/** A segment's score: its share of the content (the largest segment is 1) and of the strongest label. */
const SIZE_WEIGHT = 0.6;
const LABEL_WEIGHT = 0.4;

/** Topic scores are rounded to three decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/**
 * Labels each segment with its most distinctive noun phrase (frequency in the segment × inverse
 * segment frequency × the segment's share of the phrase's mentions, favouring multi-word phrases), each
 * label used once; scores segments 0..1 by
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
      if (!phrase.title) continue;
      const count = segmentCounts.get(phrase.key) ?? { occurrences: 0, words: phrase.words };
      count.occurrences++;
      segmentCounts.set(phrase.key, count);
      const forms = surfaces.get(phrase.key) ?? new Map<string, number>();
      forms.set(phrase.text, (forms.get(phrase.text) ?? 0) + 1);
      surfaces.set(phrase.key, forms);
    }
  }
  const totals = new Map<string, number>();
  for (const segmentCounts of counts) {
    for (const [key, count] of segmentCounts) {
      documentFrequency.set(key, (documentFrequency.get(key) ?? 0) + 1);
      totals.set(key, (totals.get(key) ?? 0) + count.occurrences);
    }
  }
  const used = new Set<string>();
  const labelled = starts.map((start, s) => {
    const segmentCounts = counts[s] ?? new Map<string, { occurrences: number; words: number }>();
    // A phrase said once is a label only in a segment with hardly any phrases.
    const ranked = [...segmentCounts.entries()]
      .filter(([, count]) => count.occurrences >= 2 || segmentCounts.size < FEW_PHRASES)
      .map(([key, count]) => ({
        key,
        value:
          count.occurrences *
          count.words *
          (count.words > 1 ? MULTI_WORD_PREFERENCE : 1) *
          Math.log(1 + starts.length / (documentFrequency.get(key) ?? 1)) *
          // The segment's share of all its mentions: a phrase said all through the meeting ("remote
          // control") names the meeting, not this part of it.
          (count.occurrences / (totals.get(key) ?? count.occurrences)) *
          (starts.length > 1 && documentFrequency.get(key) === starts.length ? EVERYWHERE_PENALTY : 1),
      }))
      .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1));
    const best = ranked.find((r) => !used.has(r.key));
    if (best !== undefined) used.add(best.key);
    const forms = best === undefined ? undefined : surfaces.get(best.key);
    // The form said most often ("remote control" over "remote controls"), ties by text.
    const label =
      forms === undefined
        ? FALLBACK_LABEL
        : ([...forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ??
          FALLBACK_LABEL);
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
    score: roundScore(SIZE_WEIGHT * (l.size / maxSize) + LABEL_WEIGHT * (l.strength / maxStrength)),
  }));
}
