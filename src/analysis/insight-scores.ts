/**
 * The confidences of the question rules, in 0..1 (docs/ANALYSIS.md, "Scores"), which a conversation's
 * `confidenceThreshold` filters on; a task's score comes from the action model (action-model.ts).
 */

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
