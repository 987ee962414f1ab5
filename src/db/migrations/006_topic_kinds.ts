import type { Kysely } from "kysely";

/**
 * Topics say what they are (`kind`): a `chapter` is a contiguous segment of the conversation, in order,
 * whose lines are `message_ids`; a `phrase` is a key phrase and the lines that mention it. Rows stored
 * before this migration become phrases: nothing recorded which of them were segments, and a phrase
 * shows as it did before (a topic linking to its first line), whereas a chapter claims an order, a
 * start and a share of the meeting that an old key-phrase row would get wrong. Analysing the
 * conversation again stores its chapters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("topics")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("phrase"))
    .execute();
}
