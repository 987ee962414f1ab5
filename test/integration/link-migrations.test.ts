// Migrations 009_link_labels and 010_link_views on a link made before them: it keeps opening, is listed
// (without a hint: only its hash was kept), can be relabelled, and counts its views from then on.
import { Migrator, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, openDatabase } from "../../src/db/database.ts";
import { hashLinkToken, SummaryLinkSigner } from "../../src/modules/experiences/summary-link.ts";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const NOW = "2026-11-02T15:00:00.000Z";

/** A database as the release before 008 left it, holding one app, one conversation and one link to it. */
async function databaseWithAnOldLink(dialect: "sqlite" | "postgres", linkToken: string) {
  const database = await createTestDatabase(dialect);
  const handle = openDatabase(database.target);
  const before: Record<string, Migration> = Object.fromEntries(
    Object.entries(migrations).filter(([name]) => name < "009_link_labels"),
  );
  const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
  expect((await old.migrateToLatest()).error).toBeUndefined();
  const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const stamps = { created_at: NOW, updated_at: NOW };
  await db
    .insertInto("apps")
    .values({ id: "app", secret_hash: "x", name: "Old app", frame_ancestors: "[]", ...stamps })
    .execute();
  await db
    .insertInto("conversations")
    .values({
      id: "1000000000000001",
      app_id: "app",
      name: "Old meeting",
      start_time: NOW,
      metadata: "{}",
      ...stamps,
    })
    .execute();
  await db
    .insertInto("experiences")
    .values({
      id: "old-link",
      app_id: "app",
      conversation_id: "1000000000000001",
      name: "verbose-text-summary",
      token_hash: hashLinkToken(linkToken),
      settings: JSON.stringify({
        name: "verbose-text-summary",
        color: {},
        font: {},
        summaryURLExpiresIn: 0,
        readOnly: true,
        enableCustomDomain: false,
        speakerAvatarURLs: {},
        hideShareButton: false,
      }),
      read_only: 1,
      created_at: NOW,
    })
    .execute();
  await handle.close();
  return database;
}

describe.each(await dialects())("migrations 008 and 009 on a link made before them on %s", (dialect) => {
  const linkToken = new SummaryLinkSigner(TEST_SECRET).issue();
  let database: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    database = await databaseWithAnOldLink(dialect, linkToken);
    // The server migrates at start, as after an upgrade.
    server = await startTestServer(dialect, { testDatabase: database });
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it("lists the old link without a hint, relabels it, and counts its views from then on", async () => {
    const api = apiClient(server.url, server.services.tokens.issue("app", 0).accessToken);
    const listed = await api.get<Body.ExperienceLinkList>("/v1/experiences");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.experiences).toEqual([
      {
        id: "old-link",
        label: null,
        conversationId: "1000000000000001",
        name: "verbose-text-summary",
        state: "active",
        createdAt: NOW,
        expiresAt: null,
        hint: null,
        views: 0,
        distinctViewers: 0,
        lastViewedAt: null,
      },
    ]);

    const page = await fetch(`${server.url}/s/${linkToken}`);
    expect([page.status, (await page.text()).includes("Old meeting")]).toEqual([200, true]);
    const relabelled = await api.patch<Body.ExperienceLink>(
      "/v1/conversations/1000000000000001/experiences/old-link",
      { label: "From before" },
    );
    expect(relabelled.status, relabelled.text).toBe(200);
    await server.services.linkViews.flush();
    const [link] = (await api.get<Body.ExperienceLinkList>("/v1/experiences")).body.experiences;
    expect([link?.label, link?.views, link?.distinctViewers]).toEqual(["From before", 1, 1]);
  });
});
