/** The verb of a task statement: the commitment before it, the verb after it, and whether it names a task. */
import {
  ASK_SOMEONE,
  COMMITMENT,
  COMMITMENT_FIRST_WORDS,
  EMPTY_OBJECTS,
  NEGATION,
  NON_TASK_VERBS,
  OBLIGATION_VERBS,
  PHRASAL_TASK,
  START_VERBS,
  WH_WORDS,
} from "./lexicon.ts";
import type { Words } from "./nlp.ts";

/** Words between a subject's modal and its verb that say who of them: "we can all give some thought". */
const QUANTIFIERS = new Set(["all", "both", "each"]);

/** Index just after a commitment phrase starting at i ("will", "am going to", "need to"), or -1. */
export function commitmentEnd(normals: readonly string[], i: number): number {
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
export function verbAfter(words: Words, from: number): { verb: string; index: number } | null {
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
 * A verb that can name a task: not "see", "think", "say" … unless a phrasal verb makes it one ("come up
 * with"); "ask" only when someone else is asked.
 */
export function isTaskVerb(words: Words, verb: { verb: string; index: number }): boolean {
  const phrase = words.normals.slice(verb.index, verb.index + 5).join(" ");
  if (verb.verb === "ask") return ASK_SOMEONE.test(phrase);
  // The stem too: "I'll be talking about the components" is "talk".
  const stem = words.tokens[verb.index]?.stem ?? verb.verb;
  return (!NON_TASK_VERBS.has(verb.verb) && !NON_TASK_VERBS.has(stem)) || PHRASAL_TASK.test(phrase);
}

/** True when nothing after the task verb says what it is done to ("let's take it", "can you read that?"). */
export function hasEmptyObject(words: Words, verbIndex: number): boolean {
  // A verb that ends the sentence is its own content: "we ought to standardize".
  if (verbIndex + 1 >= words.tokens.length) return false;
  for (let i = verbIndex + 1; i < words.tokens.length; i++) {
    const token = words.tokens[i];
    if (token === undefined) break;
    if (!EMPTY_OBJECTS.has(token.normal) && token.pos !== "PRON" && token.pos !== "DET") return false;
  }
  return true;
}
