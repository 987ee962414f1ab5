import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startMain, startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { timedLines } from "../helpers/factories.ts";
import { shownTo, startModelServer, type ModelServer } from "../helpers/model-server.ts";
import type { Child } from "../helpers/processes.ts";
import { untilValue } from "../helpers/wait.ts";

const API_KEY = "sk-never-in-the-logs-0123456789";

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

// The log is the server's own output, so this runs `src/main.ts` as a process (one dialect is enough:
// what is logged does not depend on the database).
describe("the language model's engines in the server's log", () => {
  let model: ModelServer;
  let testDatabase: TestDatabase;
  let helper: TestServer;
  let server: Child | undefined;

  beforeAll(async () => {
    model = await startModelServer();
    testDatabase = await createTestDatabase("sqlite");
    helper = await startTestServer("sqlite", { runJobs: false, testDatabase });
  });
  afterAll(async () => {
    server?.process.kill("SIGKILL");
    await helper.close();
    await testDatabase.drop();
    await model.close();
  });

  it("logs the engine of each part at info, and a warning with the reason for each part that fell back, never the key", async () => {
    const { token } = await helper.newApp();
    model.script = (request) => {
      const { chapters } = shownTo(request);
      return {
        content: {
          summary: "not a list",
          chapters: chapters.map((chapter) => ({
            chapter: chapter.id,
            title: "Launch planning",
            messageIds: [chapter.firstLine],
          })),
          actionItems: [],
        },
      };
    };
    server = startMain(testDatabase, 0, [], {
      RECAP_LLM_URL: model.url,
      RECAP_LLM_MODEL: "test-model",
      RECAP_LLM_API_KEY: API_KEY,
    });
    const { output } = server;
    const url = await untilValue(
      () => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(output())?.[1],
      60_000,
    );
    if (url === undefined) throw new Error(`the server did not start:\n${output()}`);

    const submitted = await apiClient(url, token).post<Body.Accepted>("/v1/process/text", {
      messages: timedLines([
        ["Ann", "Let's plan the launch of the billing page for next month."],
        ["Bob", "Bob will send the pricing table to Ann by Friday."],
      ]),
    });
    const { jobId, conversationId } = submitted.body;
    const logged = () =>
      output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as LogLine)
        .filter((line) => line.jobId === jobId);
    const engines = await untilValue(() => logged().find((line) => line.msg === "analysis engines"), 60_000);

    expect(engines).toMatchObject({
      level: 30,
      conversationId,
      engines: { summary: "local" },
    });
    expect(logged().filter((line) => line.part === "summary")).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "language model failed; this part stays local",
        reason: 'request 1 of 1: its "summary" does not match the schema',
      }),
    ]);
    expect(output()).not.toContain(API_KEY);
  });
});
