import type { Kysely } from "kysely";
import type { Database, TrackerRow, TrackersTable } from "../../db/schema.ts";

/** An app's trackers; every read and write is scoped to the app. */
export class TrackersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the tracker unless the app has one of that name; true when inserted. */
  async insert(row: TrackersTable): Promise<boolean> {
    const inserted = await this.db
      .insertInto("trackers")
      .values(row)
      .onConflict((oc) => oc.columns(["app_id", "name"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    return inserted !== undefined;
  }

  list(appId: string, name?: string): Promise<TrackerRow[]> {
    let query = this.db.selectFrom("trackers").selectAll().where("app_id", "=", appId);
    if (name !== undefined) query = query.where("name", "=", name);
    return query.orderBy("created_at").orderBy("name").execute();
  }

  /**
   * Locks the app's row until the transaction ends (a no-op update), so that transactions adding trackers to
   * one app take turns: each counts what the one before it committed.
   */
  async lockApp(appId: string): Promise<void> {
    await this.db
      .updateTable("apps")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", appId)
      .execute();
  }

  async count(appId: string): Promise<number> {
    const row = await this.db
      .selectFrom("trackers")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("app_id", "=", appId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  find(appId: string, id: string): Promise<TrackerRow | undefined> {
    return this.db
      .selectFrom("trackers")
      .selectAll()
      .where("app_id", "=", appId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  findByName(appId: string, name: string): Promise<TrackerRow | undefined> {
    return this.db
      .selectFrom("trackers")
      .selectAll()
      .where("app_id", "=", appId)
      .where("name", "=", name)
      .executeTakeFirst();
  }

  async update(appId: string, id: string, changes: { name: string; vocabulary: string; updated_at: string }) {
    await this.db
      .updateTable("trackers")
      .set(changes)
      .where("app_id", "=", appId)
      .where("id", "=", id)
      .execute();
  }

  async delete(appId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("trackers")
      .where("app_id", "=", appId)
      .where("id", "=", id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
