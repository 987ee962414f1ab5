import { sql, type Kysely } from "kysely";
import { isSqlite } from "./full-text.ts";
import type { Database } from "./schema.ts";

/** Lines indexed per batch, each batch its own transaction. */
const BATCH = 10_000;

/** The progress line: how many of how many lines are indexed so far. */
function reportProgress(done: number, total: number): void {
  const share = total === 0 ? 100 : Math.floor((done / total) * 100);
  console.info(
    `search index: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} messages (${share}%)`,
  );
}

async function backfillPending(db: Kysely<Database>): Promise<boolean> {
  const table = await sql<{ name: string }>`${
    isSqlite(db)
      ? sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'message_search_backfill'`
      : sql`SELECT tablename AS name FROM pg_tables
          WHERE schemaname = current_schema() AND tablename = 'message_search_backfill'`
  }`.execute(db);
  return table.rows.length > 0;
}

/** One database's steps of the backfill; `run` drives them the same way on both. */
interface BackfillSteps {
  /** How many lines there are and how many are indexed; null when another instance finished meanwhile. */
  counts(): Promise<{ total: number; done: number } | null>;
  /** Indexes the next batch in a transaction that moves the progress row; how many lines it held (0: none left). */
  batch(): Promise<number>;
  /** After the last batch: what comes after indexing, and the progress table dropped. */
  finish(): Promise<void>;
}

/** How many lines there are, and how many the progress row says are indexed: those whose `key` is up to its `last`. */
async function countLines(
  db: Kysely<Database>,
  key: "rowid" | "id",
  last: "last_rowid" | "last_id",
): Promise<{ total: number; done: number }> {
  const { rows } = await sql<{ total: number | string; done: number | string }>`SELECT count(*) AS total,
    count(*) FILTER (WHERE ${sql.ref(key)} <= (SELECT ${sql.ref(last)} FROM message_search_backfill)) AS done
    FROM messages`.execute(db);
  return { total: Number(rows[0]?.total ?? 0), done: Number(rows[0]?.done ?? 0) };
}

/** SQLite: batches by rowid into the FTS5 index, up to the last line (the triggers index every later one). */
function sqliteSteps(db: Kysely<Database>): BackfillSteps {
  return {
    counts: () => countLines(db, "rowid", "last_rowid"),
    batch: () =>
      db.transaction().execute(async (trx) => {
        const rows = await sql<{
          last: number | null;
          count: number;
        }>`SELECT max(rowid) AS last, count(*) AS count
          FROM (SELECT rowid FROM messages WHERE rowid > (SELECT last_rowid FROM message_search_backfill)
            ORDER BY rowid LIMIT ${BATCH})`.execute(trx);
        const until = rows.rows[0]?.last ?? null;
        if (until === null) return 0;
        await sql`INSERT INTO message_search (rowid, text)
          SELECT rowid, recap_search_text(text) FROM messages
          WHERE rowid > (SELECT last_rowid FROM message_search_backfill) AND rowid <= ${until}`.execute(trx);
        await sql`UPDATE message_search_backfill SET last_rowid = ${until}`.execute(trx);
        return Number(rows.rows[0]?.count ?? 0);
      }),
    async finish() {
      await sql`DROP TABLE message_search_backfill`.execute(db);
    },
  };
}

/**
 * In a transaction of its own on PostgreSQL: waits for any other instance's backfill step to commit (instances
 * starting together take turns) and tells whether lines are still to be indexed.
 */
async function holdBackfill(trx: Kysely<Database>): Promise<boolean> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('recap message_search_backfill'))`.execute(trx);
  const marker = await sql<{
    table: string | null;
  }>`SELECT to_regclass('message_search_backfill') AS table`.execute(trx);
  return marker.rows[0]?.table !== null;
}

/**
 * PostgreSQL: batches by id, skipping lines the triggers indexed meanwhile; then the GIN index over them all and
 * the planner's figures, in the transaction that drops the progress row's table.
 */
function postgresSteps(db: Kysely<Database>): BackfillSteps {
  return {
    counts: () =>
      db.transaction().execute(async (trx) => {
        if (!(await holdBackfill(trx))) return null;
        return countLines(trx, "id", "last_id");
      }),
    batch: () =>
      db.transaction().execute(async (trx) => {
        if (!(await holdBackfill(trx))) return 0;
        const rows = await sql<{ last: string | null; count: string }>`WITH batch AS (
            SELECT id, conversation_id, text FROM messages
            WHERE id > (SELECT last_id FROM message_search_backfill) ORDER BY id LIMIT ${BATCH}),
          indexed AS (
            INSERT INTO message_search (message_id, app_id, conversation_start, search_vector)
            SELECT b.id, c.app_id, c.start_time, recap_search_vector(b.text)
            FROM batch b JOIN conversations c ON c.id = b.conversation_id
            ON CONFLICT (message_id) DO NOTHING)
          SELECT max(id) AS last, count(*) AS count FROM batch`.execute(trx);
        const until = rows.rows[0]?.last ?? null;
        if (until === null) return 0;
        await sql`UPDATE message_search_backfill SET last_id = ${until}`.execute(trx);
        return Number(rows.rows[0]?.count ?? 0);
      }),
    finish: () =>
      db.transaction().execute(async (trx) => {
        if (!(await holdBackfill(trx))) return;
        await sql`CREATE INDEX IF NOT EXISTS message_search_vector ON message_search USING gin (search_vector)`.execute(
          trx,
        );
        await sql`ANALYZE message_search`.execute(trx);
        await sql`DROP TABLE message_search_backfill`.execute(trx);
      }),
  };
}

/** Batches until none is left: a progress line before the first while lines are left, and one after each. */
async function run(steps: BackfillSteps): Promise<void> {
  const counts = await steps.counts();
  if (counts === null) return;
  const { total } = counts;
  let { done } = counts;
  if (done < total) reportProgress(done, total);
  for (let count = await steps.batch(); count > 0; count = await steps.batch()) {
    done = Math.min(total, done + count);
    reportProgress(done, total);
  }
  await steps.finish();
}

/**
 * Indexes for search the lines stored before the index existed (migrations 023 and 025 leave
 * `message_search_backfill` while some are to do), with a progress line per batch. Each batch commits on its own
 * and moves the progress row, so a start interrupted part way resumes at the next batch. Runs after migrating,
 * before anything is served; nothing to do costs one look at the schema.
 */
export async function indexStoredMessages(db: Kysely<Database>): Promise<void> {
  if (!(await backfillPending(db))) return;
  await run(isSqlite(db) ? sqliteSteps(db) : postgresSteps(db));
}
