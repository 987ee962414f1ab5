import type { FullTextQuery } from "../../db/full-text.ts";
import { foldWord, searchTokens, type SearchToken } from "../../db/search-text.ts";

/** A line longer than this is cut to a window around its first match. */
const SNIPPET_CHARS = 200;
/** How much of the window comes before the first match. */
const CONTEXT_BEFORE = 60;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** Where the query's terms (not its excluded ones) match in the line's words, as spans of the text. */
function matchedSpans(tokens: readonly SearchToken[], query: FullTextQuery): [number, number][] {
  const folded = tokens.map((token) => foldWord(token.text));
  const terms = query.all.flat().map((term) => ({ ...term, words: term.words.map(foldWord) }));
  const spans: [number, number][] = [];
  for (let at = 0; at < tokens.length; at++) {
    let longest = 0;
    for (const { words, prefix } of terms) {
      const matches = words.every((word, index) => {
        const token = folded[at + index];
        if (token === undefined) return false;
        return prefix && index === words.length - 1 ? token.startsWith(word) : token === word;
      });
      if (matches) longest = Math.max(longest, words.length);
    }
    if (longest === 0) continue;
    const start = tokens[at]?.start ?? 0;
    const end = tokens[at + longest - 1]?.end ?? start;
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/**
 * The line as an HTML fragment: its text escaped, then the words that matched the query in `<mark>`;
 * a long line is cut to a window around its first match, with "…" where text was left out.
 */
export function snippetOf(text: string, query: FullTextQuery): string {
  const tokens = searchTokens(text);
  const spans = matchedSpans(tokens, query);
  let from = 0;
  let to = text.length;
  if (text.length > SNIPPET_CHARS) {
    const first = spans[0]?.[0] ?? 0;
    from = Math.max(0, first - CONTEXT_BEFORE);
    to = Math.min(text.length, from + SNIPPET_CHARS);
    from = Math.max(0, Math.min(from, to - SNIPPET_CHARS));
    // Cut between words, not inside one.
    from = tokens.find((token) => token.end > from)?.start ?? from;
    to = tokens.findLast((token) => token.start < to)?.end ?? to;
    // Punctuation alone is not worth an ellipsis.
    if (!tokens.some((token) => token.start >= to)) to = text.length;
    if (!tokens.some((token) => token.end <= from)) from = 0;
  }
  let html = from > 0 ? "…" : "";
  let at = from;
  for (const [start, end] of spans) {
    if (end <= from || start >= to) continue;
    const markFrom = Math.max(start, from);
    const markTo = Math.min(end, to);
    html += `${escapeHtml(text.slice(at, markFrom))}<mark>${escapeHtml(text.slice(markFrom, markTo))}</mark>`;
    at = markTo;
  }
  html += escapeHtml(text.slice(at, to));
  return to < text.length ? `${html}…` : html;
}
