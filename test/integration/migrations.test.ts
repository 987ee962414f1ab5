import { Migrator, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { appRow } from "../helpers/stored-rows.ts";

const DIALECTS = await dialects();
const NOW = "2026-11-02T15:00:00.000Z";

/** The database as an earlier release's schema had it: any table, any column. */
type OldRows = Kysely<Record<string, Record<string, unknown>>>;

interface MigrationTest {
  /** The database, for rows as the earlier release wrote them. */
  db: OldRows;
  handle: DatabaseHandle;
  /** Runs the pending migrations, which must include the one under test. */
  migrate: () => Promise<void>;
}

/**
 * Tests migration `name` on every dialect, in a fresh database that the migrations up to `from` made, as
 * the release that ended with `from` left it: `test` writes that release's rows, migrates and checks them.
 */
function testMigration(
  name: string,
  from: string,
  title: string,
  test: (migration: MigrationTest) => Promise<void>,
): void {
  describe.each(DIALECTS)(`migration ${name} on %s`, (dialect) => {
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

    it(title, async () => {
      const before = Object.fromEntries(Object.entries(migrations).filter(([earlier]) => earlier <= from));
      const old = new Migrator({ db: handle.db, provider: { getMigrations: () => Promise.resolve(before) } });
      expect((await old.migrateToLatest()).error).toBeUndefined();
      await test({
        db: handle.db as unknown as OldRows,
        handle,
        migrate: async () => {
          expect(await handle.migrate()).toContain(name);
        },
      });
    });
  });
}

/** The app every test's rows belong to, with the columns 001_initial gave apps. */
async function insertApp(db: OldRows): Promise<void> {
  await db
    .insertInto("apps")
    .values({
      id: "app",
      secret_hash: "x",
      name: "a",
      frame_ancestors: "[]",
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
}

/** A conversation of that app, named as its id; `columns` adds the later releases' columns. */
async function insertConversation(
  db: OldRows,
  id: string,
  columns: Record<string, unknown> = {},
): Promise<void> {
  await db
    .insertInto("conversations")
    .values({
      id,
      app_id: "app",
      name: id,
      start_time: NOW,
      metadata: "{}",
      created_at: NOW,
      updated_at: NOW,
      ...columns,
    })
    .execute();
}

testMigration(
  "005_insight_members",
  "002_insight_edits",
  "links stored insights to the member their assignee names and makes bare due dates date-times",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    await insertConversation(db, "c");
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

    await migrate();

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
  },
);

testMigration(
  "006_topic_kinds",
  "005_insight_members",
  "keeps stored topics as key phrases, since nothing recorded which were segments",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    await insertConversation(db, "c");
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

    await migrate();

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
  },
);

testMigration(
  "007_analysis_engines",
  "005_insight_members",
  "records the analyses stored before it as local, and none for a conversation not analysed yet",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    for (const [id, status] of [
      ["analysed", "completed"],
      ["waiting", "scheduled"],
    ] as const) {
      await insertConversation(db, id);
      await db
        .insertInto("jobs")
        .values({
          id: `job-${id}`,
          app_id: "app",
          conversation_id: id,
          sequence: 1,
          status,
          attempts: 1,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    }

    await migrate();

    const rows = await handle.db
      .selectFrom("conversations")
      .select(["id", "summary_engine", "chapters_engine", "action_items_engine"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "analysed", summary_engine: "local", chapters_engine: "local", action_items_engine: "local" },
      { id: "waiting", summary_engine: null, chapters_engine: null, action_items_engine: null },
    ]);
  },
);

testMigration(
  "014_unique_custom_domain",
  "013_console_sessions_and_brand",
  "takes a domain two apps share from both, keeps the others, and refuses a second holder from then on",
  async ({ handle, migrate }) => {
    const app = (id: string, customDomain: string | null) => appRow({ id, at: NOW, customDomain });
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

    await migrate();

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
  },
);

testMigration(
  "019_decisions_engine",
  "018_live_streams",
  "records the decisions of analyses stored before it as local, and none for a conversation not analysed yet",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    for (const [id, summaryEngine] of [
      ["analysed", "llm"],
      ["waiting", null],
    ] as const)
      await insertConversation(db, id, { summary_engine: summaryEngine });

    await migrate();

    const rows = await handle.db
      .selectFrom("conversations")
      .select(["id", "summary_engine", "decisions_engine"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "analysed", summary_engine: "llm", decisions_engine: "local" },
      { id: "waiting", summary_engine: null, decisions_engine: null },
    ]);
  },
);

testMigration(
  "020_job_stages",
  "019_decisions_engine",
  "leaves the jobs written before it with no stage (their runner fetches a URL itself) and no retries",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    await insertConversation(db, "waiting");
    await db
      .insertInto("jobs")
      .values({
        id: "job-waiting",
        app_id: "app",
        conversation_id: "waiting",
        sequence: 0,
        status: "scheduled",
        attempts: 0,
        kind: "media",
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();

    await migrate();

    const rows = await handle.db.selectFrom("jobs").select(["id", "stage", "retries"]).execute();
    expect(rows).toEqual([{ id: "job-waiting", stage: null, retries: 0 }]);
  },
);

testMigration(
  "021_voice_profiles",
  "020_job_stages",
  "leaves every app with voice profiles off",
  async ({ db, handle, migrate }) => {
    await insertApp(db);

    await migrate();

    const rows = await handle.db.selectFrom("apps").select(["id", "voice_profiles"]).execute();
    expect(rows).toEqual([{ id: "app", voice_profiles: 0 }]);
  },
);

testMigration(
  "022_member_voices",
  "021_voice_profiles",
  "leaves every existing member without a matched or suggested voice",
  async ({ db, handle, migrate }) => {
    await insertApp(db);
    await insertConversation(db, "c");
    await db
      .insertInto("members")
      .values({
        id: "m",
        conversation_id: "c",
        name: "Speaker 1",
        position: 0,
        identity_key: "name:Speaker 1",
      })
      .execute();

    await migrate();

    const rows = await handle.db
      .selectFrom("members")
      .select([
        "id",
        "voice_id",
        "voice_score",
        "suggested_voice_id",
        "suggested_voice_name",
        "suggested_voice_score",
      ])
      .execute();
    expect(rows).toEqual([
      {
        id: "m",
        voice_id: null,
        voice_score: null,
        suggested_voice_id: null,
        suggested_voice_name: null,
        suggested_voice_score: null,
      },
    ]);
  },
);
