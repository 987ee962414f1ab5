import { sql, type Kysely } from "kysely";
import { isSqlite, POSTGRES_SEARCH_CONFIGURATION } from "../full-text.ts";
import type { Database } from "../schema.ts";
import { POSTGRES_SEARCH_TEXT } from "../search-text.ts";

/** Messages indexed per statement when an existing installation's messages are indexed. */
const BATCH = 10_000;

/** The progress line: how many of how many messages are indexed so far. */
function reportProgress(done: number, total: number): void {
  const share = total === 0 ? 100 : Math.floor((done / total) * 100);
  console.info(
    `search index: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} messages (${share}%)`,
  );
}

/**
 * Search across conversations (docs/SEARCH.md). SQLite: an FTS5 table with `messages` as its external content,
 * kept in step by triggers that hand it each line's text through `recap_search_text` (database.ts registers it on
 * every connection). Existing messages are indexed in batches by rowid, each its own transaction, the last rowid
 * done kept in `message_search_backfill`, so a start interrupted part way resumes where it stopped.
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
  await sql`CREATE TABLE IF NOT EXISTS message_search_backfill (last_rowid INTEGER NOT NULL)`.execute(db);
  const progress = await sql<{ last_rowid: number }>`SELECT last_rowid FROM message_search_backfill`.execute(
    db,
  );
  let last = progress.rows[0]?.last_rowid;
  if (last === undefined) {
    // The triggers index every message written from here on; the backfill stops at the last one before.
    await sql`INSERT INTO message_search_backfill (last_rowid) VALUES (0)`.execute(db);
    last = 0;
  }
  const counts = await sql<{ total: number; done: number }>`SELECT count(*) AS total,
    count(*) FILTER (WHERE rowid <= ${last}) AS done FROM messages`.execute(db);
  const total = Number(counts.rows[0]?.total ?? 0);
  let done = Number(counts.rows[0]?.done ?? 0);
  if (done < total) reportProgress(done, total);
  for (;;) {
    const from: number = last;
    const batch = await db.transaction().execute(async (trx) => {
      const rows = await sql<{
        last: number | null;
        count: number;
      }>`SELECT max(rowid) AS last, count(*) AS count
        FROM (SELECT rowid FROM messages WHERE rowid > ${from} ORDER BY rowid LIMIT ${BATCH})`.execute(trx);
      const { last: until, count } = rows.rows[0] ?? { last: null, count: 0 };
      if (until === null) return null;
      await sql`INSERT INTO message_search (rowid, text)
        SELECT rowid, recap_search_text(text) FROM messages WHERE rowid > ${from} AND rowid <= ${until}`.execute(
        trx,
      );
      await sql`UPDATE message_search_backfill SET last_rowid = ${until}`.execute(trx);
      return { until, count: Number(count) };
    });
    if (batch === null) break;
    last = batch.until;
    done += batch.count;
    reportProgress(done, total);
  }
  await sql`DROP TABLE message_search_backfill`.execute(db);
}

/**
 * PostgreSQL: `message_search` holds each message's tsvector (a table of its own, so reading `messages` never
 * carries it), kept by triggers on `messages` and deleted with its message by the foreign key. The text goes
 * through the same cut as SQLite's (search-text.ts) and `recap_search`: `simple`, accents removed by `unaccent`.
 * Existing messages are indexed in batches by id with a progress line each; PostgreSQL runs the migration in
 * one transaction, so an interrupted start leaves the database as it was and the next one begins again.
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
  await sql`CREATE TABLE message_search (
    message_id text PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    search_vector tsvector NOT NULL
  )`.execute(db);
  await sql`CREATE FUNCTION messages_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO message_search (message_id, search_vector)
        SELECT id, recap_search_vector(text) FROM inserted;
      RETURN NULL;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION messages_search_insert()`.execute(
    db,
  );
  await sql`CREATE FUNCTION messages_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE message_search SET search_vector = recap_search_vector(NEW.text) WHERE message_id = NEW.id;
      RETURN NULL;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
    FOR EACH ROW WHEN (OLD.text IS DISTINCT FROM NEW.text) EXECUTE FUNCTION messages_search_update()`.execute(
    db,
  );
  const counts = await sql<{ total: string }>`SELECT count(*) AS total FROM messages`.execute(db);
  const total = Number(counts.rows[0]?.total ?? 0);
  if (total > 0) reportProgress(0, total);
  let last = "";
  let done = 0;
  for (;;) {
    const batch = await sql<{ last: string | null; count: string }>`WITH batch AS (
        INSERT INTO message_search (message_id, search_vector)
        SELECT id, recap_search_vector(text) FROM messages WHERE id > ${last} ORDER BY id LIMIT ${BATCH}
        RETURNING message_id)
      SELECT max(message_id) AS last, count(*) AS count FROM batch`.execute(db);
    const row = batch.rows[0];
    if (!row || row.last === null) break;
    last = row.last;
    done += Number(row.count);
    reportProgress(done, total);
  }
  await sql`CREATE INDEX message_search_vector ON message_search USING gin (search_vector)`.execute(db);
  // The planner's figures for a table just filled, which autovacuum would otherwise give it only later.
  await sql`ANALYZE message_search`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const typed = db as Kysely<Database>;
  await (isSqlite(typed) ? upSqlite(typed) : upPostgres(typed));
}
