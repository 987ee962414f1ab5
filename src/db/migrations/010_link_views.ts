import type { Kysely } from "kysely";

/**
 * First-party view counts of summary links (docs/PAGES.md, View counts): each link's views, distinct
 * viewers (one a day per viewer) and last view, and `link_viewers`, the day's keyed hashes of the viewers
 * already counted (never an address), deleted once their day is over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of ["view_count", "distinct_viewers"]) {
    await db.schema
      .alterTable("experiences")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable("experiences").addColumn("last_viewed_at", "text").execute();
  await db.schema
    .createTable("link_viewers")
    .addColumn("experience_id", "text", (c) => c.notNull().references("experiences.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("viewer", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("link_viewers_pk", ["experience_id", "day", "viewer"])
    .execute();
  await db.schema.createIndex("link_viewers_day").on("link_viewers").column("day").execute();
}
