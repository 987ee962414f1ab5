import type { Kysely } from "kysely";

/**
 * Live streams as jobs (docs/LIVE.md). A stream's analysis job is written when the stream starts, in progress and
 * held by the process streaming it (a lease it renews, attempts 0), with the client's connection id: connections
 * of the app with that id on any process join its conversation, the page marks the conversation live while the
 * lease holds, and a process that dies mid-stream lets the lease lapse, so a job runner takes the job up and
 * analyses the lines stored so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("live_connection_id", "text").execute();
  await db.schema
    .createIndex("jobs_live_connection")
    .on("jobs")
    .columns(["app_id", "live_connection_id"])
    .execute();
}
