import type { Kysely } from "kysely";

/**
 * Each conversation counts the writes to it: every transaction that writes to a conversation starts by
 * locking its row (`lockForWrite`), which now also adds one to `content_version`. A summary page cached
 * under one version is never served once another process has committed a write (docs/PAGES.md, Compression and caching).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("conversations")
    .addColumn("content_version", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
}
