/** From spoken to written: what a sentence loses before it is shown in a summary or as an insight. */
import { SPOKEN_HEDGES, SPOKEN_OPENERS } from "./lexicon.ts";

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
