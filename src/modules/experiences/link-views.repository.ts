import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";

/** The counters of link views (link-views.ts writes them, batched) and the day's viewer hashes behind them. */
export class LinkViewsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds `views` to the link's count and moves its last view to `at` unless a later one is stored (another
   * process may write after this one). False when the link is gone.
   */
  async addViews(experienceId: string, views: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable("experiences")
      .set((eb) => ({
        view_count: eb("view_count", "+", views),
        last_viewed_at: eb
          .case()
          .when(eb.or([eb("last_viewed_at", "is", null), eb("last_viewed_at", "<", at)]))
          .then(at)
          .else(eb.ref("last_viewed_at"))
          .end(),
      }))
      .where("id", "=", experienceId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records the day's viewers not yet seen and counts them as distinct viewers; answers how many were new. */
  async addViewers(experienceId: string, day: string, viewers: string[]): Promise<number> {
    if (viewers.length === 0) return 0;
    const added = await this.db
      .insertInto("link_viewers")
      .values(viewers.map((viewer) => ({ experience_id: experienceId, day, viewer })))
      .onConflict((conflict) => conflict.columns(["experience_id", "day", "viewer"]).doNothing())
      .returning("viewer")
      .execute();
    if (added.length > 0) {
      await this.db
        .updateTable("experiences")
        .set((eb) => ({ distinct_viewers: eb("distinct_viewers", "+", added.length) }))
        .where("id", "=", experienceId)
        .execute();
    }
    return added.length;
  }

  /** Deletes the viewer hashes of days before `day`: once a day is over they are no longer needed. */
  async forgetViewersBefore(day: string): Promise<void> {
    await this.db.deleteFrom("link_viewers").where("day", "<", day).execute();
  }
}
