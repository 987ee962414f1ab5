import type { Kysely } from "kysely";

/**
 * Marks insights whose text a viewer edited, so a re-analysis that finds the same insight again keeps the
 * viewer's words rather than its own (a dismissal is already stored in `dismissed`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("insights")
    .addColumn("text_edited", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
