/**
 * Learned weights of the action-item model, one per feature of action-features.ts, and its threshold.
 * Written by `node --import tsx bench/train-actions.ts --write` from QMSum train; do not edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  weights: [
    -5.8876, // bias
    1.7594, // iFirm
    1.1858, // iWeak
    0.1313, // weFirm
    0.7123, // weWeak
    -0.2011, // lets
    0.9393, // youFirm
    -0.1685, // youWeak
    1.7769, // nameModal
    0.1352, // theyModal
    -1.3337, // request
    -0.0641, // imperative
    0.6484, // errandVerb
    1.2925, // errandAnywhere
    0.4292, // procedureVerb
    -0.6307, // thinkVerb
    2.3537, // followUpPhrase
    1.0223, // records
    1.1803, // later
    0.2857, // now
    0.1884, // dateWords
    -0.645, // question
    0.1328, // hedge
    -0.2725, // condition
    -0.7255, // negated
    -0.5084, // past
    0.5983, // reported
    0.6928, // nextStep
    -1.1768, // social
    -0.8264, // wish
    0.307, // position
    0.9366, // closing
    -0.2348, // opening
    0.9595, // length
    -2.0052, // short
    0.7166, // leadSpeaker
    1.9945, // namesParticipant
    0.6837, // commitErrand
    0.6361, // commitLater
    0.9626, // closingAssign
  ],
  threshold: 0.2,
};
