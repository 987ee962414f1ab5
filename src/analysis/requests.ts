/** Work asked of someone without "can you …": "I'd like you to …", a polite "Ron, if you can …", instructions. */
import { ABILITY, IMPERATIVE_VERBS, LEAD_INS } from "./lexicon.ts";
import { addressedName } from "./names.ts";
import type { Sentence, Words } from "./nlp.ts";
import { hasEmptyObject, isTaskVerb, verbAfter } from "./task-verbs.ts";

/** "I'd like you to …", "I need you to …" ("I want you to consider …" argues). */
const WANT_VERBS = new Set(["like", "need"]);

/** Words between "you" and "to" that say which of them: "I need you guys to …". */
const ADDRESSEES = new Set(["guys", "all", "both", "two", "three", "people"]);

/** Lead-ins read before an instruction's verb ("so maybe just send …"). */
const MAX_LEAD_INS = 4;

/** Words of a time phrase before an instruction ("for the next meeting send …"). */
const TIME_PHRASE_POS = new Set(["ADP", "DET", "ADJ", "NOUN"]);

/**
 * Work asked of someone without "can you": "I'd like you to work on …", "I need you guys to …", or a
 * polite "Ron, if you can figure out …" said to someone by name; null when none.
 */
export function askedOf(
  sentence: Sentence,
  words: Words,
): { verb: { verb: string; index: number }; polite: boolean } | null {
  const n = words.normals;
  for (let i = 1; i + 1 < n.length; i++) {
    if (n[i] !== "you") continue;
    if (WANT_VERBS.has(n[i - 1] ?? "") && (n[i - 2] === "i" || n[i - 3] === "i")) {
      let at = i + 1;
      while (ADDRESSEES.has(n[at] ?? "")) at++;
      if (n[at] !== "to") continue;
      const verb = verbAfter(words, at + 1);
      if (verb !== null && isTaskVerb(words, verb) && !hasEmptyObject(words, verb.index))
        return { verb, polite: false };
    }
    const polite = n[i - 1] === "if" && ABILITY.test(n[i + 1] ?? "") && addressedName(sentence) !== null;
    if (polite && n.slice(0, i - 1).every((w) => LEAD_INS.has(w) || w === words.tokens[0]?.normal)) {
      const verb = verbAfter(words, i + 2);
      if (verb !== null && isTaskVerb(words, verb) && !hasEmptyObject(words, verb.index))
        return { verb, polite: true };
    }
  }
  return null;
}

/**
 * An instruction: a clause that opens (after "so", "maybe", "please", a vocative or "for next meeting")
 * with a task verb in its base form and says what it is on ("send me your presentation", "Carol, check
 * the tax tables"); null when none.
 */
export function imperativeVerb(sentence: Sentence, words: Words): { verb: string; index: number } | null {
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
