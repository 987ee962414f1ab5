import type { Kysely } from "kysely";

/**
 * What a conversation decided (docs/ANALYSIS.md, Decisions): one row per decision, in order, each a sentence
 * that states it and the lines it rests on, written by each analysis as the summary is. Conversations analysed
 * before have none until they are analysed again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("decisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("message_ids", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("decisions_conversation").on("decisions").column("conversation_id").execute();
}
