/**
 * The confidences of the insight rules, in 0..1 (docs/ANALYSIS.md, "Scores"), which a conversation's
 * `confidenceThreshold` filters on.
 */

/** A task by who takes it on; every task the rules find scores at least 0.5, so the default filter shows it. */
export const TASK_SCORE = {
  /** "I will …", "Dana will …": one person commits or is committed by name. */
  person: 0.8,
  /** "we'll order …", "let's …": the group. */
  group: 0.65,
  /** "you're gonna …", "can you …", "send me …": asked or handed out, not yet taken on. */
  asked: 0.6,
} as const;

/** Taken off a task said with a hedge or a weak modal ("maybe", "I think", "should", "wanna"). */
export const TENTATIVE_PENALTY = 0.1;
/** Added to a task that names a time after the meeting ("by Friday", "next week"): it can be held to. */
export const LATER_BONUS = 0.1;
/** Added to a follow-up: a promise to come back is firmer than the task form it is said in. */
export const FOLLOW_UP_BONUS = 0.1;

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
