import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobsRepository } from "../../src/modules/jobs/jobs.repository.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const message = (content: string, name: string) => ({ payload: { content }, from: { name } });

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
    const submit = async (path: string, method: string, body: unknown) => {
      const response = await first.api(token, path, { method, body });
      expect(response.status).toBe(201);
      return (await response.json()) as { conversationId: string; jobId: string };
    };
    const created = await submit("/v1/process/text", "POST", { messages: [message("One", "Ann")] });
    const second = await submit(`/v1/process/text/${created.conversationId}`, "PUT", {
      messages: [message("Two", "Bob")],
    });
    const third = await submit(`/v1/process/text/${created.conversationId}`, "PUT", {
      messages: [message("Three", "Cy")],
    });

    const jobs = new JobsRepository(first.database.db);
    const now = new Date();
    // On PostgreSQL (shared by many processes) a dead process's job waits for its lease to run out.
    const lease = dialect === "postgres" ? 1_000 : 3_600_000;
    const claimed = await jobs.claimNext(now.toISOString(), new Date(now.getTime() + lease).toISOString());
    expect(claimed?.id).toBe(created.jobId);
    // While the first is in progress, the later submissions to the same conversation must wait.
    expect(await jobs.claimNext(now.toISOString(), now.toISOString())).toBeUndefined();
    const job = await first.api(token, `/v1/job/${created.jobId}`);
    expect(await job.json()).toEqual({ id: created.jobId, status: "in_progress" });
    await first.close();

    // Second process on the same database: the interrupted job and the waiting ones all complete, in order.
    const restarted = await startTestServer(dialect, { testDatabase });
    try {
      for (const jobId of [created.jobId, second.jobId, third.jobId]) {
        expect(await waitForJob(restarted, token, jobId)).toBe("completed");
      }
      const members = (await (
        await restarted.api(token, `/v1/conversations/${created.conversationId}/members`)
      ).json()) as {
        members: { name: string }[];
      };
      expect(members.members.map((m) => m.name)).toEqual(["Ann", "Bob", "Cy"]);
    } finally {
      await restarted.close();
    }
  });
});
