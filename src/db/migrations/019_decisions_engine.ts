import { sql, type Kysely } from "kysely";

/**
 * The engine that wrote a conversation's decisions, "llm" or "local", beside the other parts' (migration 007,
 * docs/LLM.md): the language model now proposes decisions too. Null until the conversation is first analysed;
 * decisions stored before this migration were all local.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("conversations").addColumn("decisions_engine", "text").execute();
  await sql`UPDATE conversations SET decisions_engine = 'local' WHERE summary_engine IS NOT NULL`.execute(db);
}
