import type { Kysely } from "kysely";

/**
 * An app's trackers (Symbl's Management API): named lists of words and phrases, matched against every
 * conversation when read. A name is unique within an app, as Symbl's 409 says (case-sensitive).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("trackers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("vocabulary", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("trackers_app_name")
    .on("trackers")
    .columns(["app_id", "name"])
    .unique()
    .execute();
}
