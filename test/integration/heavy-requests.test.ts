// Requests whose work grows with a conversation (trackers, intents, analytics) are worked out off the event
// loop, so every other request is answered meanwhile; and what one tracker request may cost is bounded, so
// it cannot take the process down (docs/SYMBL-COMPAT.md, Trackers).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startMain, startTestServer, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { untilOutput, type Child } from "../helpers/processes.ts";
import { loadMeeting, meetingFiles, spokenTurns } from "../helpers/qmsum.ts";
import { freePort } from "../helpers/wait.ts";
import { submissionFromText } from "../../src/modules/ingestion/ingestion.service.ts";

/** `count` lines of real meetings (QMSum, one meeting after another), as a process/text body's messages. */
function meetingLines(count: number) {
  const lines: { payload: { content: string }; from: { name: string } }[] = [];
  for (const split of ["train", "val"] as const) {
    for (const file of meetingFiles(split)) {
      for (const turn of spokenTurns(loadMeeting(split, file))) {
        lines.push({ payload: { content: turn.content }, from: { name: turn.speaker } });
        if (lines.length === count) return lines;
      }
    }
  }
  return lines;
}

/** Stores a conversation of `lines` straight through the ingestion service, its job marked done (no analysis). */
async function storeConversation(server: TestServer, appId: string, lines: ReturnType<typeof meetingLines>) {
  const { conversationId, jobId } = await server.services.ingestion.submit(
    appId,
    submissionFromText({ name: "Long meeting", messages: lines }),
  );
  await server.database.db.updateTable("jobs").set({ status: "completed" }).where("id", "=", jobId).execute();
  return conversationId;
}

interface Plain {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** GET with no Accept-Encoding (a compressed answer would be sent later than it is made): status and body. */
function getPlain(url: string, token: string): Promise<Plain> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.each(await dialects())("heavy requests on %s", (dialect) => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let token = "";
  let conversationId = "";
  /** Called as each query the server makes returns, while a test listens. */
  let onQuery: (() => void) | null = null;
  beforeAll(async () => {
    server = await startTestServer(dialect, { runJobs: false, onQuery: () => onQuery?.() });
    const app = await server.newApp();
    token = app.token;
    api = apiClient(server.url, token);
    conversationId = await storeConversation(server, app.appId, meetingLines(20_000));
    // Twenty trackers of 50 phrases that say nothing the meetings say: every line is searched for each.
    const trackers = Array.from({ length: 20 }, (_, t) => ({
      name: `Tracker ${t}`,
      vocabulary: Array.from({ length: 50 }, (_, p) => `zyx${t} word${p}`),
    }));
    expect((await api.post("/v1/manage/trackers", trackers)).status).toBe(201);
  }, 120_000);
  afterAll(() => server.close());

  /**
   * Sends the heavy request and, as each query it makes returns, a GET /healthz; resolves with whether every
   * /healthz was answered before the heavy request was. The last query's /healthz is sent as the heavy
   * work begins: on the event loop, that work would hold it until the heavy answer had gone out.
   */
  async function healthzBefore(path: string): Promise<{ answeredFirst: boolean; status: number }> {
    const events: string[] = [];
    const health: Promise<void>[] = [];
    onQuery = () => {
      health.push(
        fetch(`${server.url}/healthz`).then(async (response) => {
          await response.text();
          events.push(`healthz ${response.status}`);
        }),
      );
    };
    const heavy = await getPlain(server.url + path, token);
    events.push("heavy");
    onQuery = null;
    await Promise.all(health);
    expect(health.length).toBeGreaterThan(0);
    return { answeredFirst: events.indexOf("heavy") === events.length - 1, status: heavy.status };
  }

  it("answers /healthz while trackers are matched against 20,000 lines", async () => {
    const { answeredFirst, status } = await healthzBefore(`/v1/conversations/${conversationId}/trackers`);
    expect(status).toBe(200);
    expect(answeredFirst).toBe(true);
  }, 300_000);

  // Speaker analytics go to the analysis thread too (pool.ts), but those of these lines take it a few
  // milliseconds, less than a /healthz's round trip on a busy machine: a race between the two says nothing
  // there (it went either way in CI), so only the intents, seconds of work, are raced.
  it("answers /healthz while the intents of 20,000 lines are worked out", async () => {
    const { answeredFirst, status } = await healthzBefore(`/v1/conversations/${conversationId}/intents`);
    expect(status).toBe(200);
    expect(answeredFirst).toBe(true);
  }, 120_000);
});

describe("a tracker request that would cost more than its limit, on the server process", () => {
  let database: TestDatabase;
  let child: Child | undefined;
  afterAll(async () => {
    child?.process.kill("SIGKILL");
    await database.drop();
  });

  it("answers 30 trackers of 50 common words on 2.5 MB of lines with a bounded answer, and lives on", async () => {
    database = await createTestDatabase("sqlite");
    const helper = await startTestServer("sqlite", { runJobs: false, testDatabase: database });
    const { appId, token } = await helper.newApp();
    const lines = meetingLines(40_000);
    let bytes = 0;
    const used = lines.filter((line) => (bytes += Buffer.byteLength(line.payload.content)) < 2_500_000);
    const conversationId = await storeConversation(helper, appId, used);
    const common = (
      "the of and to a in is it you that he was for on are with as I his they be at one have this from or " +
      "had by but what some we can out other were all there when up use your how said an each she which do"
    ).split(" ");
    const trackers = Array.from({ length: 30 }, (_, t) => ({ name: `Common ${t}`, vocabulary: common }));
    expect((await apiClient(helper.url, token).post("/v1/manage/trackers", trackers)).status).toBe(201);
    await helper.close();

    const port = await freePort();
    // With the heap limit `npm start` gives it.
    child = startMain(database, port, ["--max-old-space-size=1024"]);
    await untilOutput(child, "Recap listening on");
    const base = `http://127.0.0.1:${port}`;
    const answer = await getPlain(`${base}/v1/conversations/${conversationId}/trackers`, token).catch(
      (error: Error): Plain => ({ status: 0, headers: {}, body: error.message }),
    );
    expect(answer.status, answer.body.slice(0, 200)).toBe(200);
    expect(answer.headers["recap-truncated"]).toBe("true");
    const detected = JSON.parse(answer.body) as { matches: { messageRefs: unknown[] }[] }[];
    const refs = detected.flatMap((tracker) => tracker.matches.flatMap((match) => match.messageRefs));
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.length).toBeLessThanOrEqual(10_000);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(child.process.exitCode).toBeNull();
  }, 300_000);
});
