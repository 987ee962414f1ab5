import type { Kysely } from "kysely";

/**
 * Recorded media (docs/MEDIA.md). A job has a kind: "text" jobs analyse messages already stored, "media" jobs
 * first turn a file into messages, on runners of their own so a long recording never holds up text; `progress`
 * is how far a media job has got. A recognised message keeps its words' times; a conversation keeps the language
 * its submission named (`languageCode`), which the analysis then takes instead of detecting one. A `media` row is one submitted file and what its job has made of it so far:
 * each step's result is kept, so a job taken up again after a crash resumes at the step it had reached.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("jobs")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("text"))
    .execute();
  await db.schema.alterTable("jobs").addColumn("progress", "real").execute();
  await db.schema.alterTable("messages").addColumn("words", "text").execute();
  await db.schema.alterTable("conversations").addColumn("language_given", "text").execute();
  await db.schema
    .createTable("media")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("job_id", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_url", "text")
    .addColumn("stored_file", "text")
    .addColumn("content_type", "text")
    .addColumn("bytes", "bigint")
    .addColumn("duration_ms", "integer")
    .addColumn("offset_ms", "integer", (c) => c.notNull())
    .addColumn("options", "text", (c) => c.notNull())
    .addColumn("segments", "text")
    .addColumn("turns", "text")
    .addColumn("diarization_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("media_conversation").on("media").column("conversation_id").execute();
}
