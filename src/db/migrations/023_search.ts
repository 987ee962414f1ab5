import { sql, type Kysely } from "kysely";
import { isSqlite, POSTGRES_SEARCH_CONFIGURATION } from "../full-text.ts";
import type { Database } from "../schema.ts";
import { POSTGRES_SEARCH_TEXT } from "../search-text.ts";

/**
 * Search across conversations (docs/SEARCH.md). SQLite: an FTS5 table with `messages` as its external content,
 * kept in step by triggers that hand it each line's text through `recap_search_text` (database.ts registers it on
 * every connection). `message_search_backfill` marks the lines stored before it as still to index: after migrating,
 * indexStoredMessages (search-index.ts) indexes them in batches it can resume.
 */
async function upSqlite(db: Kysely<Database>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE IF NOT EXISTS message_search USING fts5(
    text, content='messages', tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'")`.execute(db);
  await sql`CREATE TRIGGER IF NOT EXISTS messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_search (rowid, text) VALUES (new.rowid, recap_search_text(new.text));
  END`.execute(db);
  await sql`CREATE TRIGGER IF NOT EXISTS messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO message_search (message_search, rowid, text) VALUES ('delete', old.rowid, recap_search_text(old.text));
  END`.execute(db);
  await sql`CREATE TRIGGER IF NOT EXISTS messages_search_update AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO message_search (message_search, rowid, text) VALUES ('delete', old.rowid, recap_search_text(old.text));
    INSERT INTO message_search (rowid, text) VALUES (new.rowid, recap_search_text(new.text));
  END`.execute(db);
  // The triggers index every line written from here on; indexStoredMessages (search-index.ts) the ones before.
  await sql`CREATE TABLE IF NOT EXISTS message_search_backfill (last_rowid INTEGER NOT NULL)`.execute(db);
  await sql`INSERT INTO message_search_backfill (last_rowid)
    SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM message_search_backfill)`.execute(db);
}

/**
 * PostgreSQL: `recap_search_vector`, a line's tsvector: the text cut as SQLite's is (search-text.ts), then the
 * `recap_search` configuration, `simple` with accents removed by `unaccent`. Migration 025 makes the table of them.
 */
async function upPostgres(db: Kysely<Database>): Promise<void> {
  const configuration = sql.id(POSTGRES_SEARCH_CONFIGURATION);
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION ${configuration} (COPY = simple)`.execute(db);
  await sql`ALTER TEXT SEARCH CONFIGURATION ${configuration}
    ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
    WITH unaccent, simple`.execute(db);
  await sql`CREATE FUNCTION recap_search_vector(body text) RETURNS tsvector LANGUAGE sql STABLE AS $$
    SELECT to_tsvector('${sql.raw(POSTGRES_SEARCH_CONFIGURATION)}', ${sql.raw(POSTGRES_SEARCH_TEXT)})
  $$`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const typed = db as Kysely<Database>;
  await (isSqlite(typed) ? upSqlite(typed) : upPostgres(typed));
}
