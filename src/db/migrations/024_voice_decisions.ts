import type { Kysely } from "kysely";

/**
 * The owner's say over voice matching (docs/VOICES.md, Confirming and undoing). `members.diarized_name` is the
 * "Speaker N" a voice-named member had before a profile named it, so that undoing the name gives it back.
 * `voice_rejections` remembers each profile a member was said not to be: the member, and the embedding of its
 * speech when one could be computed, which later matching holds against the profile (a speaker who sounds more
 * like a rejected voice than like the profile's references is not paired with it). Deleting a profile deletes its
 * rejections in the same statement, as its references. `voice_profiles.centroid` is the unit mean of a profile's
 * references (float32, little-endian, as they are), which matching compares first to shortlist profiles; null until
 * it is computed (profiles made before this are computed at their next match). `voice_samples` keeps, for a
 * conversation whose audio Recap does not keep (a live stream), each speaker's voice as an embedding (never audio),
 * so that the owner can save it as a voice afterwards; deleted with its conversation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("members").addColumn("diarized_name", "text").execute();
  await db.schema.alterTable("voice_profiles").addColumn("centroid", "bytea").execute();
  await db.schema
    .createTable("voice_rejections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("voice_profiles.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull())
    .addColumn("vector", "bytea")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("voice_rejections_member")
    .on("voice_rejections")
    .columns(["profile_id", "conversation_id", "member_id"])
    .unique()
    .execute();
  await db.schema
    .createTable("voice_samples")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("identity_key", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("dimension", "integer", (c) => c.notNull())
    .addColumn("vector", "bytea", (c) => c.notNull())
    .addColumn("speech_seconds", "real", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("voice_samples_speaker")
    .on("voice_samples")
    .columns(["conversation_id", "identity_key"])
    .unique()
    .execute();
}
