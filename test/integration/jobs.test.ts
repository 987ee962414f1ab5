import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobsRepository } from "../../src/modules/jobs/jobs.repository.ts";
import { systemClock } from "../../src/clock.ts";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, TestClock, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { message } from "../helpers/factories.ts";

const HOUR = 3_600_000;

describe.each(await dialects())("the job pipeline on %s", (dialect) => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
  });
  afterAll(() => testDatabase.drop());

  it("runs submissions to one conversation in order, and picks up a job interrupted by a crash at the next start", async () => {
    // First process: accepts three submissions, claims the first job and "dies" without finishing it.
    const first: TestServer = await startTestServer(dialect, { runJobs: false, testDatabase });
    const { token } = await first.newApp();
    const api = apiClient(first.url, token);
    const submit = async (path: string, method: "post" | "put", body: unknown) => {
      const response = await api[method]<Body.Accepted>(path, body);
      expect(response.status).toBe(201);
      return response.body;
    };
    const created = await submit("/v1/process/text", "post", { messages: [message("One", "Ann")] });
    const second = await submit(`/v1/process/text/${created.conversationId}`, "put", {
      messages: [message("Two", "Bob")],
    });
    const third = await submit(`/v1/process/text/${created.conversationId}`, "put", {
      messages: [message("Three", "Cy")],
    });

    const jobs = new JobsRepository(first.database.db);
    const now = new Date();
    const claimed = await jobs.claimNext(
      "text",
      now.toISOString(),
      new Date(now.getTime() + HOUR).toISOString(),
    );
    expect(claimed?.id).toBe(created.jobId);
    // While the first is in progress, the later submissions to the same conversation must wait.
    expect(await jobs.claimNext("text", now.toISOString(), now.toISOString())).toBeUndefined();
    expect((await api.get<Body.Job>(`/v1/job/${created.jobId}`)).body).toEqual({
      id: created.jobId,
      status: "in_progress",
    });
    await first.close();

    // Second process on the same database: the interrupted job and the waiting ones all complete, in order.
    // SQLite (one process owns the file) takes the job back at start; PostgreSQL (shared by many processes)
    // once its lease has run out, so there the second process starts two hours later by its clock.
    const clock = dialect === "postgres" ? new TestClock(new Date(now.getTime() + 2 * HOUR)) : systemClock;
    const restarted = await startTestServer(dialect, { testDatabase, clock });
    try {
      for (const jobId of [created.jobId, second.jobId, third.jobId]) {
        expect(await waitForJob(restarted, token, jobId)).toBe("completed");
      }
      const members = (
        await apiClient(restarted.url, token).get<Body.MemberList>(
          `/v1/conversations/${created.conversationId}/members`,
        )
      ).body;
      expect(members.members.map((m) => m.name)).toEqual(["Ann", "Bob", "Cy"]);
    } finally {
      await restarted.close();
    }
  });
});
