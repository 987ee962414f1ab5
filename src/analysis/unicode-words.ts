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

/** Each pattern of unicodeWords without the word boundaries that only narrow it (matchesWords). */
const LOOSE = new WeakMap<RegExp, RegExp>();

/** Where a word of any script starts or ends: `\b` beyond ASCII. */
const BOUNDARY = `(?:(?<=[${WORD_CLASS}])(?![${WORD_CLASS}])|(?<![${WORD_CLASS}])(?=[${WORD_CLASS}]))`;

/**
 * The pattern with `\b` and `\w` meaning words of every script (and the `u` flag), so a rule can be
 * written as usual: `unicodeWords(/\bso\b/i)` no longer finds "so" at the start of "soñar".
 */
export function unicodeWords(pattern: RegExp): RegExp {
  const source = pattern.source;
  let rewritten = "";
  // The same pattern without the boundaries that only narrow it (matchesWords); a boundary inside a
  // negative look-around ("(?!need\b)") widens what it rejects, so it stays.
  let loose = "";
  let inClass = false;
  const negative: boolean[] = [];
  for (let i = 0; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === "\\") {
      const escaped = source.charAt(i + 1);
      if (escaped === "b" && !inClass) {
        rewritten += BOUNDARY;
        if (negative.includes(true)) loose += BOUNDARY;
      } else {
        const written = escaped === "w" ? (inClass ? WORD_CLASS : `[${WORD_CLASS}]`) : char + escaped;
        rewritten += written;
        loose += written;
      }
      i++;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (char === "(" && !inClass)
      negative.push(source.startsWith("(?!", i) || source.startsWith("(?<!", i));
    else if (char === ")" && !inClass) negative.pop();
    rewritten += char;
    loose += char;
  }
  const flags = pattern.flags.includes("u") ? pattern.flags : `${pattern.flags}u`;
  const result = new RegExp(rewritten, flags);
  LOOSE.set(result, new RegExp(loose, flags));
  return result;
}

/**
 * `pattern.test(text)` for a pattern of unicodeWords, several times faster on text that has none of its
 * words: the pattern is first tried without the word boundaries that only narrow it (all but those inside a
 * negative look-around), which only ever matches more, so a text it rejects cannot match (a boundary is a look-behind the engine must try at every position; without it,
 * the engine skips ahead to where a word of the pattern could start). Not for global or sticky patterns,
 * whose `test` depends on `lastIndex`.
 */
export function matchesWords(pattern: RegExp, text: string): boolean {
  return (LOOSE.get(pattern)?.test(text) ?? true) && pattern.test(text);
}
