/**
 * Learned weights of the summary scorer, one per feature of summary-features.ts (FEATURE_NAMES order).
 * Written by `node --import tsx bench/train-summary.ts --write` from QMSum train; do not edit by hand.
 */
export const SUMMARY_WEIGHTS: readonly number[] = [
  0.0138, // centrality
  0.0185, // keywords
  0.0781, // keyPhrases
  0.0541, // cues
  0.0604, // early
  0.0094, // late
  -0.0062, // length
  0.0459, // density
  0.0018, // question
  -0.0148, // speakerShare
  0.0102, // turnLength
  0.0063, // firstInTurn
  0.0003, // we
  0.0058, // firstPerson
  -0.391, // rarity
  -0.2895, // commonness
  -0.0306, // nouns
  0.1574, // determiners
  -0.0088, // numbers
  -0.0488, // vagueWords
  0.0869, // prepositions
  -0.0194, // pronouns
  -0.013, // adjectives
  -0.0392, // verbs
];
