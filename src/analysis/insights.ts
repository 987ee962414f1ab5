/**
 * A conversation's insights: each sentence gives at most one (a follow-up, an action item or a question)
 * with its confidence; questions are then ranked and capped. Tasks are found by the phrasing rules
 * (task-timing.ts over actions.ts), questions by the rules of questions.ts; their scores are in insight-scores.ts.
 */
import { taskAssignee, type Assignee } from "./actions.ts";
import { resolveDueDate } from "./dates.ts";
import {
  clampScore,
  FOLLOW_UP_BONUS,
  LATER_BONUS,
  QUESTION_BASE,
  QUESTION_FORM_BONUS,
  QUESTION_FULL_WORDS,
  QUESTION_LENGTH_BONUS,
  QUESTION_MARKED_BONUS,
  TASK_SCORE,
  TENTATIVE_PENALTY,
} from "./insight-scores.ts";
import { ASK_SOMEONE, FOLLOW_UP, LATER, OPENERS } from "./lexicon.ts";
import { wordsOf, type Sentence, type Words } from "./nlp.ts";
import { importantQuestions, isQuestion, type AskedQuestion } from "./questions.ts";
import { ruleTask, taskContext, type RuleTask } from "./task-timing.ts";
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

/** Fewer words say too little to act on ("Let's do digits."), spoken openers not counted. */
const MIN_TASK_WORDS = 5;

/** Whether a sentence says enough to state a task: "Yeah, but I'll zap." says three words. */
function saysEnough(words: Words): boolean {
  const n = words.normals;
  const said = n.length - n.findIndex((w) => !OPENERS.has(w) && w !== "yes");
  return said >= MIN_TASK_WORDS && said <= n.length;
}

/**
 * A task's confidence: by who takes it on (TASK_SCORE), less for a hedge or a weak modal, more for a time
 * after the meeting and for a promise to follow up.
 */
function taskScore(rule: RuleTask, sentence: Sentence): number {
  const subject = rule.action?.subject;
  const base =
    subject === "speaker" || subject === "name"
      ? TASK_SCORE.person
      : subject === "group"
        ? TASK_SCORE.group
        : TASK_SCORE.asked;
  return clampScore(
    base -
      (rule.action?.tentative === true ? TENTATIVE_PENALTY : 0) +
      (LATER.test(sentence.text) ? LATER_BONUS : 0) +
      (rule.followUp ? FOLLOW_UP_BONUS : 0),
  );
}

/**
 * Classifies one sentence as a follow-up, an action item or a question (in that order of precedence), or
 * null. A task is one the phrasing rules find (ruleTask: work for after this point in the meeting); it is a
 * follow-up when it promises a later exchange (get back to, send to, ask someone, set up a meeting). Scores
 * are rule confidences in 0..1. A learned model decided before (issue 27); held out by kind of meeting it
 * found fewer tasks than these rules, and the rules with it no more than the rules alone (docs/ANALYSIS.md).
 */
function classifySentence(sentence: Sentence, messages: number): SentenceInsight | null {
  const words = wordsOf(sentence);
  if (words.normals.length < MIN_INSIGHT_WORDS || words.normals.length > MAX_INSIGHT_WORDS) return null;
  const text = tidySentence(sentence.text.trim());
  const rule = saysEnough(words)
    ? ruleTask(sentence, words, taskContext(sentence.messageIndex, messages))
    : null;
  if (rule !== null && (rule.action !== null || rule.followUp)) {
    const followUp = FOLLOW_UP.test(sentence.text) || ASK_SOMEONE.test(sentence.text);
    return {
      type: followUp ? "follow_up" : "action_item",
      text,
      score: taskScore(rule, sentence),
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
export function findInsights(input: AnalysisInput, sentences: readonly Sentence[]): InsightItem[] {
  const insights: InsightItem[] = [];
  const questions: AskedQuestion[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences) {
    const found = classifySentence(sentence, input.messages.length);
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
