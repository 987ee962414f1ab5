/** Whether a sentence states a task ("I'll send …", "Dana, can you check …", "let's fix …"), and whose. */
import { HEDGED_FACTOR, TASK_SCORE } from "./insight-scores.ts";
import {
  ABILITY,
  ASK_SOMEONE,
  COMMITMENT,
  COMMITMENT_FIRST_WORDS,
  DANGLING_ENDS,
  EMPTY_OBJECTS,
  GENERIC_OBLIGATION,
  HEDGES,
  IMPERATIVE_VERBS,
  LEAD_INS,
  NEGATION,
  NOT_TASK_OPENINGS,
  OBLIGATION_VERBS,
  OPENERS,
  PHRASAL_TASK,
  NON_TASK_VERBS,
  NOT_REQUEST_BEFORE,
  RELATIVE,
  REQUEST_MODALS,
  START_VERBS,
  WEAK_COMMITMENT,
  WISH,
  WH_WORDS,
} from "./lexicon.ts";
import { addressedName, nameBefore } from "./names.ts";
import type { Sentence, Token, Words } from "./nlp.ts";
import type { TaskContext } from "./task-timing.ts";

/** "speaker" for first-person commitments, a name as written, or null (group or unknown). */
export type Assignee = { kind: "speaker" } | { kind: "name"; name: string } | null;

/**
 * Who a task statement is about: the speaker ("I'll …"), a named person ("Dana will …"), the group ("we
 * should …", "let's …"), "you" ("you're gonna …"), or someone asked ("can you …").
 */
export type TaskSubject = "speaker" | "name" | "group" | "you" | "request" | "instruction";

/** A task statement: how firmly it was said, who does it, and whether it was asked of someone. */
export interface FoundAction {
  score: number;
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
}

/** Words between a subject's modal and its verb that say who of them: "we can all give some thought". */
const QUANTIFIERS = new Set(["all", "both", "each"]);

/** Lead-ins read before an instruction's verb ("so maybe just send …"). */
const MAX_LEAD_INS = 4;

/** Words of a time phrase before an instruction ("for the next meeting send …"). */
const TIME_PHRASE_POS = new Set(["ADP", "DET", "ADJ", "NOUN"]);

/** Longer sentences are monologues that mention tasks rather than state one. */
const MAX_ACTION_WORDS = 45;

/** Index just after a commitment phrase starting at i ("will", "am going to", "need to"), or -1. */
function commitmentEnd(normals: readonly string[], i: number): number {
  // Most words start no commitment phrase; skip them before building the phrases.
  if (!COMMITMENT_FIRST_WORDS.has(normals[i] ?? "")) return -1;
  for (let length = 4; length >= 1; length--) {
    const phrase = normals.slice(i, i + length).join(" ");
    if (normals.length >= i + length && COMMITMENT.test(phrase)) return i + length;
  }
  return -1;
}

/**
 * The main verb after a commitment, skipping adverbs ("will just quickly send"), a second obligation ("gonna
 * have to explain") and verbs that only start the task ("wanna start including", "try to keep"); null when
 * none.
 */
function verbAfter(words: Words, from: number): { verb: string; index: number } | null {
  let limit = from + 3;
  for (let i = from; i < Math.min(words.tokens.length, limit); i++) {
    const token = words.tokens[i];
    if (token === undefined) return null;
    if (NEGATION.has(token.normal) || WH_WORDS.has(token.normal)) return null;
    // "we can all give …", "you'll both look into …"
    if (token.pos === "ADV" || token.pos === "PART" || QUANTIFIERS.has(token.normal)) continue;
    const next = words.tokens[i + 1];
    // "I'll be putting the minutes …", "you're gonna be thinking about …"
    if (token.normal === "be" && next?.pos === "VERB") continue;
    if (OBLIGATION_VERBS.has(token.normal) && next?.normal === "to") {
      limit = i + 4;
      continue;
    }
    // "try to get", "try and forward", "start including"
    if (
      START_VERBS.has(token.normal) &&
      (next?.normal === "to" || next?.normal === "and" || next?.pos === "VERB")
    ) {
      const task = verbAfter(words, i + 1);
      if (task !== null && !NON_TASK_VERBS.has(task.verb)) return task;
    }
    if (token.pos === "VERB" || (token.pos === "AUX" && token.normal === "do")) {
      return { verb: token.normal, index: i };
    }
    return null;
  }
  return null;
}

/**
 * Finds a task stated in the sentence: who does it and how firmly it was said, or null. "you can …" counts
 * only near the end of a meeting, where it hands out work ("maybe you can look at the trends").
 */
export function findAction(sentence: Sentence, words: Words, context: TaskContext): FoundAction | null {
  const n = words.normals;
  const hedged = HEDGES.test(sentence.text.toLowerCase());
  const hedge = hedged ? HEDGED_FACTOR : 1;
  const found = (
    subject: TaskSubject,
    score: number,
    assignee: Assignee,
    verb: { verb: string; index: number },
    weak = false,
  ): FoundAction => ({
    score: score * hedge,
    assignee,
    request: subject === "request" || subject === "instruction",
    subject,
    verb: verb.verb,
    verbIndex: verb.index,
    tentative: hedged || weak,
    // "… but I'll try." says nothing of what is tried.
    vague:
      hasEmptyObject(words, verb.index) || (verb.verb === "try" && verb.index + 1 >= words.tokens.length),
  });
  // Conditions ("If we wanna use …, you can buy …"), reasons ("'cause I have to focus on …") and long
  // monologues are not task statements.
  const first = n.find((w) => !OPENERS.has(w)) ?? "";
  const conditional = NOT_TASK_OPENINGS.has(first) || n.length > MAX_ACTION_WORDS;
  // A cut-off sentence ("I'll rerun it with") does not say what the task is.
  if (DANGLING_ENDS.has(n[n.length - 1] ?? "")) return null;
  for (let i = 0; i < n.length && !conditional; i++) {
    const word = n[i] ?? "";
    // "let's send", "let us fix"
    if (word === "let" && (n[i + 1] === "'s" || n[i + 1] === "us" || n[i + 1] === "s")) {
      const verb = verbAfter(words, i + 2);
      if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index))
        return found("group", TASK_SCORE.proposed, null, verb);
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
    if (word === "i") return found("speaker", TASK_SCORE.person, { kind: "speaker" }, verb, weak);
    // Others' tasks must say what the task is on: "we must do better", "you have to push it" do not.
    if (hasEmptyObject(words, verb.index)) continue;
    if (word === "we") return found("group", TASK_SCORE.group, null, verb, weak);
    if (word === "you") {
      if (n[0] === "if" || n[0] === "when") continue;
      const addressee = addressedName(sentence);
      // "You have to choose the code": the generic "you" of a description, unless someone is addressed or
      // the meeting is handing out work ("you have to work on the component concept").
      if (addressee === null && !context.closing && GENERIC_OBLIGATION.test(modal)) continue;
      return found("you", TASK_SCORE.proposed, nameOrNull(addressee), verb, weak);
    }
    const name = nameBefore(words, i + 1);
    if (name !== null) return found("name", TASK_SCORE.person, { kind: "name", name }, verb, weak);
  }
  // Requests: "can you send …", "Dana, could you please check …"
  for (let i = 0; i + 1 < n.length; i++) {
    if (!REQUEST_MODALS.has(n[i] ?? "") || n[i + 1] !== "you") continue;
    // "if you could …", "what you would …" are not requests.
    if (i > 0 && NOT_REQUEST_BEFORE.test(n[i - 1] ?? "")) continue;
    // "What performance measures will you use?", "how much would you pay?" ask for information.
    if (n.slice(Math.max(0, i - 3), i).some((w) => WH_WORDS.has(w))) continue;
    const verb = verbAfter(words, i + 2);
    if (verb !== null && isTaskVerb(words, verb) && !hasEmptyObject(words, verb.index)) {
      return found("request", TASK_SCORE.proposed, nameOrNull(addressedName(sentence)), verb);
    }
  }
  const instruction = imperativeVerb(sentence, words);
  return instruction === null
    ? null
    : found("instruction", TASK_SCORE.proposed, nameOrNull(addressedName(sentence)), instruction);
}

/**
 * An instruction: a clause that opens (after "so", "maybe", "please", a vocative or "for next meeting")
 * with a task verb in its base form and says what it is on ("send me your presentation", "Carol, check
 * the tax tables"); null when none.
 */
function imperativeVerb(sentence: Sentence, words: Words): { verb: string; index: number } | null {
  // "Or just write on the white board?" proposes; it does not instruct.
  if (sentence.text.trim().endsWith("?")) return null;
  // Words are the sentence's tokens without punctuation, in order: `word` follows the sentence's token i.
  for (let i = 0, word = 0; i < sentence.tokens.length; i++) {
    const isWord = words.tokens[word] === sentence.tokens[i];
    const clauseStart = i === 0 || sentence.tokens[i - 1]?.value === ",";
    if (isWord) word++;
    if (!isWord || !clauseStart) continue;
    let at = word - 1;
    for (let skip = 0; skip < MAX_LEAD_INS && LEAD_INS.has(words.normals[at] ?? ""); skip++) at++;
    // "for the next meeting send …"
    if (words.tokens[at]?.pos === "ADP")
      for (let skip = 0; skip < 4 && TIME_PHRASE_POS.has(words.tokens[at]?.pos ?? ""); skip++) at++;
    const token = words.tokens[at];
    if (token === undefined || token.pos !== "VERB" || token.value.toLowerCase() !== token.normal) continue;
    if (!IMPERATIVE_VERBS.has(token.normal)) continue;
    if (token.normal === "make" && words.normals[at + 1] !== "sure") continue;
    if (!hasEmptyObject(words, at)) return { verb: token.normal, index: at };
  }
  return null;
}

/**
 * A verb that can name a task: not "see", "think", "say" … unless a phrasal verb makes it one ("come up
 * with"); "ask" only when someone else is asked.
 */
function isTaskVerb(words: Words, verb: { verb: string; index: number }): boolean {
  const phrase = words.normals.slice(verb.index, verb.index + 5).join(" ");
  if (verb.verb === "ask") return ASK_SOMEONE.test(phrase);
  // The stem too: "I'll be talking about the components" is "talk".
  const stem = words.tokens[verb.index]?.stem ?? verb.verb;
  return (!NON_TASK_VERBS.has(verb.verb) && !NON_TASK_VERBS.has(stem)) || PHRASAL_TASK.test(phrase);
}

/** True when nothing after the task verb says what it is done to ("let's take it", "can you read that?"). */
function hasEmptyObject(words: Words, verbIndex: number): boolean {
  // A verb that ends the sentence is its own content: "we ought to standardize".
  if (verbIndex + 1 >= words.tokens.length) return false;
  for (let i = verbIndex + 1; i < words.tokens.length; i++) {
    const token = words.tokens[i];
    if (token === undefined) break;
    if (!EMPTY_OBJECTS.has(token.normal) && token.pos !== "PRON" && token.pos !== "DET") return false;
  }
  return true;
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

/** "I'll …", "I can …", "I will …": the speaker promises something, whatever the verb. */
export function speakerCommitment(words: Words): Assignee {
  const n = words.normals;
  for (let i = 0; i + 1 < n.length; i++) {
    if (n[i] === "i" && (commitmentEnd(n, i + 1) > 0 || n[i + 1] === "can")) return { kind: "speaker" };
  }
  return null;
}

function nameOrNull(name: string | null): Assignee {
  return name === null ? null : { kind: "name", name };
}
