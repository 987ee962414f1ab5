import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnalyzer } from "../../src/analysis/pool.ts";
import { openDatabase } from "../../src/db/database.ts";
import { createTransaction } from "../../src/db/transaction.ts";
import * as initial from "../../src/db/migrations/001_initial.ts";
import * as insightEdits from "../../src/db/migrations/002_insight_edits.ts";
import { ConversationsRepository } from "../../src/modules/conversations/conversations.repository.ts";
import { createJobProcessor } from "../../src/modules/jobs/job-processor.ts";
import { ClaimTakenOver, JobsRepository } from "../../src/modules/jobs/jobs.repository.ts";
import { repositoriesOf } from "../../src/services.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { bodyOf } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects } from "../helpers/databases.ts";

const analyzer = createAnalyzer();
afterAll(() => analyzer.close());

describe.each(await dialects())("fencing a job's writes on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { runJobs: false });
  });
  afterAll(() => server.close());

  it("refuses every write of a claim another process took over, and accepts the new claim's", async () => {
    const { token } = await server.newApp();
    const submitted = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: {
        messages: [
          { payload: { content: "Dana, please send the report by Friday." }, from: { name: "Ann" } },
          { payload: { content: "Sure, I will send it tomorrow." }, from: { name: "Dana" } },
        ],
      },
    });
    expect(submitted.status).toBe(201);
    const { conversationId, jobId } = await bodyOf<Body.Accepted>(submitted);

    const db = server.database.db;
    const jobs = new JobsRepository(db);
    const conversations = new ConversationsRepository(db);
    const processJob = createJobProcessor({ transaction: createTransaction(db, repositoriesOf), analyzer });
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

    // The first process claims the job and stalls; its lease runs out and a second process claims it.
    const stale = await jobs.claimNext("text", at(0), at(1));
    expect(stale).toMatchObject({ id: jobId, attempts: 1 });
    const current = await jobs.claimNext("text", at(2), at(60));
    expect(current).toMatchObject({ id: jobId, attempts: 2 });
    if (!stale || !current) throw new Error("no claim");

    // The stalled process resumes: it writes nothing, cannot renew the lease nor report the job.
    await expect(processJob(stale)).rejects.toBeInstanceOf(ClaimTakenOver);
    expect(await conversations.listMembers(conversationId)).toEqual([]);
    await jobs.extendLease(stale, at(3600));
    expect(await jobs.finish(stale, "failed", "stalled", at(0))).toBe(false);
    expect(await jobs.find(stale.app_id, jobId)).toMatchObject({
      status: "in_progress",
      attempts: 2,
      lease_expires_at: current.lease_expires_at,
    });

    // The process holding the claim does the job once.
    await processJob(current);
    expect(await jobs.finish(current, "completed", null, at(0))).toBe(true);
    const members = await conversations.listMembers(conversationId);
    expect(members.map((m) => [m.name, m.identity_key])).toEqual([
      ["Ann", "name:Ann"],
      ["Dana", "name:Dana"],
    ]);
    const summary = await conversations.listSummaries(conversationId);
    expect(summary.length).toBeGreaterThan(0);

    // Once the job is done, the stalled claim still writes nothing.
    await expect(processJob(stale)).rejects.toBeInstanceOf(ClaimTakenOver);
    expect(await conversations.listMembers(conversationId)).toEqual(members);
    expect(await conversations.listSummaries(conversationId)).toEqual(summary);
  });

  it("has the database refuse a second member for an identity the conversation already has", async () => {
    const { token } = await server.newApp();
    const submitted = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: { messages: [{ payload: { content: "Hello there." }, from: { name: "Ann" } }] },
    });
    const { conversationId } = await bodyOf<Body.Accepted>(submitted);
    const conversations = new ConversationsRepository(server.database.db);
    const member = (id: string, position: number) => ({
      id,
      conversation_id: conversationId,
      name: "Ann",
      email: null,
      user_id: null,
      position,
      identity_key: "name:Ann",
    });
    await conversations.insertMember(member("m-1", 0), ["name:Ann"]);
    await expect(conversations.insertMember(member("m-2", 1), ["name:Ann"])).rejects.toThrow();
    expect((await conversations.listMembers(conversationId)).map((m) => m.id)).toEqual(["m-1"]);
  });

  it("migrates a database that already holds duplicated speakers: each duplicate merges into its original", async () => {
    const testDatabase = await createTestDatabase(dialect);
    const handle = openDatabase(testDatabase.target);
    try {
      const before = new Migrator({
        db: handle.db,
        provider: {
          getMigrations: () => Promise.resolve({ "001_initial": initial, "002_insight_edits": insightEdits }),
        },
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      const at = "2026-11-02T15:00:00.000Z";
      await sql`INSERT INTO apps VALUES ('a', 'h', 'App', NULL, '[]', ${at}, ${at})`.execute(handle.db);
      await sql`INSERT INTO conversations VALUES ('c', 'a', 'Call', ${at}, NULL, '{}', NULL, ${at}, ${at})`.execute(
        handle.db,
      );
      // m1 holds Ann's key; m2 is the copy a second process made of her; m3 (Bob) lost his key the same way.
      await sql`INSERT INTO members VALUES ('m1', 'c', 'Ann', NULL, NULL, 0), ('m2', 'c', 'Ann', NULL, NULL, 1),
        ('m3', 'c', 'Bob', NULL, NULL, 2)`.execute(handle.db);
      await sql`INSERT INTO member_identities VALUES ('c', 'name:Ann', 'm1')`.execute(handle.db);
      await sql`INSERT INTO messages VALUES ('x1', 'c', 'j', 0, 'Hi', 'Ann', NULL, NULL, 'm2', NULL, NULL, 0),
        ('x2', 'c', 'j', 1, 'Yo', 'Bob', NULL, NULL, 'm3', NULL, NULL, 0)`.execute(handle.db);
      await sql`INSERT INTO insights VALUES ('i1', 'c', 0, 'question', 'Hi?', 0.9, '["x1"]', 'm2', NULL, NULL, 0, 0)`.execute(
        handle.db,
      );

      await handle.migrate();
      const conversations = new ConversationsRepository(handle.db);
      expect((await conversations.listMembers("c")).map((m) => [m.id, m.name, m.identity_key])).toEqual([
        ["m1", "Ann", "name:Ann"],
        ["m3", "Bob", "name:Bob"],
      ]);
      expect((await conversations.listMessages("c")).map((m) => m.member_id)).toEqual(["m1", "m3"]);
      expect((await conversations.listInsights("c")).map((i) => i.member_id)).toEqual(["m1"]);
      expect(Object.fromEntries(await conversations.identityMap("c"))).toEqual({
        "name:Ann": "m1",
        "name:Bob": "m3",
      });
    } finally {
      await handle.close();
      await testDatabase.drop();
    }
  });
});
