/**
 * A conversation's insights: each sentence gives at most one (a follow-up, an action item or a question)
 * with its confidence; questions are then ranked and capped. The rules are in actions.ts and questions.ts,
 * their words in lexicon.ts, their scores in insight-scores.ts.
 */
import { findAction, speakerCommitment, type Assignee } from "./actions.ts";
import { resolveDueDate } from "./dates.ts";
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
import {
  ASK_SOMEONE,
  CUT_OFF_MODALS,
  DANGLING_ENDS,
  DATE_WORDS,
  FOLLOW_UP,
  FUTURE_MARKERS,
  OPENERS,
} from "./lexicon.ts";
import { wordsOf, type Sentence } from "./nlp.ts";
import { importantQuestions, isQuestion, type AskedQuestion } from "./questions.ts";
import type { AnalysisInput, InsightItem } from "./types.ts";
import { CLOSING_SHARE, isLaterTask, type TaskContext } from "./task-timing.ts";
import { tidySentence } from "./tidy.ts";
import type { InsightType } from "../modules/conversations/conversations.schemas.ts";

/** What the rules found in one sentence, before ids and dates are attached. */
interface SentenceInsight {
  type: InsightType;
  text: string;
  score: number;
  assignee: Assignee;
}

/** Shorter sentences are never an insight. */
const MIN_INSIGHT_WORDS = 4;

/**
 * Longer sentences are never an insight: an insight quotes its sentence, and text pasted without sentence
 * ends is cut into clauses before this (nlp.ts, RUN_ON_WORDS). The longest in QMSum has 83 words (a
 * committee question).
 */
const MAX_INSIGHT_WORDS = 100;

/** Under this many words ("Let's do digits.") an action item says too little to act on. */
const MIN_ACTION_WORDS = 5;

/**
 * Classifies one sentence as a follow-up, an action item or a question (in that order of precedence),
 * or null. Rules over wink POS tags; scores are rule confidences in 0..1. A task must be work to do after
 * this point (isLaterTask); `context` says whether the sentence is in the closing part of the meeting.
 */
function classifySentence(
  sentence: Sentence,
  context: TaskContext = { closing: false },
): SentenceInsight | null {
  const words = wordsOf(sentence);
  if (words.normals.length < MIN_INSIGHT_WORDS || words.normals.length > MAX_INSIGHT_WORDS) return null;
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
  // A follow-up phrase with no task around it needs a future ("we'll do this off-line") and an ending
  // ("The next meeting will", "I'll check with my" have none).
  const last = words.normals.at(-1) ?? "";
  const promised =
    FUTURE_MARKERS.test(sentence.text) &&
    !question.strong &&
    !CUT_OFF_MODALS.has(last) &&
    // "… get back to you on that" ends on its object.
    (last === "that" || !DANGLING_ENDS.has(last));
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
  // "Yeah, but I'll zap." says three words: spoken openers do not count.
  const said = words.normals.length - words.normals.findIndex((w) => !OPENERS.has(w) && w !== "yes");
  if (action !== null && said >= MIN_ACTION_WORDS) {
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

function referenceTime(input: AnalysisInput, messageIndex: number): Date {
  const message = input.messages[messageIndex];
  return new Date(message?.startTime ?? input.conversationStartTime);
}

/**
 * The insights of a conversation: every action item and follow-up in conversation order, then the
 * questions worth showing, most important first (importantQuestions). One insight per distinct text and type.
 */
export function findInsights(input: AnalysisInput, sentences: readonly Sentence[]): InsightItem[] {
  const insights: InsightItem[] = [];
  const questions: AskedQuestion[] = [];
  const seen = new Set<string>();
  const closingFrom = CLOSING_SHARE * input.messages.length;
  for (const sentence of sentences) {
    const found = classifySentence(sentence, { closing: sentence.messageIndex >= closingFrom });
    const message = input.messages[sentence.messageIndex];
    if (found === null || message === undefined) continue;
    const key = `${found.type}:${found.text.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const assigneeName =
      found.assignee === null
        ? null
        : found.assignee.kind === "speaker"
          ? message.speakerName
          : found.assignee.name;
    const insight: InsightItem = {
      type: found.type,
      text: found.text,
      score: found.score,
      messageIds: [message.id],
      memberId: message.memberId,
      assigneeName,
      assigneeMemberId: found.assignee?.kind === "speaker" ? message.memberId : null,
      dueBy:
        found.type === "question"
          ? null
          : resolveDueDate(sentence.text, referenceTime(input, sentence.messageIndex)),
    };
    if (found.type === "question") questions.push({ insight, sentence });
    else insights.push(insight);
  }
  return [...insights, ...importantQuestions(questions, input, sentences)];
}
