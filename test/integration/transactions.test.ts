import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { createTransaction } from "../../src/db/transaction.ts";
import { DomainError } from "../../src/errors.ts";
import { repositoriesOf } from "../../src/services.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { bodyOf } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { until } from "../helpers/wait.ts";

/** True while a query on the server's PostgreSQL database waits for another transaction's lock. */
async function waitingForLock(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`SELECT count(*)::int AS waiting FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
  return (rows[0]?.waiting ?? 0) > 0;
}

describe.each(await dialects())("transactions that collide with other writers on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { runJobs: false });
  });
  afterAll(() => server.close());

  async function conversation(token: string): Promise<string> {
    const response = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: { messages: [{ payload: { content: "Hello." }, from: { name: "Ann" } }] },
    });
    return (await bodyOf<Body.Accepted>(response)).conversationId;
  }

  it("runs a transaction again after a conflict, and answers `conflict` once the attempts are spent", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const db = server.database.db;
    const transaction = createTransaction(db, repositoriesOf);
    const row = await db
      .selectFrom("conversations")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

    let runs = 0;
    const duplicate = transaction(async ({ conversations }) => {
      runs++;
      await conversations.insert(row);
    });
    const error: unknown = await duplicate.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: "conflict" });
    expect((error as DomainError).message).toMatch(/try again/);
    expect(runs).toBe(4);

    runs = 0;
    const recovered = await transaction(async ({ conversations }) => {
      runs++;
      if (runs === 1) await conversations.insert(row);
      return "stored";
    });
    expect([recovered, runs]).toEqual(["stored", 2]);
  });

  // SQLite has one writer at a time, so only PostgreSQL can deadlock.
  if (dialect === "postgres")
    it("survives a deadlock between two writers: the one the database aborts runs again", async () => {
      const { token } = await server.newApp();
      const [a, b] = [await conversation(token), await conversation(token)];
      const transaction = createTransaction(server.database.db, repositoriesOf);
      let firstLocks = 0;
      let release: () => void = () => undefined;
      const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
      const lockBoth = (first: string, second: string) =>
        transaction(async ({ conversations }) => {
          await conversations.lockForWrite(first);
          if (++firstLocks === 2) release();
          await bothHoldOne;
          await conversations.lockForWrite(second);
          return "done";
        });
      expect(await Promise.all([lockBoth(a, b), lockBoth(b, a)])).toEqual(["done", "done"]);
      // At least one runs again; both may, when each one's deadlock check sees the cycle before the other's abort
      // has freed its row (seen once under CI's load).
      expect(firstLocks).toBeGreaterThanOrEqual(3);
    });

  if (dialect === "postgres")
    it("deletes a conversation while its job writes to it: the delete waits for the job, neither fails", async () => {
      const { token } = await server.newApp();
      const id = await conversation(token);
      const db = server.database.db;
      let deleted: Promise<Response> | undefined;
      // A job's transaction holds its claim (its row in jobs) first, then locks its conversation to write.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("jobs")
          .set((eb) => ({ attempts: eb.ref("attempts") }))
          .where("conversation_id", "=", id)
          .execute();
        deleted = server.api(token, `/v1/conversations/${id}`, { method: "DELETE" });
        await until(() => waitingForLock(db), "the delete to wait for the job's row");
        expect(await repositoriesOf(trx).conversations.lockForWrite(id)).toBeDefined();
      });
      expect((await deleted)?.status).toBe(200);
      expect((await server.api(token, `/v1/conversations/${id}`)).status).toBe(404);
    });

  if (dialect === "postgres")
    it("deletes a voice while it is enrolled again: the delete that deadlocks runs again, neither fails", async () => {
      const { appId, token } = await server.newApp();
      const conversationId = await conversation(token);
      const db = server.database.db;
      const now = new Date().toISOString();
      const voiceId = randomUUID();
      const { voices } = repositoriesOf(db);
      await voices.insertProfile({
        ...{
          id: voiceId,
          app_id: appId,
          name: "Ann",
          email: null,
          email_key: null,
          model: "m",
          dimension: 2,
        },
        ...{ created_at: now, updated_at: now },
      });
      await voices.insertReference({
        ...{ id: randomUUID(), profile_id: voiceId, conversation_id: conversationId, member_id: "ann" },
        ...{ vector: Buffer.alloc(8), speech_seconds: 5, created_at: now },
      });
      let deleted: Promise<Response> | undefined;
      // An enrolment from the same member replaces its reference, then touches the profile (VoicesService.learn).
      await db.transaction().execute(async (trx) => {
        const enrolling = repositoriesOf(trx).voices;
        await enrolling.deleteReferenceFrom(voiceId, conversationId, "ann");
        deleted = server.api(token, `/v1/voices/${voiceId}`, { method: "DELETE" });
        await until(() => waitingForLock(db), "the delete to wait for the reference");
        await enrolling.update(voiceId, { updated_at: now });
      });
      expect((await deleted)?.status).toBe(204);
      expect((await server.api(token, `/v1/voices/${voiceId}`)).status).toBe(404);
    });
});
