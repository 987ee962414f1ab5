import type { Kysely } from "kysely";
import type { AppRow, AppsTable, Database } from "../../db/schema.ts";

export class AppsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AppsTable): Promise<void> {
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

  async update(id: string, changes: Partial<Omit<AppsTable, "id">>): Promise<boolean> {
    const result = await this.db.updateTable("apps").set(changes).where("id", "=", id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
