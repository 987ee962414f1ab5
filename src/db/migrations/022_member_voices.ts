import type { Kysely } from "kysely";

/**
 * What voice matching found for a member of a diarized recording (docs/VOICES.md, Matching): the voice profile that
 * named it and the raw cosine score, or the profile it only suggests, with that profile's name when matched and the
 * score. All null for a member no voice was matched to (every member before this).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("members").addColumn("voice_id", "text").execute();
  await db.schema.alterTable("members").addColumn("voice_score", "real").execute();
  await db.schema.alterTable("members").addColumn("suggested_voice_id", "text").execute();
  await db.schema.alterTable("members").addColumn("suggested_voice_name", "text").execute();
  await db.schema.alterTable("members").addColumn("suggested_voice_score", "real").execute();
}
