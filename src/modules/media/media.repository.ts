import type { Insertable, Kysely, Transaction } from "kysely";
import type { Database, MediaRow, MediaTable } from "../../db/schema.ts";

export class MediaRepository {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  async insert(row: Insertable<MediaTable>): Promise<void> {
    await this.db.insertInto("media").values(row).execute();
  }

  findByJob(jobId: string): Promise<MediaRow | undefined> {
    return this.db.selectFrom("media").selectAll().where("job_id", "=", jobId).executeTakeFirst();
  }

  /** The conversation's media in the order they were submitted. */
  listOfConversation(conversationId: string): Promise<MediaRow[]> {
    return this.db
      .selectFrom("media")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  async update(
    id: string,
    values: Partial<Pick<MediaRow, "duration_ms" | "offset_ms" | "segments" | "turns" | "diarization_error">>,
  ): Promise<void> {
    await this.db.updateTable("media").set(values).where("id", "=", id).execute();
  }
}
