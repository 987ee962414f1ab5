import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { ConversationsRepository } from "../../src/modules/conversations/conversations.repository.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const postgres = (await dialects()).filter((dialect) => dialect === "postgres");

describe.each(postgres)("the hot queries on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
    await handle.migrate();
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("are prepared by name once per connection, and other queries are not kept", async () => {
    // A transaction holds one connection, whose prepared statements PostgreSQL lists to it alone.
    const prepared = await handle.db.transaction().execute(async (trx) => {
      const conversations = new ConversationsRepository(trx);
      for (let i = 0; i < 3; i++) {
        expect(await conversations.listMembersOfApp("no-app", 0, "no-conversation")).toBeUndefined();
      }
      await trx.selectFrom("apps").select("id").where("id", "=", "no-app").execute();
      const { rows } = await sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements`.execute(trx);
      return rows;
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^recap_\d+$/);
    expect(prepared[0]?.statement).toMatch(/from "conversations" as "c" inner join "apps" as "a"/);
  });
});
