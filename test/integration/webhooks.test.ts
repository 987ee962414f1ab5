// Over 300 lines: every webhook rule (signing, refused addresses in all their spellings, redirects, the
// outbox across restarts, one delivery across two servers) needs the same receiver and servers.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookEventsRepository } from "../../src/modules/jobs/webhook-events.repository.ts";
import { bodyOf, messageOf, readBody } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { until } from "../helpers/wait.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const ALLOW_LOCAL = { RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" };

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that records what it is sent and answers as `respond` says. */
class Receiver {
  readonly received: Delivery[] = [];
  respond: (response: ServerResponse) => void = (response) => response.end("ok");
  private readonly server: Server = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      this.received.push({ headers: request.headers as Record<string, string>, body });
      this.respond(response);
    });
  });
  port = 0;

  async listen(host = "127.0.0.1", port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    this.port = address.port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  statuses(jobId: string): string[] {
    return this.received
      .map((delivery) => JSON.parse(delivery.body) as { jobId: string; status: string })
      .filter((event) => event.jobId === jobId)
      .map((event) => event.status);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const message = { payload: { content: "Dana will send the budget by Friday." }, from: { name: "Dana" } };

const databaseUrl = (database: TestDatabase) =>
  database.target.dialect === "sqlite" ? `sqlite:${database.target.path}` : database.target.url;

describe.each(await dialects())("webhooks on %s", (dialect) => {
  describe("one server", () => {
    let testDatabase: TestDatabase;
    let server: TestServer;
    beforeAll(async () => {
      testDatabase = await createTestDatabase(dialect);
      server = await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL });
    });
    afterAll(async () => {
      await server.close();
      await testDatabase.drop();
    });

    /** Waits until the event has had an attempt, and returns the outbox row. */
    const attempted = async (jobId: string) => {
      const row = () =>
        server.database.db
          .selectFrom("webhook_events")
          .selectAll()
          .where("job_id", "=", jobId)
          .executeTakeFirst();
      await until(
        async () => ((await row())?.attempts ?? 0) > 0 && (await row())?.locked_until === null,
        "an attempt",
      );
      return row();
    };

    it("signs every status change with the app's secret shown by the CLI, in order, each with its own webhook-id", async () => {
      const receiver = await new Receiver().listen();
      try {
        const { appId, token } = await server.newApp();
        const shown = await run(join(ROOT, "bin", "recap"), ["apps", "webhook-secret", appId, "--json"], {
          env: { ...process.env, DATABASE_URL: databaseUrl(testDatabase), RECAP_SECRET: "x".repeat(32) },
        });
        const { webhookSecret } = JSON.parse(shown.stdout) as { webhookSecret: string };
        expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

        const { jobId } = await server.ingest(token, { webhookUrl: receiver.url, messages: [message] });
        await until(() => receiver.statuses(jobId).length === 3, "three events");
        expect(receiver.statuses(jobId)).toEqual(["scheduled", "in_progress", "completed"]);
        const verifier = new Webhook(webhookSecret);
        for (const delivery of receiver.received) {
          expect(verifier.verify(delivery.body, delivery.headers)).toEqual(JSON.parse(delivery.body));
        }
        const ids = receiver.received.map((delivery) => delivery.headers["webhook-id"]);
        expect(new Set(ids).size).toBe(3);
        const other = await server.newApp();
        const otherSecret = await server.services.apps.webhookSecret(other.appId);
        const [first] = receiver.received;
        if (!first) throw new Error("no delivery");
        expect(() => new Webhook(otherSecret).verify(first.body, first.headers)).toThrow();
      } finally {
        await receiver.close();
      }
    });

    it("never follows a redirect", async () => {
      const elsewhere = await new Receiver().listen();
      const redirecting = await new Receiver().listen();
      redirecting.respond = (response) => {
        response.writeHead(307, { location: elsewhere.url });
        response.end();
      };
      try {
        const { token } = await server.newApp();
        const response = await server.api(token, "/v1/process/text", {
          method: "POST",
          body: { webhookUrl: redirecting.url, messages: [message] },
        });
        expect(response.status).toBe(201);
        const { jobId } = await bodyOf<Body.Accepted>(response);
        const event = await attempted(jobId);
        expect(event?.last_error).toBe("answered 307");
        expect(redirecting.received.length).toBeGreaterThan(0);
        expect(elsewhere.received).toEqual([]);
      } finally {
        await redirecting.close();
        await elsewhere.close();
      }
    });

    it("does not connect to a host that resolves to an internal address at send time", async () => {
      // A receiver on every local address: only the check at send time keeps these events from it.
      const receiver = await new Receiver().listen("::");
      try {
        const { appId, token } = await server.newApp();
        const { jobId } = await server.ingest(token, { messages: [message] });
        // As if the host had resolved to a public address at submission and DNS changed since.
        const events = new WebhookEventsRepository(server.database.db);
        const now = new Date().toISOString();
        for (const url of [
          `http://localhost:${receiver.port}/hook`,
          `http://[::ffff:127.0.0.1]:${receiver.port}/hook`,
        ]) {
          await events.addJobStatus(
            {
              id: `${jobId}-${url.includes("localhost") ? "name" : "mapped"}`,
              app_id: appId,
              webhook_url: url,
            },
            "completed",
            now,
          );
          server.services.webhooks.notify();
          const event = await attempted(`${jobId}-${url.includes("localhost") ? "name" : "mapped"}`);
          expect(event?.last_error).toMatch(/internal address/);
        }
        expect(receiver.received).toEqual([]);
      } finally {
        await receiver.close();
      }
    });
  });

  describe("refused at submission", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect);
    });
    afterAll(() => server.close());

    it("answers 400 naming webhookUrl for every spelling of an internal address, and for credentials", async () => {
      const { token } = await server.newApp();
      const refused = [
        "http://127.0.0.1/hook",
        "http://localhost:8080/hook",
        "http://LOCALHOST./hook",
        "http://127.1/hook",
        "http://2130706433/hook",
        "http://0x7f000001/hook",
        "http://0177.0.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::ffff:127.0.0.1]/hook",
        "http://[::ffff:7f00:1]/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://[fd00::1]/hook",
        "http://[fe80::1]/hook",
        "http://0.0.0.0/hook",
        "http://[::]/hook",
      ];
      for (const webhookUrl of refused) {
        const response = await server.api(token, "/v1/process/text", {
          method: "POST",
          body: { webhookUrl, messages: [message] },
        });
        expect(response.status, webhookUrl).toBe(400);
        expect(await messageOf(response), webhookUrl).toMatch(
          /^webhookUrl must not point at an internal address/,
        );
      }
      const withCredentials = await server.api(token, "/v1/process/text", {
        method: "POST",
        body: { webhookUrl: "https://user:pw@hooks.example.com/hook", messages: [message] },
      });
      expect(withCredentials.status).toBe(400);
      expect(await messageOf(withCredentials)).toMatch(/^webhookUrl must not contain user credentials/);
      const transcript = await server.api(token, "/v1/process/transcript?webhookUrl=http%3A%2F%2F127.1%2F", {
        method: "POST",
        body: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Dana>Hello.\n",
        headers: { "content-type": "text/vtt" },
      });
      expect(transcript.status).toBe(400);
      const list = await readBody<Body.ConversationList>(server, token, "/v1/conversations");
      expect(list.conversations).toEqual([]);
    });
  });

  describe("two servers on one database", () => {
    let testDatabase: TestDatabase;
    const servers: TestServer[] = [];
    beforeAll(async () => {
      testDatabase = await createTestDatabase(dialect);
      for (let i = 0; i < 2; i++) {
        servers.push(await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL }));
      }
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await testDatabase.drop();
    });

    it("sends each event once, in order per job, whichever server wrote it", async () => {
      const receiver = await new Receiver().listen();
      try {
        const { token } = await servers[0]!.newApp();
        const jobIds: string[] = [];
        for (let i = 0; i < 6; i++) {
          const server = servers[i % 2]!;
          const response = await server.api(token, "/v1/process/text", {
            method: "POST",
            body: { webhookUrl: receiver.url, messages: [message] },
          });
          jobIds.push((await bodyOf<Body.Accepted>(response)).jobId);
        }
        await until(() => receiver.received.length >= 18, "eighteen events");
        for (const jobId of jobIds) {
          expect(receiver.statuses(jobId)).toEqual(["scheduled", "in_progress", "completed"]);
        }
        const ids = receiver.received.map((delivery) => delivery.headers["webhook-id"]);
        expect(new Set(ids).size).toBe(18);
      } finally {
        await receiver.close();
      }
    });
  });

  describe("across a restart", () => {
    it("keeps an event a slow receiver held at shutdown and sends it after the restart, with the same webhook-id", async () => {
      const testDatabase = await createTestDatabase(dialect);
      const receiver = await new Receiver().listen();
      const held: ServerResponse[] = [];
      receiver.respond = (response) => held.push(response);
      try {
        const first = await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL });
        const { appId, token } = await first.newApp();
        const response = await first.api(token, "/v1/process/text", {
          method: "POST",
          body: { webhookUrl: receiver.url, messages: [message] },
        });
        const { jobId } = await bodyOf<Body.Accepted>(response);
        expect(await waitForJob(first, token, jobId)).toBe("completed");
        await until(() => receiver.received.length === 1, "the first delivery");
        const heldId = receiver.received[0]?.headers["webhook-id"];
        await Promise.race([
          first.close(),
          new Promise((_, reject) => setTimeout(() => reject(new Error("shutdown did not end")), 15_000)),
        ]);
        for (const response of held) response.end("too late");

        receiver.respond = (response) => response.end("ok");
        const second = await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL });
        try {
          await until(() => receiver.statuses(jobId).length === 4, "every event after the restart");
          expect(receiver.statuses(jobId)).toEqual(["scheduled", "scheduled", "in_progress", "completed"]);
          expect(receiver.received[1]?.headers["webhook-id"]).toBe(heldId);
          const verifier = new Webhook(await second.services.apps.webhookSecret(appId));
          for (const delivery of receiver.received) verifier.verify(delivery.body, delivery.headers);
          // A delivered event leaves the outbox once its answer is read, just after the receiver has it.
          const outbox = () => second.database.db.selectFrom("webhook_events").select("id").execute();
          await until(async () => (await outbox()).length === 0, "the outbox emptied");
        } finally {
          await second.close();
        }
      } finally {
        await receiver.close();
        await testDatabase.drop();
      }
    }, 60_000);

    it("sends after the restart what a receiver that was down missed", async () => {
      const testDatabase = await createTestDatabase(dialect);
      const receiver = await new Receiver().listen();
      const port = receiver.port;
      await receiver.close();
      try {
        const first = await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL });
        const { token } = await first.newApp();
        const response = await first.api(token, "/v1/process/text", {
          method: "POST",
          body: { webhookUrl: receiver.url, messages: [message] },
        });
        const { jobId } = await bodyOf<Body.Accepted>(response);
        expect(await waitForJob(first, token, jobId)).toBe("completed");
        await first.close();

        const back = await new Receiver().listen("127.0.0.1", port);
        const second = await startTestServer(dialect, { testDatabase, env: ALLOW_LOCAL });
        try {
          await until(() => back.statuses(jobId).length === 3, "every event after the restart");
          expect(back.statuses(jobId)).toEqual(["scheduled", "in_progress", "completed"]);
        } finally {
          await second.close();
          await back.close();
        }
      } finally {
        await testDatabase.drop();
      }
    }, 60_000);

    it("deletes an event that failed for good 30 days after its last attempt, and keeps a newer one", async () => {
      const testDatabase = await createTestDatabase(dialect);
      try {
        const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
        const failed = (id: string, lastAttemptAt: string) => ({
          id,
          app_id: "app",
          job_id: `job-${id}`,
          position: 0,
          url: "https://hooks.example.com/recap",
          payload: "{}",
          state: "failed",
          attempts: 8,
          next_attempt_at: lastAttemptAt,
          locked_until: null,
          last_error: "answered 500",
          created_at: lastAttemptAt,
        });
        const opened = await startTestServer(dialect, { testDatabase, runJobs: false });
        await opened.database.db
          .insertInto("webhook_events")
          .values([failed("msg_old", daysAgo(31)), failed("msg_recent", daysAgo(29))])
          .execute();
        await opened.close();

        const server = await startTestServer(dialect, { testDatabase });
        try {
          const ids = async () =>
            (await server.database.db.selectFrom("webhook_events").select("id").execute()).map(
              (row) => row.id,
            );
          await until(async () => !(await ids()).includes("msg_old"), "the old failed event deleted");
          expect(await ids()).toEqual(["msg_recent"]);
        } finally {
          await server.close();
        }
      } finally {
        await testDatabase.drop();
      }
    }, 60_000);
  });
});
