/**
 * Transcript noise removal for analysis only: the stored transcript keeps what was said, the analysis
 * reads a cleaned copy (no annotation marks, fillers, stutters or tokenizer spacing).
 */
import { REAL_SHORT_WORDS } from "./lexicon.ts";
import { ANNOTATION, ATTACHED_PUNCTUATION, SPLIT_CONTRACTION } from "./transcript-marks.ts";
import { LETTER_OR_DIGIT, WORD_CHAR } from "./unicode-words.ts";

/**
 * Hesitations and back-channel sounds that carry no content, as a whole word: um, uh, uhm, uh-huh,
 * mm-hmm, mm, hmm, erm, eh, ah, oh (any case, any number of repeated letters). Only words that start
 * with one of FILLER_FIRST_LETTERS are tested.
 */
const FILLER_WORD = /^(?:u+m+|u+h+m*|u+h+-?h+u+h+|m+-?h+m+|m{2,}|h+m+|e+r+m+|e+h+|a+h+|o+h+)$/i;
const SECOND_HALF = /^(?:h+m+|h+u+h+)$/i;
const FILLER_FIRST_LETTERS = new Set(["u", "m", "h", "e", "a", "o", "U", "M", "H", "E", "A", "O"]);

/** Punctuation that may stand right before / right after a filler that is still removed: "(um", "uh,". */
const BEFORE_FILLER = new Set([",", ".", ";", ":", "!", "?", '"', "("]);
const AFTER_FILLER = new Set([",", ".", ";", ":", "!", "?", '"', ")"]);

/** Two punctuation marks in a row (after removals): ", ,", ", .", ". ,". */
const PUNCTUATION_RUN = /[,.;:!?]\s*[,.;:]|[,;:]\s*[.?!]/;

/** Characters stripped from the start of the cleaned text. */
const LEADING_NOISE = new Set([" ", ",", ".", ";", ":", "!", "?", "'", '"', "-"]);

/** Whitespace other than a plain space. */
const OTHER_WHITESPACE = /[^\S ]/;

function endsWithWordChar(word: string): boolean {
  return WORD_CHAR.test(word.charAt(word.length - 1));
}

/** The filler in a word with its surrounding punctuation, or null: "um," → {before: "", after: ","}. */
function splitFiller(word: string): { before: string; after: string } | null {
  let start = 0;
  while (start < word.length && BEFORE_FILLER.has(word.charAt(start))) start++;
  if (!FILLER_FIRST_LETTERS.has(word.charAt(start))) return null;
  let end = word.length;
  while (end > start && AFTER_FILLER.has(word.charAt(end - 1))) end--;
  if (!FILLER_WORD.test(word.slice(start, end))) return null;
  return { before: word.slice(0, start), after: word.slice(end) };
}

/** The "hmm" of a spaced "mm - hmm" or the "huh" of "uh - huh", with the punctuation after it, or null. */
function splitSecondHalf(word: string): { after: string } | null {
  let end = word.length;
  while (end > 0 && AFTER_FILLER.has(word.charAt(end - 1))) end--;
  return SECOND_HALF.test(word.slice(0, end)) ? { after: word.slice(end) } : null;
}

/**
 * One pass over the words: drops fillers (also the spaced "mm - hmm"), joins split contractions
 * ("it 's" → "it's") and spaced hyphens ("head - final" → "head-final").
 */
function joinWords(words: readonly string[]): string[] {
  const kept: string[] = [];
  // Whether kept[k] came right after a removed filler: "Span - uh the" must not become "Span-the".
  const afterRemoval: boolean[] = [];
  let removed = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "") continue;
    const filler = splitFiller(word);
    if (filler !== null) {
      // "Mm - hmm", "uh - huh": the first part alone is a filler too, so look for the rest first.
      const rest = words[i + 1] === "-" ? splitSecondHalf(words[i + 2] ?? "") : null;
      const spaced = rest !== null && filler.after === "";
      const around = spaced ? filler.before + rest.after : filler.before + filler.after;
      if (spaced) i += 2;
      if (around !== "") {
        kept.push(around);
        afterRemoval.push(true);
      }
      removed = true;
      continue;
    }
    const previous = kept[kept.length - 1];
    const beforeHyphen = kept[kept.length - 2];
    const first = word.charAt(0);
    if (
      (first === "'" || first === "n" || first === "N") &&
      previous !== undefined &&
      !removed &&
      SPLIT_CONTRACTION.test(word) &&
      endsWithWordChar(previous)
    ) {
      kept[kept.length - 1] = previous + word;
      continue;
    }
    if (
      previous === "-" &&
      !removed &&
      afterRemoval[kept.length - 1] === false &&
      beforeHyphen !== undefined &&
      endsWithWordChar(beforeHyphen) &&
      WORD_CHAR.test(word.charAt(0))
    ) {
      kept.pop();
      afterRemoval.pop();
      kept[kept.length - 1] = `${beforeHyphen}-${word}`;
      continue;
    }
    kept.push(word);
    afterRemoval.push(removed);
    removed = false;
  }
  return kept;
}

/** Drops stutters: an immediately repeated word ("the the") and a cut-off prefix of the next word ("th the"). */
function removeStutters(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    // Only a word as long as the next one, or of up to three letters, can be a stutter of it.
    if (
      next !== undefined &&
      (word.length <= 3 || word.length === next.length) &&
      /^[\p{L}\p{M}']+$/u.test(word)
    ) {
      const w = word.toLowerCase();
      const n = next.toLowerCase();
      if (w === n) continue;
      if (w.length <= 3 && n.length > w.length && n.startsWith(w) && !REAL_SHORT_WORDS.has(w)) continue;
    }
    kept.push(word);
  }
  return kept;
}

/** Returns the text with transcript noise removed and punctuation attached; "" when nothing is left. */
export function cleanTranscriptText(text: string): string {
  const raw = text.includes("{") ? text.replace(ANNOTATION, " ") : text;
  // Splitting on " " is much faster than on /\s+/; other whitespace (tabs, line breaks) is rare.
  const words = removeStutters(joinWords(OTHER_WHITESPACE.test(raw) ? raw.split(/\s+/) : raw.split(" ")));
  let t = "";
  for (const word of words) {
    // Punctuation spacing from the source tokenizer: "word ." → "word.".
    t += t === "" || ATTACHED_PUNCTUATION.has(word.charAt(0)) ? word : ` ${word}`;
  }
  // Punctuation left orphaned by removals ("So, um, there" → "So,, there"); rare, so tested first.
  if (PUNCTUATION_RUN.test(t)) {
    t = t.replace(/([,;:])(?:\s*[,;:])+/g, "$1");
    t = t.replace(/[,;:]\s*([.?!])/g, "$1");
    t = t.replace(/([.?!])(?:\s*[,.;:])+/g, "$1");
  }
  let start = 0;
  while (start < t.length && LEADING_NOISE.has(t.charAt(start))) start++;
  t = t.slice(start);
  if (!LETTER_OR_DIGIT.test(t)) return "";
  // A removed opening filler can leave a lowercase sentence start; the source capitalises sentences.
  return t.charAt(0).toUpperCase() + t.slice(1);
}
