import { Migrator, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import * as initial from "../../src/db/migrations/001_initial.ts";
import * as insightEdits from "../../src/db/migrations/002_insight_edits.ts";
import * as webhooksAndRotation from "../../src/db/migrations/003_webhooks_and_rotation.ts";
import * as jobFencing from "../../src/db/migrations/004_job_fencing.ts";
import * as insightMembers from "../../src/db/migrations/005_insight_members.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

describe.each(await dialects())("migration 005_insight_members on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("links stored insights to the member their assignee names and makes bare due dates date-times", async () => {
    // A database as the previous release left it.
    const before: Record<string, Migration> = { "001_initial": initial, "002_insight_edits": insightEdits };
    const old = new Migrator({
      db: handle.db,
      provider: { getMigrations: () => Promise.resolve(before) },
    });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = "2026-11-02T15:00:00.000Z";
    await db
      .insertInto("apps")
      .values({
        id: "app",
        secret_hash: "x",
        name: "a",
        frame_ancestors: "[]",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("conversations")
      .values({
        id: "c",
        app_id: "app",
        name: "c",
        start_time: now,
        metadata: "{}",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("members")
      .values([
        { id: "m-dana", conversation_id: "c", name: "Dana", position: 0 },
        { id: "m-bob", conversation_id: "c", name: "Bob", position: 1 },
      ])
      .execute();
    const insight = (id: string, assignee: string | null, dueBy: string | null) => ({
      id,
      conversation_id: "c",
      position: 0,
      type: "action_item",
      text: "t",
      score: 0.8,
      message_ids: "[]",
      member_id: "m-bob",
      assignee_name: assignee,
      due_by: dueBy,
      dismissed: 0,
    });
    await db
      .insertInto("insights")
      .values([
        insight("named", "dana", "2026-11-06"),
        insight("stranger", "Eve", "2026-11-06T15:00:00.000Z"),
        insight("group", null, null),
      ])
      .execute();

    expect(await handle.migrate()).toContain("005_insight_members");

    const rows = await handle.db
      .selectFrom("insights")
      .select(["id", "assignee_member_id", "assignee_name", "due_by"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "group", assignee_member_id: null, assignee_name: null, due_by: null },
      {
        id: "named",
        assignee_member_id: "m-dana",
        assignee_name: "dana",
        due_by: "2026-11-06T00:00:00.000Z",
      },
      { id: "stranger", assignee_member_id: null, assignee_name: "Eve", due_by: "2026-11-06T15:00:00.000Z" },
    ]);
  });
});

describe.each(await dialects())("migration 006_topic_kinds on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("keeps stored topics as key phrases, since nothing recorded which were segments", async () => {
    const before: Record<string, Migration> = {
      "001_initial": initial,
      "002_insight_edits": insightEdits,
      "003_webhooks_and_rotation": webhooksAndRotation,
      "004_job_fencing": jobFencing,
      "005_insight_members": insightMembers,
    };
    const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = "2026-11-02T15:00:00.000Z";
    await db
      .insertInto("apps")
      .values({
        id: "app",
        secret_hash: "x",
        name: "a",
        frame_ancestors: "[]",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("conversations")
      .values({
        id: "c",
        app_id: "app",
        name: "c",
        start_time: now,
        metadata: "{}",
        created_at: now,
        updated_at: now,
      })
      .execute();
    const topic = (id: string, text: string) => ({
      id,
      conversation_id: "c",
      position: 0,
      text,
      score: 0.5,
      message_ids: "[]",
    });
    await db
      .insertInto("topics")
      .values([topic("old-1", "remote control"), topic("old-2", "batteries")])
      .execute();

    expect(await handle.migrate()).toContain("006_topic_kinds");

    await handle.db
      .insertInto("topics")
      .values({ ...topic("new", "scroll wheel"), kind: "chapter" })
      .execute();
    const rows = await handle.db.selectFrom("topics").select(["id", "kind"]).orderBy("id").execute();
    expect(rows).toEqual([
      { id: "new", kind: "chapter" },
      { id: "old-1", kind: "phrase" },
      { id: "old-2", kind: "phrase" },
    ]);
  });
});

describe.each(await dialects())("migration 007_analysis_engines on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("records the analyses stored before it as local, and none for a conversation not analysed yet", async () => {
    const before: Record<string, Migration> = {
      "001_initial": initial,
      "002_insight_edits": insightEdits,
      "003_webhooks_and_rotation": webhooksAndRotation,
      "004_job_fencing": jobFencing,
      "005_insight_members": insightMembers,
    };
    const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = "2026-11-02T15:00:00.000Z";
    await db
      .insertInto("apps")
      .values({
        id: "app",
        secret_hash: "x",
        name: "a",
        frame_ancestors: "[]",
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [id, status] of [
      ["analysed", "completed"],
      ["waiting", "scheduled"],
    ]) {
      await db
        .insertInto("conversations")
        .values({
          id,
          app_id: "app",
          name: id,
          start_time: now,
          metadata: "{}",
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto("jobs")
        .values({
          id: `job-${id}`,
          app_id: "app",
          conversation_id: id,
          sequence: 1,
          status,
          attempts: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }

    expect(await handle.migrate()).toContain("007_analysis_engines");

    const rows = await handle.db
      .selectFrom("conversations")
      .select(["id", "summary_engine", "chapters_engine", "action_items_engine"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "analysed", summary_engine: "local", chapters_engine: "local", action_items_engine: "local" },
      { id: "waiting", summary_engine: null, chapters_engine: null, action_items_engine: null },
    ]);
  });
});

describe.each(await dialects())("migration 014_unique_custom_domain on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("takes a domain two apps share from both, keeps the others, and refuses a second holder from then on", async () => {
    const before = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < "014_unique_custom_domain"),
    );
    const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const now = "2026-11-02T15:00:00.000Z";
    const app = (id: string, customDomain: string | null) => ({
      id,
      secret_hash: "x",
      secret_generation: 0,
      webhook_secret: "whsec_x",
      name: id,
      custom_domain: customDomain,
      frame_ancestors: "[]",
      brand: "{}",
      created_at: now,
      updated_at: now,
    });
    await handle.db
      .insertInto("apps")
      .values([
        app("first", "shared.example.com"),
        app("second", "shared.example.com"),
        app("alone", "alone.example.com"),
        app("none", null),
        app("none-either", null),
      ])
      .execute();

    expect(await handle.migrate()).toContain("014_unique_custom_domain");

    const rows = await handle.db.selectFrom("apps").select(["id", "custom_domain"]).orderBy("id").execute();
    expect(rows).toEqual([
      { id: "alone", custom_domain: "alone.example.com" },
      { id: "first", custom_domain: null },
      { id: "none", custom_domain: null },
      { id: "none-either", custom_domain: null },
      { id: "second", custom_domain: null },
    ]);
    await handle.db
      .updateTable("apps")
      .set({ custom_domain: "shared.example.com" })
      .where("id", "=", "first")
      .execute();
    await expect(
      handle.db
        .updateTable("apps")
        .set({ custom_domain: "shared.example.com" })
        .where("id", "=", "second")
        .execute(),
    ).rejects.toThrow();
  });
});

describe.each(await dialects())("migration 019_decisions_engine on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = openDatabase(database.target);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("records the decisions of analyses stored before it as local, and none for a conversation not analysed yet", async () => {
    const before = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < "019_decisions_engine"),
    );
    const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = "2026-11-02T15:00:00.000Z";
    await db
      .insertInto("apps")
      .values({
        id: "app",
        secret_hash: "x",
        name: "a",
        frame_ancestors: "[]",
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [id, summaryEngine] of [
      ["analysed", "llm"],
      ["waiting", null],
    ]) {
      await db
        .insertInto("conversations")
        .values({
          id,
          app_id: "app",
          name: id,
          start_time: now,
          metadata: "{}",
          created_at: now,
          updated_at: now,
          summary_engine: summaryEngine,
        })
        .execute();
    }

    expect(await handle.migrate()).toContain("019_decisions_engine");

    const rows = await handle.db
      .selectFrom("conversations")
      .select(["id", "summary_engine", "decisions_engine"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "analysed", summary_engine: "llm", decisions_engine: "local" },
      { id: "waiting", summary_engine: null, decisions_engine: null },
    ]);
  });
});
