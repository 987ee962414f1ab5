import { SqliteAdapter, sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "./schema.ts";

/**
 * Full-text search on each database's own engine (docs/SEARCH.md): SQLite's FTS5 table `message_search`
 * over `messages` (migration 023), PostgreSQL's `message_search` table of tsvectors with a GIN index, each beside
 * its app and its conversation's start (migration 025).
 * A query arrives parsed (the search module's parser): no text a user typed reaches either engine's
 * query syntax except as a quoted word.
 */

/** A word, or a phrase of words in order; `prefix` matches words starting with the last one. */
export interface FullTextTerm {
  words: string[];
  prefix: boolean;
}

/** Every group must match (a group matches when any of its terms does), and no excluded term may. */
export interface FullTextQuery {
  all: FullTextTerm[][];
  none: FullTextTerm[];
}

/** The PostgreSQL text search configuration migration 023 makes: `simple` with accents removed. */
export const POSTGRES_SEARCH_CONFIGURATION = "recap_search";

export const isSqlite = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

const quoted = (word: string, quote: string) => quote + word.replaceAll(quote, quote + quote) + quote;

function fts5Term(term: FullTextTerm): string {
  return quoted(term.words.join(" "), '"') + (term.prefix ? "*" : "");
}

const fts5Group = (terms: FullTextTerm[]) =>
  terms.length === 1 ? fts5Term(terms[0]!) : `(${terms.map(fts5Term).join(" OR ")})`;

/** The query in FTS5's MATCH syntax: every word a quoted string, so nothing in it is read as an operator. */
export function toFts5Match(query: FullTextQuery): string {
  const all = query.all.map(fts5Group).join(" AND ");
  return query.none.length === 0 ? all : `(${all}) NOT ${fts5Group(query.none)}`;
}

function tsqueryTerm(term: FullTextTerm): string {
  const words = term.words.map((word, index) => {
    // to_tsquery reads a quoted lexeme with '' for a quote and \\ for a backslash.
    const lexeme = quoted(word.replaceAll("\\", "\\\\"), "'");
    return term.prefix && index === term.words.length - 1 ? `${lexeme}:*` : lexeme;
  });
  return words.length === 1 ? words[0]! : `(${words.join(" <-> ")})`;
}

const tsqueryGroup = (terms: FullTextTerm[]) =>
  terms.length === 1 ? tsqueryTerm(terms[0]!) : `(${terms.map(tsqueryTerm).join(" | ")})`;

/** The query as to_tsquery's input: every word a quoted lexeme, joined only by the operators made here. */
export function toTsquery(query: FullTextQuery): string {
  const all = query.all.map(tsqueryGroup).join(" & ");
  return query.none.length === 0 ? all : `(${all}) & !${tsqueryGroup(query.none)}`;
}

/** What narrows the matches before they are ranked and joined. */
export interface MatchScope {
  /** Only this app's lines (on PostgreSQL; SQLite's index holds text alone, and the join keeps to the app). */
  appId: string;
  /** Only this conversation's lines (on SQLite, its rowids' range: one conversation's lines are written together). */
  conversationId?: string | undefined;
  /** Only lines of conversations that start in this range (ISO instants; on PostgreSQL, as the app's). */
  startsFrom?: string | undefined;
  startsBefore?: string | undefined;
  /** Only the best this many, ranked alone before any join: a common word's every match is not joined. */
  best?: number | undefined;
  /**
   * On SQLite, only the newest this many matches are ranked (the last rowids: the lines stored last): a word in
   * more lines than this costs what this many do. PostgreSQL ranks every match.
   */
  newest?: number | undefined;
}

/**
 * The messages that match, as a table of `message_id` and `score` (higher is more relevant: FTS5's BM25 on
 * SQLite, ts_rank on PostgreSQL) to join the rest of a search to.
 */
export function matchingMessages(
  db: Kysely<Database>,
  query: FullTextQuery,
  scope: MatchScope,
): RawBuilder<{ message_id: string; score: number }> {
  const { appId, conversationId, startsFrom, startsBefore, best, newest } = scope;
  if (isSqlite(db)) {
    const match = toFts5Match(query);
    const inConversation =
      conversationId === undefined
        ? sql``
        : sql`AND message_search.rowid BETWEEN (SELECT min(rowid) FROM messages WHERE conversation_id = ${conversationId})
            AND (SELECT max(rowid) FROM messages WHERE conversation_id = ${conversationId})`;
    // Stepping back through the matches' rowids is cheap; ranking each (BM25 reads its line's length) is not.
    const newestOnly =
      newest === undefined
        ? sql``
        : sql`AND message_search.rowid >= coalesce((SELECT rowid FROM message_search WHERE message_search MATCH ${match}
            ORDER BY rowid DESC LIMIT 1 OFFSET ${newest - 1}), 0)`;
    const ranked = sql`SELECT rowid, bm25(message_search) AS rank FROM message_search
      WHERE message_search MATCH ${match} ${inConversation} ${newestOnly}
      ${best === undefined ? sql`` : sql`ORDER BY rank LIMIT ${best}`}`;
    return sql`(SELECT m.id AS message_id, -ranked.rank AS score
      FROM (${ranked}) AS ranked JOIN messages m ON m.rowid = ranked.rowid)`;
  }
  const inConversation =
    conversationId === undefined
      ? sql``
      : sql`AND s.message_id IN (SELECT id FROM messages WHERE conversation_id = ${conversationId})`;
  const from = startsFrom === undefined ? sql`` : sql`AND s.conversation_start >= ${startsFrom}`;
  const before = startsBefore === undefined ? sql`` : sql`AND s.conversation_start < ${startsBefore}`;
  return sql`(SELECT s.message_id, ts_rank(s.search_vector, q.query) AS score
      FROM message_search s, to_tsquery(${sql.lit(POSTGRES_SEARCH_CONFIGURATION)}::regconfig, ${toTsquery(query)}) AS q(query)
      WHERE s.app_id = ${appId} AND s.search_vector @@ q.query ${inConversation} ${from} ${before}
      ${best === undefined ? sql`` : sql`ORDER BY score DESC LIMIT ${best}`})`;
}
