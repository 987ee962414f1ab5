/**
 * The confidences of the insight rules, in 0..1 (docs/ANALYSIS.md, "Scores"), which a conversation's
 * `confidenceThreshold` filters on.
 */

/** A task by who takes it on. */
export const TASK_SCORE = {
  /** "I will …", "Dana will …": one person commits or is committed by name. */
  person: 0.8,
  /** "we should …": the group, with nobody in particular to do it. */
  group: 0.65,
  /** "let's …", "you should …", "can you …": proposed or asked, not yet taken on. */
  proposed: 0.6,
} as const;

/** Factor for a task said with a hedge ("maybe", "I think", "if"). */
export const HEDGED_FACTOR = 0.75;

/** Added to a follow-up: a promise to come back is firmer than the task form it is said in. */
export const FOLLOW_UP_BONUS = 0.1;
/** Added to a follow-up that states when ("by Friday", "next week"). */
export const FOLLOW_UP_DATED_BONUS = 0.05;

/** Action items of at least this many words say enough to act on and get ACTION_LONG_BONUS… */
export const ACTION_LONG_WORDS = 7;
export const ACTION_LONG_BONUS = 0.05;
/** …shorter ones (five or six words) lose this. */
export const ACTION_SHORT_PENALTY = -0.1;
/** Added to an action item that states when. */
export const ACTION_DATED_BONUS = 0.1;

/** A question: the base, plus a bonus each for a "?" and an interrogative form… */
export const QUESTION_BASE = 0.5;
export const QUESTION_MARKED_BONUS = 0.15;
export const QUESTION_FORM_BONUS = 0.15;
/** …and up to this for length, full at QUESTION_FULL_WORDS words (a question that stands on its own). */
export const QUESTION_LENGTH_BONUS = 0.15;
export const QUESTION_FULL_WORDS = 12;

/** Scores stay inside these bounds, so no rule claims certainty or nothing. */
const MIN_SCORE = 0.05;
const MAX_SCORE = 0.99;

/** A score within MIN_SCORE..MAX_SCORE, rounded to two decimals. */
export function clampScore(score: number): number {
  return Math.round(Math.min(MAX_SCORE, Math.max(MIN_SCORE, score)) * 100) / 100;
}
