/** Who a sentence names: a person spoken to ("Dana, can you …") or the subject of a task ("Bhaskara will …"). */
import { NOT_NAMES } from "./lexicon.ts";
import type { Sentence, Words } from "./nlp.ts";

/** A capitalised word alone, as names are written ("Dana"). */
const NAME = /^\p{Lu}[\p{Ll}\p{M}]+$/u;

/** A capitalised name right before position i ("Dana will …"), skipping sentence-initial pronouns. */
export function nameBefore(words: Words, i: number): string | null {
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
export function addressedName(sentence: Sentence): string | null {
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
