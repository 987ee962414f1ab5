/** Whether a sentence states a task ("I'll send …", "Dana, can you check …", "let's fix …"), and whose. */
import { HEDGED_FACTOR, TASK_SCORE } from "./insight-scores.ts";
import {
  COMMITMENT,
  COMMITMENT_FIRST_WORDS,
  DANGLING_ENDS,
  EMPTY_OBJECTS,
  GENERIC_OBLIGATION,
  HEDGES,
  NEGATION,
  NON_TASK_VERBS,
  NOT_NAMES,
  NOT_REQUEST_BEFORE,
  RELATIVE,
  REQUEST_MODALS,
  WH_WORDS,
} from "./lexicon.ts";
import type { Sentence, Words } from "./nlp.ts";

/** "speaker" for first-person commitments, a name as written, or null (group or unknown). */
export type Assignee = { kind: "speaker" } | { kind: "name"; name: string } | null;

/** A task statement: how firmly it was said, who does it, and whether it was asked of someone. */
export interface FoundAction {
  score: number;
  assignee: Assignee;
  request: boolean;
}

/** Longer sentences are monologues that mention tasks rather than state one. */
const MAX_ACTION_WORDS = 45;

/** A capitalised word alone, as names are written ("Dana"). */
const NAME = /^[A-Z][a-z]+$/;

/** Index just after a commitment phrase starting at i ("will", "am going to", "need to"), or -1. */
function commitmentEnd(normals: readonly string[], i: number): number {
  // Most words start no commitment phrase; skip them before building the phrases.
  if (!COMMITMENT_FIRST_WORDS.has(normals[i] ?? "")) return -1;
  for (let length = 3; length >= 1; length--) {
    const phrase = normals.slice(i, i + length).join(" ");
    if (normals.length >= i + length && COMMITMENT.test(phrase)) return i + length;
  }
  return -1;
}

/** The main verb after a commitment, skipping adverbs ("will just quickly send"); null when none. */
function verbAfter(words: Words, from: number): { verb: string; index: number } | null {
  for (let i = from; i < Math.min(words.tokens.length, from + 3); i++) {
    const token = words.tokens[i];
    if (token === undefined) return null;
    if (NEGATION.has(token.normal)) return null;
    if (token.pos === "ADV" || token.pos === "PART") continue;
    if (token.pos === "VERB" || (token.pos === "AUX" && token.normal === "do")) {
      return { verb: token.normal, index: i };
    }
    return null;
  }
  return null;
}

/** A capitalised name right before position i ("Dana will …"), skipping sentence-initial pronouns. */
function nameBefore(words: Words, i: number): string | null {
  const token = words.tokens[i - 1];
  if (token === undefined || token.pos !== "PROPN" || !NAME.test(token.value)) return null;
  if (NOT_NAMES.test(token.value)) return null;
  const before = words.tokens[i - 2];
  if (before !== undefined && before.pos === "PROPN" && NAME.test(before.value)) {
    return `${before.value} ${token.value}`;
  }
  return token.value;
}

/** A vocative name in a request: "Dana, can you …", "… by Friday, Sam?" (next to a comma or the end). */
function addressedName(sentence: Sentence): string | null {
  const tokens = sentence.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined || token.pos !== "PROPN" || !NAME.test(token.value)) continue;
    if (NOT_NAMES.test(token.value)) continue;
    const before = tokens[i - 1]?.value;
    const after = tokens[i + 1]?.value;
    if (
      (i === 0 || before === ",") &&
      (after === "," || after === "?" || after === "." || after === undefined)
    ) {
      return token.value;
    }
    if (before === "," && (after === "?" || after === "." || after === undefined)) return token.value;
  }
  return null;
}

/** Finds a task stated in the sentence: who does it and how firmly it was said, or null. */
export function findAction(sentence: Sentence, words: Words): FoundAction | null {
  const n = words.normals;
  const lower = sentence.text.toLowerCase();
  const hedge = HEDGES.test(lower) ? HEDGED_FACTOR : 1;
  // Conditions ("If we wanna use …, you can buy …") and long monologues are not task statements.
  const conditional = n[0] === "if" || n[0] === "unless" || n.length > MAX_ACTION_WORDS;
  // A cut-off sentence ("I'll rerun it with") does not say what the task is.
  if (DANGLING_ENDS.has(n[n.length - 1] ?? "")) return null;
  for (let i = 0; i < n.length; i++) {
    const word = n[i] ?? "";
    // "let's send", "let us fix"
    if (conditional) break;
    if (word === "let" && (n[i + 1] === "'s" || n[i + 1] === "us" || n[i + 1] === "s")) {
      const verb = verbAfter(words, i + 2);
      if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index))
        return { score: TASK_SCORE.proposed * hedge, assignee: null, request: false };
      continue;
    }
    const end = commitmentEnd(n, i + 1);
    if (end < 0) continue;
    // "I don't think we should …", "that we're going to use" (a relative clause, not a commitment)
    if (n.slice(Math.max(0, i - 3), i).some((w) => NEGATION.has(w))) continue;
    if (i > 0 && RELATIVE.has(n[i - 1] ?? "")) continue;
    if (isReducedRelative(words, i)) continue;
    const verb = verbAfter(words, end);
    if (verb === null || NON_TASK_VERBS.has(verb.verb)) continue;
    if (word === "i")
      return { score: TASK_SCORE.person * hedge, assignee: { kind: "speaker" }, request: false };
    // Others' tasks must say what the task is on: "we must do better", "you have to push it" do not.
    if (hasEmptyObject(words, verb.index)) continue;
    if (word === "we") return { score: TASK_SCORE.group * hedge, assignee: null, request: false };
    if (word === "you") {
      if (n[0] === "if" || n[0] === "when") continue;
      const addressee = addressedName(sentence);
      // "You have to choose the code": the generic "you" of a description, unless someone is addressed.
      if (addressee === null && GENERIC_OBLIGATION.test(n.slice(i + 1, end).join(" "))) continue;
      return { score: TASK_SCORE.proposed * hedge, assignee: nameOrNull(addressee), request: false };
    }
    const name = nameBefore(words, i + 1);
    if (name !== null)
      return { score: TASK_SCORE.person * hedge, assignee: { kind: "name", name }, request: false };
  }
  // Requests: "can you send …", "Dana, could you please check …"
  for (let i = 0; i + 1 < n.length; i++) {
    if (!REQUEST_MODALS.has(n[i] ?? "") || n[i + 1] !== "you") continue;
    // "if you could …", "what you would …" are not requests.
    if (i > 0 && NOT_REQUEST_BEFORE.test(n[i - 1] ?? "")) continue;
    // "What performance measures will you use?", "how much would you pay?" ask for information.
    if (n.slice(Math.max(0, i - 3), i).some((w) => WH_WORDS.has(w))) continue;
    const verb = verbAfter(words, i + 2);
    if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index)) {
      return {
        score: TASK_SCORE.proposed * hedge,
        assignee: nameOrNull(addressedName(sentence)),
        request: true,
      };
    }
  }
  return null;
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
function isReducedRelative(words: Words, subject: number): boolean {
  const noun = words.tokens[subject - 1];
  const before = words.tokens[subject - 2];
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
