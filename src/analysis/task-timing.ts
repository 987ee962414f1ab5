/**
 * Whether a task statement is work for after the meeting, where it was said and how (isLaterTask), and the
 * phrasing rules' decision on a sentence (ruleTask), which makes it an action item or a follow-up (insights.ts).
 */
import { findAction, type FoundAction } from "./actions.ts";
import {
  ASK_SOMEONE,
  CUT_OFF_MODALS,
  DANGLING_ENDS,
  ERRAND_VERBS,
  FOLLOW_UP,
  FUTURE_MARKERS,
  LATER,
  NOW,
  PHRASAL_ERRAND,
  PROCEDURE_VERBS,
  RATING,
  WORK_VERBS,
} from "./lexicon.ts";
import type { Sentence, Words } from "./nlp.ts";
import { isQuestion } from "./questions.ts";
import { unicodeWords } from "./unicode-words.ts";

/** The share of a meeting's messages before its closing part, where work is handed out ("you'll work on …"). */
export const CLOSING_SHARE = 0.85;

/** Conversations of at least this many messages are meetings long enough to have a closing part. */
export const LONG_CONVERSATION = 20;

/** Where in the meeting a sentence was said: the last part is where work is handed out. */
export interface TaskContext {
  closing: boolean;
}

/**
 * The context of message `messageIndex` of `messages`: in the closing part of a meeting long enough to have
 * one (a short conversation's only line is no closing).
 */
export function taskContext(messageIndex: number, messages: number): TaskContext {
  return { closing: messages >= LONG_CONVERSATION && messageIndex / (messages - 1) >= CLOSING_SHARE };
}

/**
 * Whether a task statement is work to do after this point, by the guideline of datasets/qmsum/ACTIONS.md:
 * a follow-up or a time after the meeting always is; a rating, or something done "now" or with a verb of
 * meeting procedure ("show", "explain", "look at") is not. Otherwise the speaker's firm commitments and
 * named people's tasks are; the group's "we should …" is an opinion or a requirement of the thing designed;
 * "you …" and requests are work handed out only near the end of the meeting.
 */
export function isLaterTask(
  action: FoundAction,
  sentence: Sentence,
  words: Words,
  context: TaskContext,
): boolean {
  const text = sentence.text;
  // "Maybe we'll discuss them in next meeting", "we have to choose later on": the group's agenda, not work.
  if (action.subject === "group" && isProcedure(words, action.verbIndex, action.subject)) return false;
  if (LATER.test(text)) return true;
  // "You could mail it to them": a possibility said to nobody in particular, before work is handed out.
  if (action.subject === "you" && action.tentative && action.assignee === null && !context.closing)
    return false;
  if (FOLLOW_UP.test(text) || ASK_SOMEONE.test(text)) return true;
  if (RATING.test(text) || NOW.test(text) || isProcedure(words, action.verbIndex, action.subject))
    return false;
  // "we might try to keep the same network but train it on more data": an experiment to run, however hedged.
  if (!action.request && words.normals.slice(action.verbIndex - 2, action.verbIndex + 1).includes("try"))
    return !action.conditional;
  switch (action.subject) {
    case "speaker":
    case "name":
      return !action.tentative && !action.vague;
    case "group":
      // "we'll order two more headsets" decides on work; "we'll use infrared" on the thing designed.
      return (
        !action.tentative &&
        (ERRAND_VERBS.has(action.verb) ||
          PHRASAL_ERRAND.test(words.normals.slice(action.verbIndex).join(" ")))
      );
    case "instruction":
      // "Just bring more designs on the market" argues; an instruction at the close hands out work.
      return context.closing && !action.conditional;
    case "you":
    case "request":
      // "You can throw Homer when you're frustrated": a condition makes it a description.
      if (action.conditional) return false;
      // "You can adjust the angle": "you can" hands out only work done outside the meeting.
      if (action.subject === "you" && action.tentative && !WORK_VERBS.has(action.verb)) return false;
      // "Bob, can you send the contract to legal?", "could you check the figures?": asked by name, or an
      // errand asked for; "you're gonna have to write a program" describes.
      return (
        context.closing ||
        action.assignee !== null ||
        (action.subject === "request" && ERRAND_VERBS.has(action.verb))
      );
  }
}

/** What the phrasing rules make of a sentence: a task statement for later, and whether it follows up. */
export interface RuleTask {
  /** The task statement found and judged work for later, or null. */
  action: FoundAction | null;
  /** A promise to get back, send, ask or meet (with a task, or a firm future of its own). */
  followUp: boolean;
  /** The sentence read as a question (isQuestion), which the rules weigh and the insights reuse. */
  question: { question: boolean; strong: boolean };
}

/**
 * The phrasing rules' decision on one sentence: a task statement (findAction) that is work for later
 * (isLaterTask) and is not a question unless it asks for the task; a follow-up phrase needs a task or a
 * firm future ("we'll do this off-line") that is not cut off ("The next meeting will").
 */
export function ruleTask(sentence: Sentence, words: Words, context: TaskContext): RuleTask {
  const question = isQuestion(sentence, words);
  const found = findAction(sentence, words, context);
  // "Do you have to hand it around?" asks about an obligation, "Hynek will try to push for …?" checks a
  // plan; only requests are both.
  const asked = question.strong || sentence.text.trim().endsWith("?");
  const candidate = found !== null && asked && !found.request ? null : found;
  const action = candidate !== null && isLaterTask(candidate, sentence, words, context) ? candidate : null;
  const last = words.normals.at(-1) ?? "";
  const promised =
    FUTURE_MARKERS.test(sentence.text) &&
    !question.strong &&
    !CUT_OFF_MODALS.has(last) &&
    // "… get back to you on that" ends on its object.
    (last === "that" || !DANGLING_ENDS.has(last));
  const followUp =
    (FOLLOW_UP.test(sentence.text) || (action !== null && ASK_SOMEONE.test(sentence.text))) &&
    (action !== null || promised);
  return { action, followUp, question };
}

/** What follows "run" and "take" when the meeting itself is meant: "run through it", "take the minutes". */
const THROUGH = unicodeWords(/^(?:through|thru)\b/);
const MINUTES = unicodeWords(/^(?:the |some )?(?:minutes|notes)\b/);

/**
 * "look at", "show", "explain", "give your presentation", "take the minutes", "run through it": done in the
 * meeting; "look into", "look up" are not, nor the speaker's own "I have to look at that" (study after
 * the meeting: the group and others look at things together in it).
 */
function isProcedure(words: Words, verbIndex: number, subject: FoundAction["subject"]): boolean {
  const verb = words.normals[verbIndex] ?? "";
  const next = words.normals.slice(verbIndex + 1, verbIndex + 3).join(" ");
  if (verb === "look") return subject !== "speaker" && next.startsWith("at");
  if (verb === "run") return THROUGH.test(next);
  // "I'm gonna write that down" in the meeting; "write up the results" is work.
  if (verb === "write") return /^(?:it |that |this )?down/.test(next);
  // "we need to take into account …" weighs something in the discussion.
  // "I will take the minutes" keeps the record of this meeting.
  if (verb === "take") return next === "into account" || MINUTES.test(next);
  return PROCEDURE_VERBS.has(verb);
}
