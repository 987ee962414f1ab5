import type { Insertable, Kysely, Updateable } from "kysely";
import { precompile } from "../../db/precompiled.ts";
import type { AppRow, AppsTable, Database } from "../../db/schema.ts";

export class AppsRepository {
  /** Read on every authenticated request (requireAccessToken), so built once. */
  private readonly generationOf;

  constructor(private readonly db: Kysely<Database>) {
    this.generationOf = precompile(db, (app: { id: string }) =>
      db.selectFrom("apps").select("secret_generation").where("id", "=", app.id),
    );
  }

  async insert(row: Insertable<AppsTable>): Promise<void> {
    await this.db.insertInto("apps").values(row).execute();
  }

  findById(id: string): Promise<AppRow | undefined> {
    return this.db.selectFrom("apps").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findByCustomDomain(host: string): Promise<AppRow | undefined> {
    return this.db.selectFrom("apps").selectAll().where("custom_domain", "=", host).executeTakeFirst();
  }

  list(): Promise<AppRow[]> {
    return this.db.selectFrom("apps").selectAll().orderBy("created_at").orderBy("id").execute();
  }

  /** Replaces the secret hash and moves to the next secret generation, ending tokens of earlier ones. */
  async rotateSecret(id: string, secretHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("apps")
      .set((eb) => ({
        secret_hash: secretHash,
        secret_generation: eb("secret_generation", "+", 1),
        updated_at: now,
      }))
      .where("id", "=", id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async secretGeneration(id: string): Promise<number | undefined> {
    const { rows } = await this.generationOf({ id });
    return rows[0]?.secret_generation;
  }

  async update(id: string, changes: Omit<Updateable<AppsTable>, "id">): Promise<boolean> {
    const result = await this.db.updateTable("apps").set(changes).where("id", "=", id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
