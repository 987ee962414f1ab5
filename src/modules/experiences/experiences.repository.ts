import type { Kysely } from "kysely";
import { precompile } from "../../db/precompiled.ts";
import type { Database, ExperienceRow, ExperiencesTable } from "../../db/schema.ts";
import type { LinkState } from "./experiences.schemas.ts";

/** Which of an app's links to list: optionally one conversation's, optionally in one state at `now`. */
export interface LinkFilter {
  conversationId?: string;
  state?: LinkState;
  now: string;
  limit: number;
  offset: number;
}

/** Every column of a link row, so the insert binds each one (a null too) and its SQL never changes. */
const COLUMNS: Record<keyof ExperiencesTable, "text" | "integer"> = {
  id: "text",
  app_id: "text",
  conversation_id: "text",
  name: "text",
  token_hash: "text",
  settings: "text",
  read_only: "integer",
  custom_domain: "text",
  expires_at: "text",
  revoked_at: "text",
  created_at: "text",
  label: "text",
  token_hint: "text",
  view_count: "integer",
  distinct_viewers: "integer",
  last_viewed_at: "text",
};
const COLUMN_NAMES = Object.keys(COLUMNS) as (keyof ExperiencesTable)[];

/** Summary links. Every read is scoped to an app, except the lookup by token hash a viewer's request makes. */
export class ExperiencesRepository {
  private readonly insertRow;

  constructor(private readonly db: Kysely<Database>) {
    // The values are selected from the row's conversation joined to its app, so the link is inserted only
    // when the app sees that conversation (under the token's secret generation, when one is given): one
    // statement instead of reads and an insert. Each value is cast to its column's type, which PostgreSQL
    // cannot infer for a parameter in a select list.
    this.insertRow = precompile(
      db,
      (row: ExperiencesTable & { generation: number | null }) =>
        db
          .insertInto("experiences")
          .columns(COLUMN_NAMES)
          .expression((eb) =>
            eb
              .selectFrom("conversations as c")
              .innerJoin("apps as a", (join) =>
                join
                  .onRef("a.id", "=", "c.app_id")
                  .on((on) =>
                    on(
                      "a.secret_generation",
                      "=",
                      on.fn.coalesce(
                        eb.cast<number>(eb.val(row.generation), "integer"),
                        on.ref("a.secret_generation"),
                      ),
                    ),
                  ),
              )
              .select(COLUMN_NAMES.map((column) => eb.cast(eb.val(row[column]), COLUMNS[column]).as(column)))
              .where("c.id", "=", row.conversation_id)
              .where("c.app_id", "=", row.app_id),
          ),
      [...COLUMN_NAMES, "generation"],
    );
  }

  /**
   * Inserts the link when its app sees its conversation, and `generation` (unless null) is still the app's
   * secret generation; false (nothing inserted) otherwise.
   */
  async insertIfVisible(row: ExperiencesTable, generation: number | null): Promise<boolean> {
    const { numAffectedRows } = await this.insertRow({ ...row, generation });
    return numAffectedRows === 1n;
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

  /** The app's links across its conversations, newest first. States follow linkStatus (experiences.presenter.ts). */
  listOfApp(appId: string, filter: LinkFilter): Promise<ExperienceRow[]> {
    let query = this.db.selectFrom("experiences").selectAll().where("app_id", "=", appId);
    if (filter.conversationId !== undefined) {
      query = query.where("conversation_id", "=", filter.conversationId);
    }
    if (filter.state === "revoked") query = query.where("revoked_at", "is not", null);
    if (filter.state === "expired") {
      query = query
        .where("revoked_at", "is", null)
        .where("expires_at", "is not", null)
        .where("expires_at", "<=", filter.now);
    }
    if (filter.state === "active") {
      query = query
        .where("revoked_at", "is", null)
        .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", filter.now)]));
    }
    return query
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(filter.limit)
      .offset(filter.offset)
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

  async update(id: string, changes: Partial<Pick<ExperiencesTable, "label" | "expires_at">>): Promise<void> {
    await this.db.updateTable("experiences").set(changes).where("id", "=", id).execute();
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
