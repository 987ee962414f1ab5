/**
 * A conversation's insights: each sentence gives at most one (a follow-up, an action item or a question)
 * with its confidence; questions are then ranked and capped. Tasks are found by a learned model
 * (action-model.ts over action-features.ts), their assignee by actions.ts, questions by the rules of
 * questions.ts; their scores are in insight-scores.ts.
 */
import {
  actionContext,
  actionFeatures,
  mayStateTask,
  ruleVerdict,
  rulesStand,
  sentencePhrases,
  type ActionContext,
} from "./action-features.ts";
import { actionProbability, actionScore, DEFAULT_ACTION_MODEL, type ActionModel } from "./action-model.ts";
import { taskAssignee, type Assignee } from "./actions.ts";
import { resolveDueDate } from "./dates.ts";
import {
  clampScore,
  QUESTION_BASE,
  QUESTION_FORM_BONUS,
  QUESTION_FULL_WORDS,
  QUESTION_LENGTH_BONUS,
  QUESTION_MARKED_BONUS,
} from "./insight-scores.ts";
import { ASK_SOMEONE, FOLLOW_UP } from "./lexicon.ts";
import { wordsOf, type Sentence } from "./nlp.ts";
import { importantQuestions, isQuestion, type AskedQuestion } from "./questions.ts";
import type { AnalysisInput, InsightItem } from "./types.ts";
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

/**
 * Classifies one sentence as a follow-up, an action item or a question (in that order of precedence), or
 * null. A task is a sentence the action model gives at least its threshold, or one where the phrasing
 * rules' verdict stands (rulesStand: short conversations, named people with a time); it is a follow-up when it
 * promises a later exchange (get back to, send to, ask someone, set up a meeting). Question scores are
 * rule confidences in 0..1.
 */
function classifySentence(
  sentence: Sentence,
  context: ActionContext,
  model: ActionModel,
): SentenceInsight | null {
  const words = wordsOf(sentence);
  if (words.normals.length < MIN_INSIGHT_WORDS || words.normals.length > MAX_INSIGHT_WORDS) return null;
  const text = tidySentence(sentence.text.trim());
  const rule = mayStateTask(words) ? ruleVerdict(sentence, words, context) : null;
  const learned =
    rule === null
      ? 0
      : actionProbability(actionFeatures(sentence, words, context, rule), sentencePhrases(words), model);
  const probability =
    rule === null ? 0 : Math.max(learned, rulesStand(rule, sentence, context, model.threshold));
  if (probability >= model.threshold) {
    const followUp = FOLLOW_UP.test(sentence.text) || ASK_SOMEONE.test(sentence.text);
    return {
      type: followUp ? "follow_up" : "action_item",
      text,
      score: clampScore(actionScore(probability, model)),
      assignee: taskAssignee(sentence, words),
    };
  }
  const question = rule?.question ?? isQuestion(sentence, words);
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
export function findInsights(
  input: AnalysisInput,
  sentences: readonly Sentence[],
  model: ActionModel = DEFAULT_ACTION_MODEL,
): InsightItem[] {
  const insights: InsightItem[] = [];
  const questions: AskedQuestion[] = [];
  const seen = new Set<string>();
  const context = actionContext(input);
  for (const sentence of sentences) {
    const found = classifySentence(sentence, context, model);
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
