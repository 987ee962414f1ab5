/**
 * Learned weights of the action-item model, one per feature of action-features.ts, and its threshold.
 * Written by `node --import tsx bench/train-actions.ts --write` from QMSum train; do not edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  weights: [
    -5.4252, // bias
    1.2009, // iFirm
    1.0172, // iWeak
    0.512, // weFirm
    0.8039, // weWeak
    -0.8819, // lets
    0.5124, // youFirm
    0.2322, // youWeak
    1.4837, // nameModal
    -0.5295, // theyModal
    -0.7584, // request
    1.0407, // imperative
    0.327, // errandVerb
    0.9599, // errandAnywhere
    0.2921, // procedureVerb
    -0.1452, // thinkVerb
    1.5415, // followUpPhrase
    0.7587, // records
    2.0125, // later
    0.4451, // now
    0.0929, // dateWords
    -0.4045, // question
    0.1748, // hedge
    -0.0244, // condition
    -0.6784, // negated
    -0.3481, // past
    0.3949, // reported
    0.0918, // nextStep
    -1.6351, // social
    -0.5471, // wish
    0.2237, // hypothetical
    0.1046, // addressed
    -0.059, // askedLater
    1.4624, // ruleTask
    0.5211, // ruleFollowUp
    0.825, // ruleTentative
    0.0481, // role
    2.0923, // closingRole
    0.663, // position
    0.7775, // closing
    -0.3, // opening
    0.9378, // length
    -2.4036, // short
    0.6188, // leadSpeaker
    0.5478, // namesParticipant
    0.5273, // commitErrand
    -0.7449, // commitLater
    0.3834, // closingAssign
  ],
  threshold: 0.3,
};
