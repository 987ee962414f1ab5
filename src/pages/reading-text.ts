import {
  ANNOTATION,
  ATTACHED_PUNCTUATION,
  closeQuotation,
  INTERRUPTION,
  SPLIT_CONTRACTION,
} from "../analysis/transcript-marks.ts";
import { WORD_CHAR } from "../analysis/unicode-words.ts";

const DASH = "—";
/** The first characters of a SPLIT_CONTRACTION ("'s", "n't", "N'T"). */
const CONTRACTION_START = "'nN";

/**
 * A stored transcript line as the page shows it by default: annotation marks removed (a speaker breaking
 * off, {disfmarker}, becomes a dash), split contractions joined ("I 'm" → "I'm") and punctuation attached
 * ("yes , ok ." → "yes, ok."). Every word said stays; "" when the line holds only marks. The stored text
 * is never changed: search, edits, exports and the API use it.
 */
export function readingText(text: string): string {
  // Each pattern runs only where it can match: this runs for every line of every page render.
  const unmarked = text.includes("{")
    ? text.replace(INTERRUPTION, ` ${DASH} `).replace(ANNOTATION, " ")
    : text;
  const words = unmarked.split(/\s+/);
  let t = "";
  for (const word of words) {
    if (word === "" || (word === DASH && (t === "" || t.endsWith(DASH)))) continue;
    const attached =
      ATTACHED_PUNCTUATION.has(word.charAt(0)) ||
      (CONTRACTION_START.includes(word.charAt(0)) &&
        SPLIT_CONTRACTION.test(word) &&
        WORD_CHAR.test(t.charAt(t.length - 1)));
    // Punctuation after a break-off ends the sentence there: "a — ." → "a."
    if (attached && t.endsWith(` ${DASH}`)) t = t.slice(0, -2);
    t += t === "" || attached ? word : ` ${word}`;
  }
  // The tokenizer's spaced hyphen inside a word: "Mm - hmm" → "Mm-hmm".
  if (t.includes(" - ")) t = t.replace(/(?<=\w) - (?=\w)/g, "-");
  if (t.endsWith(DASH)) t = t.replace(/\s*—$/, "");
  return t.includes('"') ? closeQuotation(t) : t;
}
