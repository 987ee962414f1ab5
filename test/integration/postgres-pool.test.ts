import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POSTGRES_POOL_SIZE, openDatabase } from "../../src/db/database.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const postgres = (await dialects()).filter((dialect) => dialect === "postgres");

describe.each(postgres)("the connection pool on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  /**
   * Runs 20 queries at once through a pool of `poolSize`, answering the most connections to the database the
   * server listed meanwhile (besides the observer's own).
   */
  async function connectionsDuringBurst(poolSize?: number): Promise<number> {
    if (database.target.dialect !== "postgres") throw new Error("a PostgreSQL target");
    const handle = openDatabase({ ...database.target, ...(poolSize !== undefined && { poolSize }) });
    const observer = new pg.Client({ connectionString: database.target.url });
    await observer.connect();
    try {
      let done = false;
      const burst = Promise.all(
        Array.from({ length: 20 }, () => sql`SELECT pg_sleep(0.3)`.execute(handle.db)),
      ).finally(() => (done = true));
      let most = 0;
      while (!done) {
        const { rows } = await observer.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        );
        most = Math.max(most, rows[0]?.n ?? 0);
      }
      await burst;
      return most;
    } finally {
      await observer.end();
      await handle.close();
    }
  }

  it("opens at most RECAP_DATABASE_POOL_SIZE connections, queueing the rest of a burst", async () => {
    expect(await connectionsDuringBurst(2)).toBe(2);
    expect(await connectionsDuringBurst()).toBe(DEFAULT_POSTGRES_POOL_SIZE);
  });
});
