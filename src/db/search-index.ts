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

/** SQLite: batches by rowid into the FTS5 index, up to the last line (the triggers index every later one). */
async function backfillSqlite(db: Kysely<Database>): Promise<void> {
  const progress = await sql<{ last_rowid: number }>`SELECT last_rowid FROM message_search_backfill`.execute(
    db,
  );
  let last = progress.rows[0]?.last_rowid ?? 0;
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
async function backfillPostgres(db: Kysely<Database>): Promise<void> {
  const counts = await db.transaction().execute(async (trx) => {
    if (!(await holdBackfill(trx))) return null;
    const rows = await sql<{ total: string; done: string }>`SELECT count(*) AS total,
      count(*) FILTER (WHERE id <= (SELECT last_id FROM message_search_backfill)) AS done FROM messages`.execute(
      trx,
    );
    return { total: Number(rows.rows[0]?.total ?? 0), done: Number(rows.rows[0]?.done ?? 0) };
  });
  if (counts === null) return;
  const { total } = counts;
  let { done } = counts;
  if (done < total) reportProgress(done, total);
  for (;;) {
    const count = await db.transaction().execute(async (trx) => {
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
    });
    if (count === 0) break;
    done = Math.min(total, done + count);
    reportProgress(done, total);
  }
  await db.transaction().execute(async (trx) => {
    if (!(await holdBackfill(trx))) return;
    await sql`CREATE INDEX IF NOT EXISTS message_search_vector ON message_search USING gin (search_vector)`.execute(
      trx,
    );
    await sql`ANALYZE message_search`.execute(trx);
    await sql`DROP TABLE message_search_backfill`.execute(trx);
  });
}

/**
 * Indexes for search the lines stored before the index existed (migrations 023 and 025 leave
 * `message_search_backfill` while some are to do), with a progress line per batch. Each batch commits on its own
 * and moves the progress row, so a start interrupted part way resumes at the next batch. Runs after migrating,
 * before anything is served; nothing to do costs one look at the schema.
 */
export async function indexStoredMessages(db: Kysely<Database>): Promise<void> {
  if (!(await backfillPending(db))) return;
  await (isSqlite(db) ? backfillSqlite(db) : backfillPostgres(db));
}
