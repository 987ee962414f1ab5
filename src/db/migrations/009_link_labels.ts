import type { Kysely } from "kysely";

/**
 * Links an owner can tell apart: an optional `label`, and `token_hint`, the last four characters of the
 * link's token (a link's URL can be recognised by it, never opened: the token holds 128 random bits
 * besides). Links made before this migration have no hint, as only a hash of their token was kept.
 * The index serves the app-wide list, newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of ["label", "token_hint"]) {
    await db.schema.alterTable("experiences").addColumn(column, "text").execute();
  }
  await db.schema
    .createIndex("experiences_app_created")
    .on("experiences")
    .columns(["app_id", "created_at"])
    .execute();
}
