import { CUE_STEMS } from "./lexicon.ts";
import { contentTerms, WORD, wordCount, type Sentence } from "./nlp.ts";
import { nounPhrases } from "./phrases.ts";
import { compressSentence, tidySentence } from "./tidy.ts";
import { cosine, inverseDocumentFrequency, tfidfVector, type TermVector } from "./vectors.ts";

/** Tunable weights of the extractive summarizer (tuned on QMSum train, see docs/ANALYSIS.md). */
export interface SummaryOptions {
  /** Words to aim for in the whole summary. */
  wordBudget: number;
  /** Sentences shorter than this (in words) are never picked. */
  minWords: number;
  /** Sentences longer than this are never picked (long rambling turns). */
  maxWords: number;
  /** Weight of the similarity to the meeting's TF-IDF centroid. */
  centrality: number;
  /** Weight of the share of the meeting's top keywords in the sentence. */
  keywords: number;
  /** Weight of being early in the meeting (agenda and goals are usually stated first). */
  position: number;
  /** How fast the position weight decays, as a share of the meeting (exp(-position / decay)). */
  positionDecay: number;
  /** Weight of meeting cue words ("agenda", "decide", "project", …) that human summaries echo. */
  cues: number;
  /** MMR trade-off: penalty for similarity to sentences already picked. */
  redundancy: number;
  /** Multiplier for questions, which rarely belong in a summary. */
  questionFactor: number;
  /** Weight of the meeting's most frequent multi-word noun phrases in the sentence ("remote control"). */
  phrases: number;
  /** Drop spoken hedges inside picked sentences ("you know", "I mean", "kind of"). */
  compress: boolean;
}

export const DEFAULT_SUMMARY_OPTIONS: SummaryOptions = {
  wordBudget: 150,
  minWords: 6,
  maxWords: 60,
  centrality: 3,
  keywords: 0.5,
  position: 0.5,
  positionDecay: 0.2,
  cues: 1,
  redundancy: 0.3,
  questionFactor: 0.75,
  compress: true,
  phrases: 0.5,
};

/** Terms said at least this often make up the meeting's centroid. */
const MIN_CENTROID_COUNT = 2;

/** The meeting's keywords: its top centroid terms, twice the square root of its vocabulary, at least this many. */
const MIN_KEYWORDS = 10;

/** The meeting's key phrases: its multi-word noun phrases said at least this often, at most this many. */
const MIN_KEY_PHRASE_COUNT = 3;
const MAX_KEY_PHRASES = 15;

/** A candidate sentence has at least this many content terms (when the meeting has such sentences). */
const MIN_CONTENT_TERMS = 3;

/** In a short chat without a sentence of meeting length, any sentence of this many words may be picked. */
const SHORT_CHAT_MIN_WORDS = 3;

/** Scales the keyword share to the size of the other features (the keywords weight was tuned with it). */
const KEYWORD_SHARE_SCALE = 0.25;

/** Once something is picked, a sentence that would take the summary past this share of its budget is skipped. */
const BUDGET_OVERSHOOT = 1.25;

export interface PickedSentence {
  sentence: Sentence;
  text: string;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => WORD.test(w)).length;
}

/**
 * Picks the sentences of an extractive summary: centroid + keyword scoring, MMR against redundancy,
 * until the word budget is reached; returned in conversation order.
 */
export function selectSummarySentences(
  sentences: readonly Sentence[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): PickedSentence[] {
  if (sentences.length === 0) return [];
  const terms = sentences.map(contentTerms);
  const idf = inverseDocumentFrequency(terms);
  const vectors = terms.map((t) => tfidfVector(t, idf));

  // Meeting centroid: every content term weighted by its frequency in the meeting and its idf.
  const frequency = new Map<string, number>();
  for (const list of terms) for (const term of list) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const centroid: TermVector = new Map();
  for (const [term, count] of frequency) {
    if (count >= MIN_CENTROID_COUNT) centroid.set(term, Math.log(1 + count) * (idf.get(term) ?? 1));
  }
  const keywordCount = Math.max(MIN_KEYWORDS, Math.round(Math.sqrt(frequency.size) * 2));
  const keywords = new Set(
    [...centroid.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, keywordCount)
      .map(([term]) => term),
  );

  // The meeting's key phrases: its most frequent multi-word noun phrases.
  const phraseKeys = sentences.map((sentence) =>
    options.phrases === 0
      ? []
      : nounPhrases(sentence)
          .filter((p) => p.words > 1)
          .map((p) => p.key),
  );
  const phraseFrequency = new Map<string, number>();
  for (const keys of phraseKeys)
    for (const key of keys) phraseFrequency.set(key, (phraseFrequency.get(key) ?? 0) + 1);
  const topPhrases = new Set(
    [...phraseFrequency.entries()]
      .filter(([, count]) => count >= MIN_KEY_PHRASE_COUNT)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_KEY_PHRASES)
      .map(([key]) => key),
  );

  const lastIndex = Math.max(1, sentences.length - 1);
  // Short chats may have no sentence of meeting length: then any sentence with some content will do.
  const long = sentences.some(
    (s, i) => wordCount(s) >= options.minWords && (terms[i]?.length ?? 0) >= MIN_CONTENT_TERMS,
  );
  const minWords = long ? options.minWords : SHORT_CHAT_MIN_WORDS;
  const minTerms = long ? MIN_CONTENT_TERMS : 1;
  const candidates: { index: number; score: number; words: number; text: string }[] = [];
  sentences.forEach((sentence, index) => {
    const words = wordCount(sentence);
    const list = terms[index] ?? [];
    if (words < minWords || words > options.maxWords || list.length < minTerms) return;
    const vector = vectors[index] ?? new Map<string, number>();
    const keywordShare = list.filter((t) => keywords.has(t)).length / Math.sqrt(words);
    let score =
      options.centrality * cosine(vector, centroid) +
      options.keywords * keywordShare * KEYWORD_SHARE_SCALE +
      options.position * Math.exp(-index / lastIndex / options.positionDecay) +
      (options.cues * list.filter((t) => CUE_STEMS.has(t)).length) / Math.sqrt(words) +
      (options.phrases * (phraseKeys[index] ?? []).filter((k) => topPhrases.has(k)).length) /
        Math.sqrt(words);
    if (sentence.text.trim().endsWith("?")) score *= options.questionFactor;
    const text = options.compress
      ? compressSentence(tidySentence(sentence.text))
      : tidySentence(sentence.text);
    candidates.push({ index, score, words: countWords(text), text });
  });
  if (candidates.length === 0) return [];

  // MMR: each round takes the best score minus similarity to what is already picked; the maximum
  // similarity of every candidate is updated with the newest pick only.
  const picked: typeof candidates = [];
  const maxSimilarity = new Array<number>(candidates.length).fill(0);
  const taken = new Array<boolean>(candidates.length).fill(false);
  let used = 0;
  for (let round = 0; round < candidates.length && used < options.wordBudget; round++) {
    let best = -1;
    let bestValue = -Infinity;
    candidates.forEach((candidate, i) => {
      if (taken[i]) return;
      const value = candidate.score - options.redundancy * (maxSimilarity[i] ?? 0);
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    });
    const choice = candidates[best];
    if (choice === undefined) break;
    taken[best] = true;
    // Do not overshoot the budget by much with one long sentence once something is picked.
    if (picked.length > 0 && used + choice.words > options.wordBudget * BUDGET_OVERSHOOT) continue;
    picked.push(choice);
    used += choice.words;
    const chosenVector = vectors[choice.index] ?? new Map<string, number>();
    candidates.forEach((candidate, i) => {
      if (taken[i]) return;
      const similarity = cosine(vectors[candidate.index] ?? new Map<string, number>(), chosenVector);
      if (similarity > (maxSimilarity[i] ?? 0)) maxSimilarity[i] = similarity;
    });
  }
  return picked
    .sort((a, b) => a.index - b.index)
    .map((c) => ({ sentence: sentences[c.index] as Sentence, text: c.text }));
}
