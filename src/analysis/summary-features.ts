/**
 * What the summary scorer knows about each candidate sentence: a few numbers per sentence, each
 * standardised within the meeting (mean 0, sd 1) so that one set of learned weights fits meetings of
 * every size. bench/train-summary.ts learns the weights (summary-weights.ts) from these features.
 */
import { CUE_STEMS, FIRST_PERSON_WORDS } from "./lexicon.ts";
import { contentTerms, wordCount, type Sentence } from "./nlp.ts";
import { nounPhrases } from "./phrases.ts";
import { cosine, inverseDocumentFrequency, tfidfVector, type TermVector } from "./vectors.ts";

/** The features, in the order of a feature vector and of the learned weights. */
export const FEATURE_NAMES = [
  "centrality",
  "keywords",
  "keyPhrases",
  "cues",
  "early",
  "late",
  "length",
  "density",
  "question",
  "speakerShare",
  "turnLength",
  "firstInTurn",
  "we",
  "firstPerson",
  "rarity",
  "commonness",
  "nouns",
  "determiners",
  "numbers",
  "vagueWords",
  "prepositions",
  "pronouns",
  "adjectives",
  "verbs",
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** Which sentences may be picked (in words and content terms). */
export interface CandidateLimits {
  minWords: number;
  maxWords: number;
}

/** A sentence that may be picked, its TF-IDF vector (for redundancy) and its standardised features. */
export interface Candidate {
  index: number;
  vector: TermVector;
  features: number[];
}

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

/** How fast the early and late priors decay, as a share of the meeting. */
const EARLY_DECAY = 0.2;
const LATE_DECAY = 0.1;

const WE_WORDS = new Set(["we", "us", "our", "let's"]);
const VAGUE_WORDS = new Set([
  "it",
  "that",
  "this",
  "they",
  "them",
  "those",
  "these",
  "there",
  "thing",
  "something",
]);

function topByCount(counts: ReadonlyMap<string, number>, limit: number, min: number): Set<string> {
  return new Set(
    [...counts.entries()]
      .filter(([, count]) => count >= min)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([key]) => key),
  );
}

/** Each column to mean 0 and standard deviation 1 (a constant column becomes 0). */
function standardise(rows: number[][]): void {
  const columns = FEATURE_NAMES.length;
  for (let c = 0; c < columns; c++) {
    let sum = 0;
    for (const row of rows) sum += row[c] ?? 0;
    const mean = sum / rows.length;
    let squares = 0;
    for (const row of rows) squares += ((row[c] ?? 0) - mean) ** 2;
    const sd = Math.sqrt(squares / rows.length);
    for (const row of rows) row[c] = sd > 0 ? ((row[c] ?? 0) - mean) / sd : 0;
  }
}

/**
 * The sentences a summary may pick, with their features. `speakers` holds a speaker key per message
 * index (null when unknown).
 */
export function summaryCandidates(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  limits: CandidateLimits,
): Candidate[] {
  const terms = sentences.map(contentTerms);
  const idf = inverseDocumentFrequency(terms);
  const frequency = new Map<string, number>();
  for (const list of terms) for (const term of list) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const centroid: TermVector = new Map();
  for (const [term, count] of frequency) {
    if (count >= MIN_CENTROID_COUNT) centroid.set(term, Math.log(1 + count) * (idf.get(term) ?? 1));
  }
  const keywords = topByCount(
    centroid,
    Math.max(MIN_KEYWORDS, Math.round(Math.sqrt(frequency.size) * 2)),
    -Infinity,
  );
  const phraseKeys = sentences.map((s) =>
    nounPhrases(s)
      .filter((p) => p.words > 1)
      .map((p) => p.key),
  );
  const phraseFrequency = new Map<string, number>();
  for (const keys of phraseKeys)
    for (const key of keys) phraseFrequency.set(key, (phraseFrequency.get(key) ?? 0) + 1);
  const keyPhrases = topByCount(phraseFrequency, MAX_KEY_PHRASES, MIN_KEY_PHRASE_COUNT);

  // Words per speaker and per message.
  const words = sentences.map(wordCount);
  const speakerWords = new Map<string, number>();
  const turnWords = new Map<number, number>();
  let totalWords = 0;
  sentences.forEach((s, i) => {
    const n = words[i] ?? 0;
    totalWords += n;
    turnWords.set(s.messageIndex, (turnWords.get(s.messageIndex) ?? 0) + n);
    const speaker = speakers[s.messageIndex];
    if (speaker != null) speakerWords.set(speaker, (speakerWords.get(speaker) ?? 0) + n);
  });

  // Short chats may have no sentence of meeting length: then any sentence with some content will do.
  const long = sentences.some(
    (_, i) => (words[i] ?? 0) >= limits.minWords && (terms[i]?.length ?? 0) >= MIN_CONTENT_TERMS,
  );
  const minWords = long ? limits.minWords : SHORT_CHAT_MIN_WORDS;
  const minTerms = long ? MIN_CONTENT_TERMS : 1;
  const lastIndex = Math.max(1, sentences.length - 1);
  const candidates: Candidate[] = [];
  sentences.forEach((sentence, index) => {
    const n = words[index] ?? 0;
    const list = terms[index] ?? [];
    if (n < minWords || n > limits.maxWords || list.length < minTerms) return;
    const root = Math.sqrt(n);
    const normals = sentence.tokens.map((t) => t.normal);
    const speaker = speakers[sentence.messageIndex];
    const relative = index / lastIndex;
    const share = (pos: string): number => sentence.tokens.filter((t) => t.pos === pos).length / n;
    const vector = tfidfVector(list, idf);
    const features: Record<FeatureName, number> = {
      centrality: cosine(vector, centroid),
      keywords: list.filter((t) => keywords.has(t)).length / root,
      keyPhrases: (phraseKeys[index] ?? []).filter((k) => keyPhrases.has(k)).length / root,
      cues: list.filter((t) => CUE_STEMS.has(t)).length / root,
      early: Math.exp(-relative / EARLY_DECAY),
      late: Math.exp(-(1 - relative) / LATE_DECAY),
      length: Math.log(n),
      density: list.length / n,
      question: sentence.text.trim().endsWith("?") ? 1 : 0,
      speakerShare: speaker == null ? 0 : (speakerWords.get(speaker) ?? 0) / Math.max(1, totalWords),
      turnLength: Math.log(1 + (turnWords.get(sentence.messageIndex) ?? 0)),
      firstInTurn: sentence.position === 0 ? 1 : 0,
      we: normals.filter((w) => WE_WORDS.has(w)).length / root,
      firstPerson: normals.filter((w) => FIRST_PERSON_WORDS.has(w)).length / root,
      rarity: list.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / list.length,
      commonness: list.reduce((sum, t) => sum + Math.log(frequency.get(t) ?? 1), 0) / list.length,
      nouns: sentence.tokens.filter((t) => t.pos === "NOUN" || t.pos === "PROPN").length / n,
      determiners: share("DET"),
      numbers: sentence.tokens.some((t) => t.pos === "NUM") ? 1 : 0,
      vagueWords: normals.filter((w) => VAGUE_WORDS.has(w)).length / n,
      prepositions: share("ADP"),
      pronouns: share("PRON"),
      adjectives: share("ADJ"),
      verbs: share("VERB"),
    };
    candidates.push({ index, vector, features: FEATURE_NAMES.map((name) => features[name]) });
  });
  if (candidates.length > 0) standardise(candidates.map((c) => c.features));
  return candidates;
}
