import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMain, startTestServer, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import type { Child } from "../helpers/processes.ts";
import { loadMeeting, spokenTurns, toProcessTextBody } from "../helpers/qmsum.ts";
import { untilValue as waitFor } from "../helpers/wait.ts";

/** Short enough to wait out, long enough that the process that took over keeps its lease on a loaded machine. */
const LEASE_SECONDS = 5;

interface ServerProcess {
  child: Child["process"];
  url: string;
  output: () => string;
}

/** Starts `src/main.ts` as its own process on the database, on a port of its choosing. */
async function startProcess(database: TestDatabase): Promise<ServerProcess> {
  const { process: child, output } = startMain(database, 0, [], {
    RECAP_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
  });
  const url = await waitFor(() => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(output())?.[1], 60_000);
  if (url === undefined) throw new Error(`the server did not start:\n${output()}`);
  return { child, url, output };
}

const duplicates = (values: string[]) => values.filter((value, i) => values.indexOf(value) !== i);

describe.runIf((await dialects()).includes("postgres"))(
  "a process that stalls past its lease, on PostgreSQL with two processes",
  () => {
    let testDatabase: TestDatabase;
    let helper: TestServer;
    const processes: ServerProcess[] = [];

    beforeAll(async () => {
      testDatabase = await createTestDatabase("postgres");
      helper = await startTestServer("postgres", { runJobs: false, testDatabase });
    });
    afterAll(async () => {
      for (const { child } of processes) {
        child.kill("SIGCONT");
        child.kill("SIGKILL");
      }
      await helper.close();
      await testDatabase.drop();
    });

    it("writes nothing once another process has taken its job: no speaker, insight or summary twice", async () => {
      const { token } = await helper.newApp();
      const meeting = loadMeeting("val", "Bed015.json");
      const db = helper.database.db;
      const jobRow = (id: string) =>
        db
          .selectFrom("jobs")
          .select(["status", "attempts", "lease_expires_at"])
          .where("id", "=", id)
          .executeTakeFirst();

      // The first process takes the submission and is stopped (SIGSTOP) right after claiming its job.
      const first = await startProcess(testDatabase);
      processes.push(first);
      const submitted = await apiClient(first.url, token).post<Body.Accepted>(
        "/v1/process/text",
        toProcessTextBody(meeting),
      );
      expect(submitted.status).toBe(201);
      const { conversationId, jobId } = submitted.body;
      const claimed = await waitFor(async () => {
        const job = await jobRow(jobId);
        return job?.status === "scheduled" ? undefined : job;
      }, 30_000);
      first.child.kill("SIGSTOP");
      expect(claimed).toMatchObject({ status: "in_progress", attempts: 1 });

      // A second process takes the job over once the lease has run out; then the first one resumes.
      const second = await startProcess(testDatabase);
      processes.push(second);
      const leaseEnd = Date.parse((await jobRow(jobId))?.lease_expires_at ?? "");
      await waitFor(() => (Date.now() > leaseEnd + 1000 ? true : undefined), 60_000);
      first.child.kill("SIGCONT");

      const done = await waitFor(async () => {
        const job = await jobRow(jobId);
        return job?.status === "completed" ? job : undefined;
      }, 120_000);
      expect(done).toMatchObject({ status: "completed", attempts: 2 });
      // The first process notices at its next write, and says so.
      await waitFor(() => (first.output().includes("job claim taken over") ? true : undefined), 60_000);

      const members = await db
        .selectFrom("members")
        .select(["id", "name"])
        .where("conversation_id", "=", conversationId)
        .execute();
      expect(duplicates(members.map((m) => m.name))).toEqual([]);
      expect(members.map((m) => m.name).sort()).toEqual(
        [...new Set(spokenTurns(meeting).map((turn) => turn.speaker.trim()))].sort(),
      );
      const speakers = await db
        .selectFrom("messages")
        .select("member_id")
        .distinct()
        .where("conversation_id", "=", conversationId)
        .execute();
      expect(speakers.map((s) => s.member_id).sort()).toEqual(members.map((m) => m.id).sort());
      for (const table of ["summaries", "topics", "insights"] as const) {
        const rows = await db
          .selectFrom(table)
          .selectAll()
          .where("conversation_id", "=", conversationId)
          .execute();
        expect(rows.length).toBeGreaterThan(0);
        expect(duplicates(rows.map((row) => String(row.position)))).toEqual([]);
        expect(
          duplicates(rows.map(({ id: _id, position: _position, ...rest }) => JSON.stringify(rest))),
        ).toEqual([]);
      }
      expect(first.output()).toContain("job claim taken over");
    }, 300_000);
  },
);
