import type { Kysely } from "kysely";

/**
 * A media job's stages and retries (docs/MEDIA.md, The job). `stage` is "fetch" while a URL's media is still to
 * be fetched, which the fetch runners claim, so a slow URL never holds a recognition slot; null once the source
 * is on disk (and for every other job). `retries` counts the times the job was put back because its speech
 * engine did not answer, bounded by RECAP_ASR_RETRIES. Jobs written before this have no stage: their runner
 * fetches the URL itself, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("stage", "text").execute();
  await db.schema
    .alterTable("jobs")
    .addColumn("retries", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
}
