/**
 * The phrasing rules of a task ("I'll send …", "Dana, can you check …", "let's fix …") and whose it is; whether
 * it is work for later, and so an action item, is task-timing.ts's (ruleTask).
 */
import {
  ABILITY,
  CONDITION,
  DANGLING_ENDS,
  GENERIC_OBLIGATION,
  HEDGES,
  LEAD_INS,
  NEGATION,
  NOT_TASK_OPENINGS,
  NON_TASK_VERBS,
  NOT_REQUEST_BEFORE,
  OPENERS,
  RELATIVE,
  REQUEST_MODALS,
  WEAK_COMMITMENT,
  WISH,
  WH_WORDS,
} from "./lexicon.ts";
import { addressedName, nameBefore } from "./names.ts";
import type { Sentence, Token, Words } from "./nlp.ts";
import { askedOf, imperativeVerb } from "./requests.ts";
import type { TaskContext } from "./task-timing.ts";
import { commitmentEnd, hasEmptyObject, isTaskVerb, verbAfter } from "./task-verbs.ts";

/** "speaker" for first-person commitments, a name as written, or null (group or unknown). */
export type Assignee = { kind: "speaker" } | { kind: "name"; name: string } | null;

/**
 * Who a task statement is about: the speaker ("I'll …"), a named person ("Dana will …"), the group ("we
 * should …", "let's …"), "you" ("you're gonna …"), or someone asked ("can you …").
 */
export type TaskSubject = "speaker" | "name" | "group" | "you" | "request" | "instruction";

/** A task statement: how firmly it was said, who does it, and whether it was asked of someone. */
export interface FoundAction {
  assignee: Assignee;
  request: boolean;
  subject: TaskSubject;
  /** The task's verb (normal form) and its word index. */
  verb: string;
  verbIndex: number;
  /** Said with a hedge ("maybe", "I think") or a weak modal ("should", "wanna"). */
  tentative: boolean;
  /** Nothing after the verb says what the task is on ("I'll do that"). */
  vague: boolean;
  /** Said under a condition ("… if you're gonna do digits again"); a polite "Ron, if you can …" asks. */
  conditional: boolean;
}

/** Longer sentences are monologues that mention tasks rather than state one. */
const MAX_ACTION_WORDS = 45;

/**
 * Finds a task stated in the sentence: who does it and how firmly it was said, or null. "you can …" counts
 * only near the end of a meeting, where it hands out work ("maybe you can look at the trends").
 */
export function findAction(sentence: Sentence, words: Words, context: TaskContext): FoundAction | null {
  const n = words.normals;
  const hedged = HEDGES.test(sentence.text.toLowerCase());
  const found = (
    subject: TaskSubject,
    assignee: Assignee,
    verb: { verb: string; index: number },
    weak = false,
    conditional = CONDITION.test(sentence.text),
  ): FoundAction => ({
    assignee,
    request: subject === "request" || subject === "instruction",
    subject,
    verb: verb.verb,
    verbIndex: verb.index,
    tentative: hedged || weak,
    // "… but I'll try." says nothing of what is tried.
    vague:
      hasEmptyObject(words, verb.index) || (verb.verb === "try" && verb.index + 1 >= words.tokens.length),
    conditional,
  });
  // Conditions ("If we wanna use …, you can buy …"), reasons ("'cause I have to focus on …") and long
  // monologues are not task statements.
  const first = n.find((w) => !OPENERS.has(w)) ?? "";
  const conditional = NOT_TASK_OPENINGS.has(first) || n.length > MAX_ACTION_WORDS;
  // A cut-off sentence ("I'll rerun it with") does not say what the task is; "look into that" is whole.
  if (DANGLING_ENDS.has(n[n.length - 1] ?? "") && !isPronounObject(words, n.length - 1)) return null;
  for (let i = 0; i < n.length && !conditional; i++) {
    const word = n[i] ?? "";
    // "let's send", "let us fix"
    if (letUsAt(n, i)) {
      const verb = verbAfter(words, i + 2);
      if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index))
        return found("group", null, verb);
      continue;
    }
    const end = commitmentEnd(n, i + 1);
    if (end < 0) continue;
    const modal = n.slice(i + 1, end).join(" ");
    // "you can look at the trends" hands out work at the start of a clause; "so you can plug it in" does not.
    if (word === "you" && ABILITY.test(modal) && !n.slice(0, i).every((w) => LEAD_INS.has(w))) continue;
    // "you wanna pick up the phone" is a hypothetical, not a task.
    if (word === "you" && WISH.test(modal)) continue;
    // "I don't think we should …", "that we're going to use" (a relative clause, not a commitment)
    if (n.slice(Math.max(0, i - 3), i).some((w) => NEGATION.has(w))) continue;
    if (i > 0 && RELATIVE.has(n[i - 1] ?? "")) continue;
    if (isReducedRelative(sentence, words, i)) continue;
    const verb = verbAfter(words, end);
    if (verb === null || !isTaskVerb(words, verb)) continue;
    const weak = WEAK_COMMITMENT.test(modal);
    if (word === "i") return found("speaker", { kind: "speaker" }, verb, weak);
    // Others' tasks must say what the task is on: "we must do better", "you have to push it" do not.
    if (hasEmptyObject(words, verb.index)) continue;
    if (word === "we") return found("group", null, verb, weak);
    if (word === "you") {
      if (n[0] === "if" || n[0] === "when") continue;
      const addressee = addressedName(sentence);
      // "You have to choose the code": the generic "you" of a description, unless someone is addressed or
      // the meeting is handing out work ("you have to work on the component concept").
      if (addressee === null && !context.closing && GENERIC_OBLIGATION.test(modal)) continue;
      return found("you", nameOrNull(addressee), verb, weak);
    }
    const name = nameBefore(words, i + 1);
    if (name !== null) return found("name", { kind: "name", name }, verb, weak);
  }
  // Requests: "can you send …", "Dana, could you please check …"
  for (let i = 0; i + 1 < n.length; i++) {
    if (!requestAt(n, i)) continue;
    const verb = verbAfter(words, i + 2);
    if (verb !== null && isTaskVerb(words, verb) && !hasEmptyObject(words, verb.index)) {
      return found("request", nameOrNull(addressedName(sentence)), verb);
    }
  }
  const asked = askedOf(sentence, words);
  if (asked !== null) {
    // "Ron, if you can figure out …" asks; a condition after the task still makes it one.
    const condition = asked.polite
      ? CONDITION.test(words.normals.slice(asked.verb.index).join(" "))
      : undefined;
    return found("request", nameOrNull(addressedName(sentence)), asked.verb, false, condition);
  }
  const instruction = imperativeVerb(sentence, words);
  return instruction === null ? null : found("instruction", nameOrNull(addressedName(sentence)), instruction);
}

/** "let's", "let us" (or the tokenizer's "let" + "s") at word `i`. */
export const letUsAt = (n: readonly string[], i: number): boolean =>
  n[i] === "let" && (n[i + 1] === "'s" || n[i + 1] === "us" || n[i + 1] === "s");

/** A request's "can you" / "would you" at word `i`. */
export function requestAt(n: readonly string[], i: number): boolean {
  if (!REQUEST_MODALS.has(n[i] ?? "") || n[i + 1] !== "you") return false;
  // "if you could …", "what you would …" are not requests.
  if (i > 0 && NOT_REQUEST_BEFORE.test(n[i - 1] ?? "")) return false;
  // "What performance measures will you use?", "how much would you pay?" ask for information.
  return !n.slice(Math.max(0, i - 3), i).some((w) => WH_WORDS.has(w));
}

/** Prepositions of a task's object: "work on that", "look into that", "check at that", "think about that". */
const TASK_PREPOSITIONS = new Set(["on", "into", "at", "about"]);

/** "that" after a task's preposition is its object ("look into that"), not a cut-off "I think that". */
function isPronounObject(words: Words, index: number): boolean {
  return words.normals[index] === "that" && TASK_PREPOSITIONS.has(words.normals[index - 1] ?? "");
}

/** A subject right after "the <noun>" is a relative clause without "that": "the angle you have to use". */
function isReducedRelative(sentence: Sentence, words: Words, subject: number): boolean {
  const noun = words.tokens[subject - 1];
  const before = words.tokens[subject - 2];
  // "In the beginning, we'll write up a flat file": a comma closes the phrase before the subject.
  const at = sentence.tokens.indexOf(words.tokens[subject] as Token);
  if (sentence.tokens[at - 1]?.value === ",") return false;
  return noun?.pos === "NOUN" && (before?.pos === "DET" || before?.pos === "ADJ");
}

/**
 * Who a task sentence gives the task to: the speaker ("I'll …", "I can …"), a person named as the subject
 * of a commitment ("Bhaskara will …"), a person addressed ("Carol, can you …", "… by Friday, Sam?"), or
 * null (the group, "you", or nobody said).
 */
export function taskAssignee(sentence: Sentence, words: Words): Assignee {
  const n = words.normals;
  for (let i = 0; i + 1 < n.length; i++) {
    if (n[i] === "i" && (commitmentEnd(n, i + 1) > 0 || n[i + 1] === "can")) return { kind: "speaker" };
    if (commitmentEnd(n, i + 1) < 0) continue;
    const name = nameBefore(words, i + 1);
    if (name !== null) return { kind: "name", name };
  }
  const addressee = addressedName(sentence);
  return addressee === null ? null : { kind: "name", name: addressee };
}

function nameOrNull(name: string | null): Assignee {
  return name === null ? null : { kind: "name", name };
}
