import type { Kysely } from "kysely";

/**
 * Voice profiles (docs/VOICES.md). An app turns them on with `voice_profiles` (0 until it does). A profile is a
 * named person of one app; its references are speaker embeddings, one per enrolment, each the float32 vector as
 * a blob (`bytea`: PostgreSQL's binary type; SQLite stores a blob as sent whatever the column's type), with the
 * conversation and member it was computed from. Deleting a profile deletes its references in the same statement,
 * and deleting an app its profiles, on both databases (SQLite enforces foreign keys: `foreign_keys = ON`).
 * `email_key` is the e-mail in lower case, unique within the app, so two enrolments of one person at once cannot
 * make two profiles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("apps")
    .addColumn("voice_profiles", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("voice_profiles")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("email_key", "text")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("dimension", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("voice_profiles_app_email")
    .on("voice_profiles")
    .columns(["app_id", "email_key"])
    .unique()
    .execute();
  await db.schema
    .createTable("voice_references")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("voice_profiles.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull())
    .addColumn("vector", "bytea", (c) => c.notNull())
    .addColumn("speech_seconds", "real", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("voice_references_profile")
    .on("voice_references")
    .column("profile_id")
    .execute();
}
