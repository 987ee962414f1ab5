import type { Kysely } from "kysely";

/**
 * The language a conversation is in, as a BCP 47 tag ("en-US", "es-ES"), written by each analysis (detected
 * from its lines, or as its sender gave it). Null until the conversation is analysed again: conversations
 * analysed before were analysed as English (docs/ANALYSIS.md, Language).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("conversations").addColumn("language_code", "text").execute();
}
