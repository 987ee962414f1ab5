/**
 * How message text is cut into the words search indexes, shared by both databases' indexes (docs/SEARCH.md).
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) and Korean,
 * whose particles attach to the noun, are indexed a character at a time: a word of theirs is found as the
 * phrase of its characters, so "会議" matches inside "会議室" and a one-character word is findable too.
 */

/** The ranges indexed a character at a time, as a regular-expression class body (JavaScript and PostgreSQL). */
const CHARACTER_SCRIPTS_BMP =
  "\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF\\u3040-\\u30FF\\u3400-\\u4DBF\\u4E00-\\u9FFF" +
  "\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF66-\\uFF9F";

const CHARACTER = new RegExp(`[${CHARACTER_SCRIPTS_BMP}\\u{20000}-\\u{3134F}]`, "u");
const CHARACTERS = new RegExp(`([${CHARACTER_SCRIPTS_BMP}\\u{20000}-\\u{3134F}])`, "gu");

/**
 * A word: one character of those scripts, or a run of other letters, digits and marks. Anything else
 * separates words, as in SQLite's unicode61 tokenizer with categories `L* N* Co M*`.
 */
const WORD = new RegExp(
  `[${CHARACTER_SCRIPTS_BMP}\\u{20000}-\\u{3134F}]|(?:(?![${CHARACTER_SCRIPTS_BMP}\\u{20000}-\\u{3134F}])[\\p{L}\\p{N}\\p{M}\\p{Co}])+`,
  "gu",
);

/** True for a character of the scripts indexed a character at a time (a word of its own). */
export const isCharacterWord = (word: string): boolean => CHARACTER.test(word) && [...word].length === 1;

/** The text as the SQLite index reads it: each character of those scripts stands apart. */
export function searchText(text: string): string {
  return CHARACTER.test(text) ? text.replace(CHARACTERS, " $1 ") : text;
}

/**
 * The same for PostgreSQL, as SQL over a `body` text argument: those characters stand apart and ASCII and
 * common Unicode punctuation becomes a space, so PostgreSQL's parser sees only words, as SQLite's does
 * (it would otherwise keep `bob@example.com` or `3.5` as one word).
 */
export const POSTGRES_SEARCH_TEXT =
  `regexp_replace(regexp_replace(body, '([${CHARACTER_SCRIPTS_BMP}\\U00020000-\\U0003134F])', ' \\1 ', 'g'), ` +
  `'[!-/:-@\\[-\`{-~\\u00A0-\\u00BF\\u2000-\\u206F\\u3000-\\u303F\\uFF01-\\uFF0F\\uFF1A-\\uFF20\\uFF3B-\\uFF40\\uFF5B-\\uFF65]', ' ', 'g')`;

export interface SearchToken {
  /** The word as written. */
  text: string;
  /** Where it starts and ends in the text (UTF-16 offsets). */
  start: number;
  end: number;
}

/** The words of a text as search cuts them, with where each is. */
export function searchTokens(text: string): SearchToken[] {
  return [...text.matchAll(WORD)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** A word folded as both indexes compare words: lower case, accents removed (a mark alone stays itself). */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  return lower.normalize("NFD").replace(/\p{M}/gu, "") || lower;
}
