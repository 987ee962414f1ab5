/**
 * Learned decision scorer, one weight per feature of decision-features.ts (DECISION_FEATURE_NAMES order),
 * and the selection settings chosen by cross-validation on train.
 * Written by `node --import tsx bench/train-decisions.ts --write` from QMSum train; do not edit by hand.
 */
export const DECISION_MODEL = {
  bias: -1.6723,
  weights: [
    0.3783, // decisionWord
    0.1887, // choice
    0.1684, // groupFuture
    0.5857, // negativeChoice
    0.0572, // recap
    -0.6341, // firstPerson
    -0.502, // we
    -0.2284, // you
    0.0385, // numbers
    -0.1333, // length
    -0.5572, // density
    -0.0035, // commonness
    0.3876, // firstInTurn
    0.3403, // agreementAfter
    -0.0028, // nearbyDecisionWords
    1.2406, // speakerShare
    1.3242, // position
    -1.579, // late
  ] as readonly number[],
  threshold: 0.12,
  spacing: 80,
  maxDecisions: 2,
};
