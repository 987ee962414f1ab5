/** From spoken to written: what a sentence loses before it is shown in a summary or as an insight. */
import { DANGLING_ENDS, FRAGMENT_STARTS, SPOKEN_HEDGES, SPOKEN_OPENERS } from "./lexicon.ts";
import type { Sentence } from "./nlp.ts";
import { closeQuotation } from "./transcript-marks.ts";
import { LETTER, LETTER_OR_DIGIT, unicodeWords } from "./unicode-words.ts";

/** Removes spoken openers and capitalises; the words removed do not count against the budget. */
export function tidySentence(text: string): string {
  const trimmed = text.replace(SPOKEN_OPENERS, "").trim();
  if (trimmed === "") return text;
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** Removes spoken hedges from inside a sentence: "we, you know, just need a sort of plan" → "we need a plan". */
export function compressSentence(text: string): string {
  const compressed = text
    .replace(SPOKEN_HEDGES, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.?!])/g, "$1")
    .trim();
  if (compressed === "") return text;
  return compressed.charAt(0).toUpperCase() + compressed.slice(1);
}

/**
 * A word cut off and restarted: "I- I", "tha- that", "In-in", "Span - the" (a spaced hyphen the
 * cleaning left), or a lone lowercase consonant ("the user g requirements").
 */
const CUT_OFF = unicodeWords(/\b([\p{L}\p{M}']+)-\s*(?=\1\b)|\b[\p{L}\p{M}']+ - /giu);
const LONE_CONSONANT = unicodeWords(/(?<![\w'.-])[b-hj-z](?![\w'.-])\s*/g);

/** Words a written sentence does not end on, beyond those of a cut-off clause (DANGLING_ENDS). */
const TRAILING_FILLERS = new Set(["so", "like", "just", "well", "um", "uh", "you", "know", "mean"]);

/** Tags at the end of a spoken sentence: "…, right", "…, you know", "… or something", "…, no?". */
const TRAILING_TAG =
  /(?:(?:,\s*|\s+)(?:right|okay|ok|yeah|you know|i mean|i think|i guess|or something|or whatever|and stuff|and everything|or so)|,\s*no)\s*[,.?!]*$/i;

/** Transcript marks the cleaning keeps: "@ @" (unintelligible) and spelled letters ("T_V_" → "TV"). */
const UNINTELLIGIBLE = /(?:^|\s)@+(?=\s|$)/g;
const SPELLED_LETTERS = unicodeWords(/\b(?:\p{L}_){2,}/gu);

/** A back-channel word between commas inside a sentence: "The shape, yeah, a curved case." */
const INNER_BACKCHANNEL = /,\s*(?:yeah|yes|okay|ok|right|so|well)\s*,/gi;

/** "Or" opening a sentence, which SPOKEN_OPENERS keeps because it can open a question to the group. */
const LEADING_OR = unicodeWords(/^or\b[\s,]*/i);

/** Punctuation left at the start of a sentence when what stood before it was removed. */
const LEADING_PUNCTUATION = /^[\s,;:.?!-]+/;

/** Spoken contractions a written sentence spells out. */
const SPOKEN_CONTRACTIONS = unicodeWords(/\b(gonna|wanna|gotta)\b/gi);
const WRITTEN: Record<string, string> = { gonna: "going to", wanna: "want to", gotta: "have to" };

function expand(word: string): string {
  const written = WRITTEN[word.toLowerCase()] ?? word;
  return word.charAt(0) === word.charAt(0).toUpperCase()
    ? written.charAt(0).toUpperCase() + written.slice(1)
    : written;
}

/** Words compared for repeats: lowercase, without a trailing comma. */
const bare = (word: string | undefined): string => (word ?? "").replace(/,$/, "").toLowerCase();

/**
 * Drops a run of up to four words said again right after it, also when its last word was cut off
 * and restarted: "which one which one" → "which one", "a chara a characteristic" → "a characteristic".
 */
function removeRepeats(text: string): string {
  const words = text.split(" ");
  for (let size = 4; size >= 1; size--) {
    for (let i = 0; i + 2 * size <= words.length; i++) {
      let same = LETTER.test(words[i] ?? "");
      for (let k = 0; k < size && same; k++) {
        const first = bare(words[i + k]);
        const again = bare(words[i + size + k]);
        same = first === again || (k === size - 1 && first.length >= 2 && again.startsWith(first));
      }
      if (same) {
        words.splice(i, size);
        i--;
      }
    }
  }
  return words.join(" ");
}

/**
 * A cleaned transcript sentence as a written one: no spoken openers, hedges, restarts, repeated
 * words or tags, no dangling last words ("…and the"); capitalised and ending in a full stop (or
 * its question mark). Returns "" when nothing readable is left.
 */
export function readableSentence(text: string): string {
  const spoken = closeQuotation(text)
    .replace(UNINTELLIGIBLE, " ")
    .replace(SPELLED_LETTERS, (letters) => letters.replaceAll("_", ""))
    .replace(CUT_OFF, "")
    .replace(LONE_CONSONANT, "")
    .replace(INNER_BACKCHANNEL, ",")
    .replace(/\s+/g, " ")
    .replace(LEADING_PUNCTUATION, "")
    .trim();
  const question = spoken.replace(TRAILING_TAG, "").trim().endsWith("?");
  let t = compressSentence(tidySentence(removeRepeats(spoken.replace(SPOKEN_CONTRACTIONS, expand))));
  for (let previous = ""; previous !== t;) {
    previous = t;
    t = t.replace(TRAILING_TAG, "").replace(/[\s,;:.?!-]+$/, "");
    const last = t.slice(t.lastIndexOf(" ") + 1).toLowerCase();
    if (t.includes(" ") && (DANGLING_ENDS.has(last) || TRAILING_FILLERS.has(last))) {
      t = t.slice(0, t.lastIndexOf(" "));
    }
  }
  for (let previous = ""; previous !== t;) {
    previous = t;
    t = t.replace(SPOKEN_OPENERS, "").replace(LEADING_OR, "").replace(LEADING_PUNCTUATION, "");
  }
  const lone = t.toLowerCase();
  if (!LETTER_OR_DIGIT.test(t) || DANGLING_ENDS.has(lone) || TRAILING_FILLERS.has(lone)) return "";
  return t.charAt(0).toUpperCase() + t.slice(1) + (question ? "?" : ".");
}

/**
 * Whether a sentence reads as a whole statement, as a decision or a summary sentence must: at least
 * `minWords` words, not opening as a fragment ("That in that use of…") and not cut off (ending on
 * "the", "with", "is": the speaker stopped). `text` is its readable form ("" when nothing is left).
 */
export function statesWhole(sentence: Sentence, text: string, minWords: number): boolean {
  const words = sentence.tokens.filter((token) => /\p{L}/u.test(token.normal)).map((token) => token.normal);
  if (text === "" || words.length < minWords) return false;
  return !FRAGMENT_STARTS.has(words[0] ?? "") && !DANGLING_ENDS.has(words.at(-1) ?? "");
}
