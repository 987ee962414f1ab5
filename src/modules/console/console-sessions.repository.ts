import type { Kysely } from "kysely";
import type { ConsoleSessionsTable, Database } from "../../db/schema.ts";

/** Console sessions by the SHA-256 of their cookie's token; the token itself is never stored. */
export class ConsoleSessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ConsoleSessionsTable): Promise<void> {
    await this.db.insertInto("console_sessions").values(row).execute();
  }

  /**
   * The app (id and name) of a session that has not ended at `now` and began under the app's current secret
   * generation (a rotation ends every earlier session), in one statement.
   */
  appOfLive(id: string, now: string): Promise<{ id: string; name: string } | undefined> {
    return this.db
      .selectFrom("console_sessions as s")
      .innerJoin("apps as a", (join) =>
        join.onRef("a.id", "=", "s.app_id").onRef("a.secret_generation", "=", "s.secret_generation"),
      )
      .select(["a.id", "a.name"])
      .where("s.id", "=", id)
      .where("s.expires_at", ">", now)
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom("console_sessions").where("id", "=", id).execute();
  }

  /** Deletes the app's sessions that have ended at `now` or began under another secret generation. */
  async deleteEnded(appId: string, generation: number, now: string): Promise<void> {
    await this.db
      .deleteFrom("console_sessions")
      .where("app_id", "=", appId)
      .where((eb) => eb.or([eb("expires_at", "<=", now), eb("secret_generation", "<>", generation)]))
      .execute();
  }
}
