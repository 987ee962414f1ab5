/**
 * Learned decision scorer, one weight per feature of decision-features.ts (DECISION_FEATURE_NAMES order),
 * and the selection settings chosen by cross-validation on train.
 * Written by `node --import tsx bench/train-decisions.ts --write` from QMSum train; do not edit by hand.
 */
export const DECISION_MODEL = {
  bias: -1.7322,
  weights: [
    0.3319, // decisionWord
    0.1468, // choice
    0.085, // groupFuture
    0.5405, // negativeChoice
    0.0423, // recap
    0.1661, // hedge
    -0.4548, // firstPerson
    -0.1265, // we
    -0.0692, // you
    -0.0212, // numbers
    -0.0981, // length
    -0.4911, // density
    0.0173, // commonness
    0.2982, // firstInTurn
    0.168, // agreementAfter
    0.0286, // nearbyDecisionWords
    1.0924, // speakerShare
    1.3908, // position
    -1.7604, // late
  ] as readonly number[],
  threshold: 0.34,
  spacing: 20,
  maxDecisions: 8,
};
