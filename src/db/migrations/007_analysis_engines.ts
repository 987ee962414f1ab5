import { sql, type Kysely } from "kysely";

/**
 * Each conversation records which engine wrote each part of its stored analysis, "llm" (the language model
 * the operator configured, docs/LLM.md) or "local": the summary, the chapter titles and the action items.
 * Null until the conversation is first analysed. Analyses stored before this migration were all local.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of ["summary_engine", "chapters_engine", "action_items_engine"]) {
    await db.schema.alterTable("conversations").addColumn(column, "text").execute();
  }
  await sql`
    UPDATE conversations SET summary_engine = 'local', chapters_engine = 'local', action_items_engine = 'local'
    WHERE EXISTS (SELECT 1 FROM jobs WHERE jobs.conversation_id = conversations.id AND jobs.status = 'completed')
  `.execute(db);
}
