/**
 * Learned weights of the action-item model, one per feature of action-features.ts, its threshold, and how
 * it was trained. Written by `node --import tsx bench/train-actions.ts --write` from QMSum train; do not
 * edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  bias: -5.3529,
  weights: [
    1.3898, // iFirm
    1.3659, // iWeak
    0.8372, // weFirm
    0.9431, // weWeak
    -1.916, // lets
    0.2701, // youFirm
    0.1732, // youWeak
    1.7312, // nameModal
    -0.259, // theyModal
    -1.0374, // request
    2.362, // imperative
    -1.3049, // errandVerb
    0.9923, // errandAnywhere
    0.1023, // procedureVerb
    0.0856, // thinkVerb
    2.1023, // followUpPhrase
    0.6977, // records
    2.0212, // later
    0.5083, // now
    0.2356, // dateWords
    -0.5966, // question
    0.29, // hedge
    -0.3529, // condition
    -0.7916, // negated
    -0.0643, // past
    0.1491, // reported
    0.4145, // nextStep
    -5.4462, // social
    -0.5022, // wish
    0.2031, // hypothetical
    -0.0765, // addressed
    0.0296, // askedLater
    1.2232, // ruleTask
    0.06, // ruleFollowUp
    0.8876, // ruleTentative
    -2.0604, // role
    4.2955, // closingRole
    0.6828, // position
    0.3101, // closing
    -0.7132, // opening
    1.4065, // length
    -1.0146, // short
    0.2545, // leadSpeaker
    1.1613, // namesParticipant
    1.6238, // commitErrand
    -0.7065, // commitLater
    0.8533, // closingAssign
    -0.0756, // nonTaskVerb
    -1.6499, // emptyObject
    -0.8738, // askedBefore
    0.3602, // acceptedAfter
    -0.0224, // longTurn
    0.381, // final
  ],
  threshold: 0.48,
};

/** The L2 penalty and the positives the weights were fitted with (bench/action-training.ts). */
export const ACTION_TRAINING = { l2: 3, borderline: true };
