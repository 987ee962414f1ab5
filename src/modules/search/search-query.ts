import type { FullTextQuery, FullTextTerm } from "../../db/full-text.ts";
import { isCharacterWord, searchTokens } from "../../db/search-text.ts";
import { invalid } from "../../errors.ts";

/** The most terms (words, phrases and prefixes) one search may hold. */
export const MAX_SEARCH_TERMS = 32;
/** The shortest prefix `budg*` may have: a shorter one matches too much to rank. */
export const MIN_PREFIX_LENGTH = 2;

/** A term as the user wrote it, with the words search cuts it into. */
export interface ParsedTerm extends FullTextTerm {
  excluded: boolean;
}

/** One piece of the query text: a word or quoted phrase (with its `-` and `*`), or the `OR` operator. */
type Piece = { kind: "or" } | { kind: "term"; text: string; quoted: boolean; excluded: boolean };

/** Cuts the text into pieces; a quote left open runs to the end, as a search box user would mean it. */
function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  // Control characters and other separators count as spaces.
  const source = text.replace(/[\p{Cc}\p{Cf}\p{Z}]+/gu, " ");
  let at = 0;
  while (at < source.length) {
    if (source[at] === " ") {
      at++;
      continue;
    }
    const excluded = source[at] === "-" && at + 1 < source.length && source[at + 1] !== " ";
    const start = excluded ? at + 1 : at;
    if (source[start] === '"') {
      const close = source.indexOf('"', start + 1);
      const end = close === -1 ? source.length : close;
      let after = end + 1;
      const prefix = source[after] === "*";
      if (prefix) after++;
      pieces.push({
        kind: "term",
        text: source.slice(start + 1, end) + (prefix ? "*" : ""),
        quoted: true,
        excluded,
      });
      at = after;
      continue;
    }
    let end = source.indexOf(" ", start);
    if (end === -1) end = source.length;
    const word = source.slice(start, end);
    if (word === "OR" && !excluded) pieces.push({ kind: "or" });
    else pieces.push({ kind: "term", text: word, quoted: false, excluded });
    at = end;
  }
  return pieces;
}

/** The term's words; null when it has none (punctuation or operators alone), which leaves it out. */
function termOf(piece: Extract<Piece, { kind: "term" }>): ParsedTerm | null {
  const words = searchTokens(piece.text).map((token) => token.text.toLowerCase());
  if (words.length === 0) return null;
  const last = words.at(-1) ?? "";
  // A character of Chinese or Japanese is a whole word in the index: a prefix of it adds nothing.
  const prefix = piece.text.endsWith("*") && !isCharacterWord(last);
  if (prefix && [...last].length < MIN_PREFIX_LENGTH) {
    throw invalid(`q: a prefix needs at least ${MIN_PREFIX_LENGTH} letters before the * ("${piece.text}")`);
  }
  return { words, prefix, excluded: piece.excluded };
}

/**
 * Parses what a user typed in a search box (docs/SEARCH.md, The search language): words (all must match),
 * "quoted phrases", prefixes (`budg*`), `OR` between two terms, `-term` to exclude. Punctuation separates
 * words; an `OR` with nothing on one side is taken as no operator. Throws `invalid` naming the rule when
 * nothing is left to search for, only excluded terms are, or the query holds too many terms.
 */
export function parseSearchQuery(text: string): FullTextQuery {
  const groups: ParsedTerm[][] = [];
  const none: FullTextTerm[] = [];
  let joinNext = false;
  let count = 0;
  for (const piece of piecesOf(text)) {
    if (piece.kind === "or") {
      joinNext = groups.length > 0;
      continue;
    }
    const term = termOf(piece);
    if (term === null) continue;
    if (++count > MAX_SEARCH_TERMS) throw invalid(`q must hold at most ${MAX_SEARCH_TERMS} words or phrases`);
    const { excluded, ...matched } = term;
    if (excluded) {
      if (joinNext) throw invalid("q: an excluded term (-word) cannot be joined by OR");
      none.push(matched);
      continue;
    }
    const last = groups.at(-1);
    if (joinNext && last) last.push(term);
    else groups.push([term]);
    joinNext = false;
  }
  if (groups.length === 0) {
    throw invalid(
      none.length > 0
        ? "q must hold a word to find besides the excluded ones (-word)"
        : "q must hold a word to search for (letters or digits)",
    );
  }
  return {
    all: groups.map((group) => group.map(({ words, prefix }) => ({ words, prefix }))),
    none,
  };
}
