// Migration 013_console_sessions_and_brand on an app made before it: the app has an empty brand its pages
// work with, its owner signs in to the console (a session row), and the brand can be set.
import { createHash } from "node:crypto";
import { Migrator, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, openDatabase } from "../../src/db/database.ts";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const NOW = "2026-11-02T15:00:00.000Z";
const SECRET = "s".repeat(128);

/** A database as the release before 013 left it, holding one app whose secret is SECRET. */
async function databaseWithAnOldApp(dialect: "sqlite" | "postgres"): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  const handle = openDatabase(database.target);
  const before: Record<string, Migration> = Object.fromEntries(
    Object.entries(migrations).filter(([name]) => name < "013_console_sessions_and_brand"),
  );
  const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
  expect((await old.migrateToLatest()).error).toBeUndefined();
  const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  await db
    .insertInto("apps")
    .values({
      id: "oldapp",
      secret_hash: createHash("sha256").update(SECRET).digest("hex"),
      name: "Old app",
      frame_ancestors: "[]",
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  await handle.close();
  return database;
}

describe.each(await dialects())("migration 013 on an app made before it on %s", (dialect) => {
  let database: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    database = await databaseWithAnOldApp(dialect);
    server = await startTestServer(dialect, { testDatabase: database });
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it("gives the app an empty brand, and its owner a console session that signing out ends", async () => {
    const api = apiClient(server.url, server.services.tokens.issue("oldapp", 0).accessToken);
    const app = await api.get<Body.AppSettings>("/v1/app");
    expect(app.status, app.text).toBe(200);
    expect(app.body.brand).toEqual({});

    const client = new ConsoleClient(server);
    expect((await client.signIn("oldapp", SECRET)).status).toBe(303);
    const page = await client.request("/console/settings");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("App: <strong>Old app</strong>");
    const session = client.cookie;
    await client.request("/console/sign-out", { method: "POST" });
    const replayed = await fetch(`${server.url}/console/settings`, {
      redirect: "manual",
      headers: { cookie: session },
    });
    expect(replayed.status).toBe(303);

    const branded = await api.patch<Body.AppSettings>("/v1/app", {
      brand: { color: { background: "#10243e" } },
    });
    expect(branded.body.brand).toEqual({ color: { background: "#10243e" } });
  });
});
