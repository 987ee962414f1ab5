/**
 * One sentence → at most one insight: a follow-up, an action item or a question, with its confidence.
 * The rules are in actions.ts and questions.ts, their words in lexicon.ts, their scores in insight-scores.ts.
 */
import { findAction, isLaterTask, speakerCommitment, type Assignee, type TaskContext } from "./actions.ts";
import {
  ACTION_DATED_BONUS,
  ACTION_LONG_BONUS,
  ACTION_LONG_WORDS,
  ACTION_SHORT_PENALTY,
  clampScore,
  FOLLOW_UP_BONUS,
  FOLLOW_UP_DATED_BONUS,
  QUESTION_BASE,
  QUESTION_FORM_BONUS,
  QUESTION_FULL_WORDS,
  QUESTION_LENGTH_BONUS,
  QUESTION_MARKED_BONUS,
  TASK_SCORE,
} from "./insight-scores.ts";
import { ASK_SOMEONE, DANGLING_ENDS, DATE_WORDS, FOLLOW_UP, FUTURE_MARKERS } from "./lexicon.ts";
import { wordsOf, type Sentence } from "./nlp.ts";
import { isQuestion } from "./questions.ts";
import { tidySentence } from "./tidy.ts";
import type { InsightType } from "../modules/conversations/conversations.schemas.ts";

/** What the rules found in one sentence, before ids and dates are attached. */
export interface SentenceInsight {
  type: InsightType;
  text: string;
  score: number;
  assignee: Assignee;
}

/** Shorter sentences are never an insight. */
const MIN_INSIGHT_WORDS = 4;

/** Under this many words ("Let's do digits.") an action item says too little to act on. */
const MIN_ACTION_WORDS = 5;

/**
 * Classifies one sentence as a follow-up, an action item or a question (in that order of precedence),
 * or null. Rules over wink POS tags; scores are rule confidences in 0..1. A task must be work to do after
 * this point (isLaterTask); `context` says whether the sentence is in the closing part of the meeting.
 */
export function classifySentence(
  sentence: Sentence,
  context: TaskContext = { closing: false },
): SentenceInsight | null {
  const words = wordsOf(sentence);
  if (words.normals.length < MIN_INSIGHT_WORDS) return null;
  const text = tidySentence(sentence.text.trim());
  const question = isQuestion(sentence, words);
  const found = findAction(sentence, words, context);
  // "Do you have to hand it around?" asks about an obligation, "Hynek will try to push for …?" checks a
  // plan; only requests are both.
  const asked = question.strong || sentence.text.trim().endsWith("?");
  const candidate = found !== null && asked && !found.request ? null : found;
  const action = candidate !== null && isLaterTask(candidate, sentence, words, context) ? candidate : null;
  const dated = DATE_WORDS.test(sentence.text);
  const followUp = FOLLOW_UP.test(sentence.text) || (action !== null && ASK_SOMEONE.test(sentence.text));
  // A follow-up phrase with no task around it needs a future ("we'll do this off-line") and an ending.
  const promised =
    FUTURE_MARKERS.test(sentence.text) && !question.strong && !DANGLING_ENDS.has(words.normals.at(-1) ?? "");
  if (followUp && (action !== null || promised)) {
    const assignee = action?.assignee ?? speakerCommitment(words);
    return {
      type: "follow_up",
      text,
      score: clampScore(
        (action?.score ?? TASK_SCORE.proposed) + FOLLOW_UP_BONUS + (dated ? FOLLOW_UP_DATED_BONUS : 0),
      ),
      assignee,
    };
  }
  if (action !== null && words.normals.length >= MIN_ACTION_WORDS) {
    const lengthBonus = words.normals.length >= ACTION_LONG_WORDS ? ACTION_LONG_BONUS : ACTION_SHORT_PENALTY;
    return {
      type: "action_item",
      text,
      score: clampScore(action.score + lengthBonus + (dated ? ACTION_DATED_BONUS : 0)),
      assignee: action.assignee,
    };
  }
  if (question.question) {
    // Clear form, an explicit "?", and enough words to stand alone make a question more useful.
    const marked = sentence.text.trim().endsWith("?");
    const score =
      QUESTION_BASE +
      (marked ? QUESTION_MARKED_BONUS : 0) +
      (question.strong ? QUESTION_FORM_BONUS : 0) +
      (Math.min(words.normals.length, QUESTION_FULL_WORDS) / QUESTION_FULL_WORDS) * QUESTION_LENGTH_BONUS;
    return { type: "question", text, score: clampScore(score), assignee: null };
  }
  return null;
}
