import type { Kysely } from "kysely";
import type { Database, ExperienceRow, ExperiencesTable } from "../../db/schema.ts";

/** Summary links. Every read is scoped to an app, except the lookup by token hash a viewer's request makes. */
export class ExperiencesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ExperiencesTable): Promise<void> {
    await this.db.insertInto("experiences").values(row).execute();
  }

  findByTokenHash(tokenHash: string): Promise<ExperienceRow | undefined> {
    return this.db
      .selectFrom("experiences")
      .selectAll()
      .where("token_hash", "=", tokenHash)
      .executeTakeFirst();
  }

  listOfConversation(appId: string, conversationId: string): Promise<ExperienceRow[]> {
    return this.db
      .selectFrom("experiences")
      .selectAll()
      .where("app_id", "=", appId)
      .where("conversation_id", "=", conversationId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
  }

  find(appId: string, conversationId: string, id: string): Promise<ExperienceRow | undefined> {
    return this.db
      .selectFrom("experiences")
      .selectAll()
      .where("app_id", "=", appId)
      .where("conversation_id", "=", conversationId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** Marks the link revoked; a link already revoked keeps its first revocation time. */
  async revoke(id: string, at: string): Promise<void> {
    await this.db
      .updateTable("experiences")
      .set({ revoked_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .execute();
  }
}
