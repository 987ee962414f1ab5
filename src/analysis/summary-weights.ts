/**
 * Learned weights of the summary scorer, one per feature of summary-features.ts (FEATURE_NAMES order).
 * Written by `node --import tsx bench/train-summary.ts --write` from QMSum train; do not edit by hand.
 */
export const SUMMARY_WEIGHTS: readonly number[] = [
  0.0146, // centrality
  0.0167, // keywords
  0.0775, // keyPhrases
  0.0527, // cues
  0.0597, // early
  0.0093, // late
  -0.006, // length
  0.0313, // density
  0.0026, // question
  -0.0148, // speakerShare
  0.01, // turnLength
  0.0059, // firstInTurn
  -0.0001, // we
  0.0048, // firstPerson
  -0.3935, // rarity
  -0.2899, // commonness
  -0.0113, // nouns
  0.1564, // determiners
  -0.0082, // numbers
  -0.0481, // vagueWords
  0.0864, // prepositions
  -0.0189, // pronouns
  -0.0069, // adjectives
  -0.0323, // verbs
];
