/**
 * Words in every script. JavaScript's `\w`, `\b` and `[a-z]` know only ASCII letters, so to them "São",
 * "Đorđe" and "reunión" are words broken by foreign characters: a rule meant for a lone letter or a word's
 * end then cuts a word in two ("the São Paulo office" became "SãPaulo"). The analysis writes its letter
 * classes with these, or with Unicode property escapes (`\p{L}`) and the `u` flag.
 */

/** What a word is made of: letters and combining marks of any script, digits, "_" (`\w` beyond ASCII). */
const WORD_CLASS = String.raw`\p{L}\p{M}\p{N}_`;

/** A character of a word, in any script. */
export const WORD_CHAR = new RegExp(`[${WORD_CLASS}]`, "u");

/** A letter of any script. */
export const LETTER = /\p{L}/u;

/** A letter or digit of any script: something to read, not only punctuation. */
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Where a word of any script starts or ends: `\b` beyond ASCII. */
const BOUNDARY = `(?:(?<=[${WORD_CLASS}])(?![${WORD_CLASS}])|(?<![${WORD_CLASS}])(?=[${WORD_CLASS}]))`;

/**
 * The pattern with `\b` and `\w` meaning words of every script (and the `u` flag), so a rule can be
 * written as usual: `unicodeWords(/\bso\b/i)` no longer finds "so" at the start of "soñar".
 */
export function unicodeWords(pattern: RegExp): RegExp {
  const source = pattern.source;
  let rewritten = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === "\\") {
      const escaped = source.charAt(i + 1);
      if (escaped === "b" && !inClass) rewritten += BOUNDARY;
      else if (escaped === "w") rewritten += inClass ? WORD_CLASS : `[${WORD_CLASS}]`;
      else rewritten += char + escaped;
      i++;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    rewritten += char;
  }
  return new RegExp(rewritten, pattern.flags.includes("u") ? pattern.flags : `${pattern.flags}u`);
}

/** Each pattern of unicodeWords without its word boundaries (looseOf). */
const LOOSE = new WeakMap<RegExp, RegExp>();

function looseOf(pattern: RegExp): RegExp {
  let loose = LOOSE.get(pattern);
  if (loose === undefined) {
    loose = new RegExp(pattern.source.split(BOUNDARY).join(""), pattern.flags);
    LOOSE.set(pattern, loose);
  }
  return loose;
}

/**
 * `pattern.test(text)` for a pattern of unicodeWords, several times faster on text that has none of its
 * words: the pattern is first tried without its word boundaries, which only ever matches more, so a text
 * it rejects cannot match (a boundary is a look-behind the engine must try at every position; without it,
 * the engine skips ahead to where a word of the pattern could start). Not for global or sticky patterns,
 * whose `test` depends on `lastIndex`.
 */
export function matchesWords(pattern: RegExp, text: string): boolean {
  return looseOf(pattern).test(text) && pattern.test(text);
}
