import { sql, type Kysely } from "kysely";

/**
 * A custom domain is one app's only, and the database now says so: the index on `apps.custom_domain` becomes
 * unique, so two apps claiming a domain at once cannot both be granted it (the check before the write could
 * not see the other's). A domain two or more apps already share is taken from all of them, as nothing tells
 * which was meant to have it: each can set it again (PATCH /v1/app), and the first to do so holds it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE apps SET custom_domain = NULL
    WHERE custom_domain IN (
      SELECT custom_domain FROM apps WHERE custom_domain IS NOT NULL
      GROUP BY custom_domain HAVING COUNT(*) > 1
    )`.execute(db);
  await db.schema.dropIndex("apps_custom_domain").execute();
  await db.schema.createIndex("apps_custom_domain").on("apps").column("custom_domain").unique().execute();
}
