import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../src/db/database.ts";

/** The PostgreSQL server the suites create their databases on. */
export const POSTGRES_ADMIN_URL =
  process.env.RECAP_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The dialects every repository and integration suite runs on. PostgreSQL is required under CI=true;
 * elsewhere a missing server skips its suites with a line saying so.
 */
export async function dialects(): Promise<DatabaseTarget["dialect"][]> {
  if (await postgresReachable()) return ["sqlite", "postgres"];
  if (process.env.CI === "true") {
    throw new Error(`CI=true but PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: its suites must run`);
  }
  console.warn(
    `SKIPPED: PostgreSQL suites (no server at ${POSTGRES_ADMIN_URL}); set RECAP_TEST_POSTGRES_URL`,
  );
  return ["sqlite"];
}

/** A fresh, empty database of the dialect: a temporary SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(dialect: DatabaseTarget["dialect"]): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "recap-test-"));
    return {
      target: { dialect, path: join(dir, "recap.db") },
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `recap_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    target: { dialect, url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
