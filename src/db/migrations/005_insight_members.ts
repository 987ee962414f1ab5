import { sql, type Kysely } from "kysely";

/**
 * Insights point at the member they are for (`assignee_member_id`), so the assignee shows the member's
 * current name and id after a rename or a merge; `assignee_name` keeps the name as the text wrote it for
 * people who are not members. Existing insights are linked by the rule the API used when reading them
 * (a member of the conversation with that name, case-insensitive, the earliest first). Stored `due_by`
 * values that are bare dates become the start of that day in UTC, the full ISO-8601 date-time the API
 * now sends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("insights")
    .addColumn("assignee_member_id", "text", (c) => c.references("members.id").onDelete("set null"))
    .execute();
  await sql`
    UPDATE insights SET assignee_member_id = (
      SELECT m.id FROM members m
      WHERE m.conversation_id = insights.conversation_id AND lower(m.name) = lower(insights.assignee_name)
      ORDER BY m.position LIMIT 1
    )
    WHERE assignee_name IS NOT NULL
  `.execute(db);
  await sql`UPDATE insights SET due_by = due_by || 'T00:00:00.000Z' WHERE length(due_by) = 10`.execute(db);
}
