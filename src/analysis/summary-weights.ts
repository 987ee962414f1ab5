/**
 * Learned weights of the summary scorer, one per feature of summary-features.ts (FEATURE_NAMES order).
 * Written by `node --import tsx bench/train-summary.ts --write` from QMSum train; do not edit by hand.
 */
export const SUMMARY_WEIGHTS: readonly number[] = [
  0.015, // centrality
  0.0171, // keywords
  0.0772, // keyPhrases
  0.0526, // cues
  0.0593, // early
  0.0092, // late
  -0.0061, // length
  0.0317, // density
  0.0025, // question
  -0.0144, // speakerShare
  0.0099, // turnLength
  0.0056, // firstInTurn
  -0.0003, // we
  0.0049, // firstPerson
  -0.3935, // rarity
  -0.2908, // commonness
  -0.012, // nouns
  0.1563, // determiners
  -0.0084, // numbers
  -0.0481, // vagueWords
  0.0865, // prepositions
  -0.0192, // pronouns
  -0.0072, // adjectives
  -0.0329, // verbs
];
