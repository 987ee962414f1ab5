import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startMain, startTestServer, TestClock, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { MediaHost, MediaKit } from "../helpers/media.ts";
import { writeRecording } from "../helpers/audio.ts";
import { installToneEngine, VOICES } from "../../scripts/speech-models/models.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";
import type { Child } from "../helpers/processes.ts";
import { until, untilValue } from "../helpers/wait.ts";

const SAID = [
  { text: "Welcome to the budget review", atSeconds: 0.3 },
  { text: "Dana will send the numbers by Friday", atSeconds: 4 },
];
const nearest = (seconds: number) => (seconds < 3 ? SAID[0]?.text : SAID[1]?.text) ?? "";

/** A job's webhook body. */
interface JobEvent {
  jobId: string;
  status: string;
  message?: string;
}

/** Receives webhook events, as a client's endpoint would. */
async function startHooks(): Promise<{ server: Server; url: string; events: JobEvent[] }> {
  const events: JobEvent[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      events.push(JSON.parse(body) as JobEvent);
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events };
}

describe.each(await dialects())("why a media job failed, on %s", (dialect) => {
  const kit = new MediaKit();
  let host: MediaHost;
  let speech: SpeechServer;
  let hooks: Awaited<ReturnType<typeof startHooks>>;
  let server: TestServer;
  let app: { appId: string; appSecret: string; token: string };
  let recording: string;

  beforeAll(async () => {
    host = await new MediaHost().listen();
    speech = await startSpeechServer("openai", nearest);
    hooks = await startHooks();
    server = await startTestServer(dialect, {
      env: {
        RECAP_ASR_URL: speech.url,
        RECAP_MEDIA_ALLOW_HOSTS: "localhost",
        RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
    app = await server.newApp();
    recording = await kit.speech(SAID, 7);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await speech.close();
    await host.close();
    hooks.server.closeAllConnections();
    await new Promise((resolve) => hooks.server.close(resolve));
    kit.close();
  });

  const failedJob = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBe(201);
    const accepted = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, app.token, accepted.jobId)).toBe("failed");
    const job = (await (await server.api(app.token, `/v1/job/${accepted.jobId}`)).json()) as Body.Job;
    return { ...accepted, job };
  };

  it("says why in GET /v1/job, the webhook and the console, when the submission was at fault", async () => {
    const { jobId, conversationId, job } = await failedJob(
      await server.api(app.token, "/v1/process/audio/url", {
        method: "POST",
        body: { url: host.url("/missing.wav", "localhost"), name: "Lost call", webhookUrl: hooks.url },
      }),
    );
    const why = "fetching the url answered HTTP 404";
    expect(job).toMatchObject({ id: jobId, status: "failed", message: why });

    await until(
      () => hooks.events.some((event) => event.jobId === jobId && event.status === "failed"),
      "webhook",
    );
    expect(hooks.events.filter((event) => event.jobId === jobId).at(-1)).toEqual({
      jobId,
      status: "failed",
      message: why,
    });
    expect(
      hooks.events.filter((event) => event.status !== "failed").every((event) => !("message" in event)),
    ).toBe(true);

    // The conversation it made stays listed, marked, so it can be found and deleted.
    const listed = (await (await server.api(app.token, "/v1/conversations")).json()) as Body.ConversationList;
    expect(listed.conversations.find((conversation) => conversation.id === conversationId)).toMatchObject({
      name: "Lost call",
      failedJob: { id: jobId, message: why },
    });
    const one = (await (
      await server.api(app.token, `/v1/conversations/${conversationId}`)
    ).json()) as Body.Conversation;
    expect(one.failedJob).toEqual({ id: jobId, message: why });

    const client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
    const list = await (await client.request("/console/conversations")).text();
    expect(list).toContain(`Failed: ${why}`);
    const page = await (await client.request(`/console/conversations/${conversationId}`)).text();
    expect(page).toContain(`Failed: ${why}`);
    expect(page).not.toContain("the summary appears here");
    const jobPage = await (await client.request(`/console/jobs/${jobId}`)).text();
    expect(jobPage).toContain(`Failed: ${why}`);
  }, 60_000);

  it("reports a fetched URL's job in progress once, through its fetch and its transcription", async () => {
    host.files.set("/call.wav", recording);
    const response = await server.api(app.token, "/v1/process/audio/url", {
      method: "POST",
      body: { url: host.url("/call.wav", "localhost"), webhookUrl: hooks.url },
    });
    expect(response.status).toBe(201);
    const { jobId } = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, app.token, jobId)).toBe("completed");
    await until(
      () => hooks.events.some((event) => event.jobId === jobId && event.status === "completed"),
      "webhook",
    );
    expect(hooks.events.filter((event) => event.jobId === jobId).map((event) => event.status)).toEqual([
      "scheduled",
      "in_progress",
      "completed",
    ]);
  }, 60_000);

  it("names only the job's id, not the server's internals, when the failure is the server's", async () => {
    speech.failWith = { status: 400, body: '{"error":"model file /srv/models/x.bin is corrupt"}' };
    try {
      const { jobId, job } = await failedJob(
        await fetch(`${server.url}/v1/process/audio`, {
          method: "POST",
          headers: { authorization: `Bearer ${app.token}`, "content-type": "audio/wav" },
          body: readFileSync(recording),
        }),
      );
      expect(job.message).toBe(`the job failed on the server (id ${jobId}); see the server log`);
    } finally {
      speech.failWith = null;
    }
  }, 60_000);
});

describe.each(await dialects())("a URL that stalls, on %s", (dialect) => {
  const kit = new MediaKit();
  let host: MediaHost;
  let speech: SpeechServer;
  let server: TestServer;

  beforeAll(async () => {
    host = await new MediaHost().listen();
    speech = await startSpeechServer("openai", nearest);
    server = await startTestServer(dialect, {
      env: {
        RECAP_ASR_URL: speech.url,
        RECAP_ASR_CONCURRENCY: "1",
        RECAP_MEDIA_ALLOW_HOSTS: "localhost",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await speech.close();
    await host.close();
    kit.close();
  });

  it("does not hold the one transcription slot: another app's upload completes while it waits", async () => {
    const stalling = await server.newApp();
    const other = await server.newApp();
    const submitted = await server.api(stalling.token, "/v1/process/audio/url", {
      method: "POST",
      body: { url: host.url("/stall", "localhost") },
    });
    expect(submitted.status).toBe(201);
    const stalled = (await submitted.json()) as Body.Accepted;
    await until(() => host.stalled === 1, "the stalled URL to be fetched");

    const uploaded = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "audio/wav" },
      body: readFileSync(await kit.speech(SAID, 7)),
    });
    expect(uploaded.status).toBe(201);
    const upload = (await uploaded.json()) as Body.Accepted;
    // The server's own runners run both jobs (runUntilIdle would wait on the stalled fetch): read from outside.
    const statusOf = async (token: string, jobId: string) =>
      ((await (await server.api(token, `/v1/job/${jobId}`)).json()) as Body.Job).status;
    await until(async () => (await statusOf(other.token, upload.jobId)) === "completed", "the upload's job");
    expect(await statusOf(stalling.token, stalled.jobId)).toBe("in_progress");
    const messages = (await (
      await server.api(other.token, `/v1/conversations/${upload.conversationId}/messages`)
    ).json()) as Body.MessageList;
    expect(messages.messages.map((message) => message.text)).toEqual(SAID.map((said) => said.text));
  }, 60_000);
});

describe.each(await dialects())("a speech server that is down, on %s", (dialect) => {
  const kit = new MediaKit();
  const METRICS_TOKEN = "metrics-token-0123456789abcdef";
  let speech: SpeechServer;
  let server: TestServer;
  let clock: TestClock;
  let token: string;
  let recording: string;

  beforeAll(async () => {
    speech = await startSpeechServer("openai", nearest);
    clock = new TestClock();
    server = await startTestServer(dialect, {
      clock,
      runJobs: false,
      env: {
        RECAP_ASR_URL: speech.url,
        RECAP_ASR_RETRIES: "2",
        RECAP_ASR_RETRY_SECONDS: "60",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
        RECAP_METRICS_TOKEN: METRICS_TOKEN,
      },
    });
    token = (await server.newApp()).token;
    recording = await kit.speech(SAID, 7);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await speech.close();
    kit.close();
  });

  const upload = async () => {
    const response = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: readFileSync(recording),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Body.Accepted;
  };
  const job = async (jobId: string) =>
    (await (await server.api(token, `/v1/job/${jobId}`)).json()) as Body.Job;
  const readiness = async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      status: string;
      speech: { server?: { state: string; since: string | null; lastReachableAt: string | null } };
    };
  };
  const metric = async (name: string) => {
    const body = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const line = body.split("\n").find((row) => row.startsWith(`${name} `));
    return line === undefined ? null : Number(line.slice(name.length + 1));
  };

  it("retries the job while the server is down, says so on /readyz and /metrics, and completes once it is back", async () => {
    expect((await readiness()).status).toBe("ready");
    await speech.stop();
    try {
      const { jobId, conversationId } = await upload();
      await server.services.jobRunner.runUntilIdle();
      expect(await job(jobId)).toMatchObject({ status: "in_progress" });
      const down = await readiness();
      expect(down.status).toBe("degraded");
      expect(down.speech.server).toMatchObject({ state: "unreachable", lastReachableAt: null });
      expect(await metric('recap_speech_engine_state{state="unreachable"}')).toBe(1);
      expect(await metric("recap_speech_engine_unreachable_since_timestamp_seconds")).toBe(
        Date.parse(down.speech.server?.since ?? "") / 1000,
      );

      await speech.start();
      clock.advance(60);
      await server.services.jobRunner.runUntilIdle();
      expect(await job(jobId)).toMatchObject({ status: "completed", progress: 100 });
      const messages = (await (
        await server.api(token, `/v1/conversations/${conversationId}/messages`)
      ).json()) as Body.MessageList;
      expect(messages.messages.map((message) => message.text)).toEqual(SAID.map((said) => said.text));
      const back = await readiness();
      expect(back.status).toBe("ready");
      expect(back.speech.server?.state).toBe("reachable");
      expect(await metric('recap_speech_engine_state{state="reachable"}')).toBe(1);
      expect(await metric('recap_speech_engine_state{state="unreachable"}')).toBe(0);
      expect(await metric("recap_speech_engine_unreachable_since_timestamp_seconds")).toBe(0);
      expect(await metric("recap_speech_engine_last_reachable_timestamp_seconds")).toBe(
        Date.parse(back.speech.server?.lastReachableAt ?? "") / 1000,
      );
    } finally {
      await speech.start().catch(() => undefined);
    }
  }, 60_000);

  it("fails the job after RECAP_ASR_RETRIES retries, saying the engine could not be reached", async () => {
    await speech.stop();
    try {
      const { jobId } = await upload();
      // Tried at once, then 60 and 120 seconds later (the delay doubles): three attempts in all.
      for (const wait of [0, 60, 120]) {
        clock.advance(wait);
        await server.services.jobRunner.runUntilIdle();
      }
      expect(await job(jobId)).toMatchObject({
        status: "failed",
        message: "the speech engine could not be reached (ECONNREFUSED); gave up after 3 attempts",
      });
      expect(existsSync(join(kit.dir, "store", "work", jobId))).toBe(false);
    } finally {
      await speech.start();
    }
  }, 60_000);
});

describe.each(await dialects())("a language the local model does not recognise, on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  beforeAll(async () => {
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir);
    server = await startTestServer(dialect, {
      env: {
        ...engine,
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  it("fails the job saying so, as the submission's problem", async () => {
    const { token } = await server.newApp();
    const wav = join(kit.dir, "tone.wav");
    writeRecording(wav, [{ silence: 0.5 }, { tone: VOICES[0], seconds: 1.5 }, { silence: 0.5 }]);
    const response = await fetch(`${server.url}/v1/process/audio?languageCode=de-DE`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: readFileSync(wav),
    });
    expect(response.status).toBe(201);
    const { jobId } = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, jobId)).toBe("failed");
    const job = (await (await server.api(token, `/v1/job/${jobId}`)).json()) as Body.Job;
    expect(job.message).toBe("the local model tone-ctc does not recognise de-DE");
  }, 60_000);
});

// The log is the server's own output, so this runs `src/main.ts` as a process (one dialect is enough: what is
// logged does not depend on the database).
describe("a failed media job in the server's log", () => {
  const kit = new MediaKit();
  let host: MediaHost;
  let speech: SpeechServer;
  let testDatabase: TestDatabase;
  let helper: TestServer;
  let server: Child | undefined;

  beforeAll(async () => {
    host = await new MediaHost().listen();
    speech = await startSpeechServer("openai", nearest);
    testDatabase = await createTestDatabase("sqlite");
    helper = await startTestServer("sqlite", { runJobs: false, testDatabase });
  });
  afterAll(async () => {
    server?.process.kill("SIGKILL");
    await helper.close();
    await testDatabase.drop();
    await speech.close();
    await host.close();
    kit.close();
  });

  it("logs the submission's problem at info without a stack, and the server's own failure as an error with one", async () => {
    const { token } = await helper.newApp();
    server = startMain(testDatabase, 0, [], {
      RECAP_ASR_URL: speech.url,
      RECAP_MEDIA_ALLOW_HOSTS: "localhost",
      RECAP_MEDIA_DIR: join(kit.dir, "store"),
    });
    const { output } = server;
    const url = await untilValue(
      () => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(output())?.[1],
      60_000,
    );
    if (url === undefined) throw new Error(`the server did not start:\n${output()}`);
    const failure = (jobId: string) =>
      untilValue(
        () =>
          output()
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map(
              (line) =>
                JSON.parse(line) as { level: number; msg: string; jobId?: string; [field: string]: unknown },
            )
            .find((line) => line.jobId === jobId && line.msg === "job failed"),
        60_000,
      );

    const missing = await apiClient(url, token).post<Body.Accepted>("/v1/process/audio/url", {
      url: host.url("/missing.wav", "localhost"),
    });
    const userFault = await failure(missing.body.jobId);
    expect(userFault).toMatchObject({ level: 30, reason: "fetching the url answered HTTP 404" });
    expect(userFault).not.toHaveProperty("err");

    speech.failWith = { status: 400, body: '{"error":"unreadable"}' };
    const uploaded = await fetch(`${url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: readFileSync(await kit.speech(SAID, 7)),
    });
    expect(uploaded.status).toBe(201);
    const serverFault = await failure(((await uploaded.json()) as Body.Accepted).jobId);
    expect(serverFault?.level).toBe(50);
    expect((serverFault?.err as { stack?: string } | undefined)?.stack).toContain(
      "the speech server answered HTTP 400",
    );
  }, 90_000);
});
