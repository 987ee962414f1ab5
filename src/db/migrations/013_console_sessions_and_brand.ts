import type { Kysely } from "kysely";

/**
 * Console sessions become rows (docs/ARCHITECTURE.md, "Console sessions"), so signing out ends one on the
 * server: the cookie holds a random token, the row its SHA-256, the app, the secret generation it was
 * opened under and its end. And each app gets a brand (`brand`, JSON: logo, favicon, colours, font) that a
 * summary page takes for what its link does not set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("console_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("secret_generation", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("console_sessions_app").on("console_sessions").column("app_id").execute();
  await db.schema
    .alterTable("apps")
    .addColumn("brand", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
}
