/**
 * Learned weights of the summary scorer, one per feature of summary-features.ts (FEATURE_NAMES order).
 * Written by `node --import tsx bench/train-summary.ts --write` from QMSum train; do not edit by hand.
 */
export const SUMMARY_WEIGHTS: readonly number[] = [
  0.0146, // centrality
  0.0166, // keywords
  0.0776, // keyPhrases
  0.0526, // cues
  0.0597, // early
  0.0094, // late
  -0.006, // length
  0.0314, // density
  0.0026, // question
  -0.0148, // speakerShare
  0.01, // turnLength
  0.0059, // firstInTurn
  -0.0001, // we
  0.0048, // firstPerson
  -0.3933, // rarity
  -0.2897, // commonness
  -0.0114, // nouns
  0.1563, // determiners
  -0.0082, // numbers
  -0.0481, // vagueWords
  0.0864, // prepositions
  -0.0189, // pronouns
  -0.007, // adjectives
  -0.0324, // verbs
];
