import { SqliteAdapter, sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "./schema.ts";

/**
 * Full-text search on each database's own engine (docs/SEARCH.md): SQLite's FTS5 table `message_search`
 * over `messages`, PostgreSQL's `message_search` table of tsvectors with a GIN index (migration 023).
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

/**
 * The messages that match, as a table of `message_id` and `score` (higher is more relevant: FTS5's BM25 on
 * SQLite, ts_rank on PostgreSQL) to join the rest of a search to.
 */
export function matchingMessages(
  db: Kysely<Database>,
  query: FullTextQuery,
): RawBuilder<{ message_id: string; score: number }> {
  if (isSqlite(db)) {
    return sql`(SELECT m.id AS message_id, -bm25(message_search) AS score
      FROM message_search JOIN messages m ON m.rowid = message_search.rowid
      WHERE message_search MATCH ${toFts5Match(query)})`;
  }
  return sql`(SELECT s.message_id, ts_rank(s.search_vector, q.query) AS score
      FROM message_search s, to_tsquery(${sql.lit(POSTGRES_SEARCH_CONFIGURATION)}::regconfig, ${toTsquery(query)}) AS q(query)
      WHERE s.search_vector @@ q.query)`;
}
