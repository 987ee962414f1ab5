// How uploads arrive: a file too large is refused from its headers, a slow one keeps a rate instead of the
// request timeout, and what a cut, a refused or an interrupted upload leaves on disk.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { writeRecording } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { answerToHeaders, sendSlowly } from "../helpers/raw-http.ts";
import { until } from "../helpers/wait.ts";

const statusOf = (answer: string) => Number(answer.split(" ")[1]);
const messageOf = (answer: string) =>
  (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { message: string }).message;

describe.each(await dialects())("uploads on %s", (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), "recap-uploads-"));
  const incoming = join(dir, "media", "incoming");
  let server: TestServer;
  let token = "";
  let recording = Buffer.alloc(0);
  beforeAll(async () => {
    const file = join(dir, "tone.wav");
    writeRecording(file, [{ tone: 440, seconds: 1 }]);
    recording = readFileSync(file);
    // Small settings, so that "slower than the request timeout" takes seconds: 3 s, at least 1,000 bytes
    // a second for uploads, at most 1 MB.
    server = await startTestServer(dialect, {
      runJobs: false,
      env: {
        RECAP_ASR_URL: "http://127.0.0.1:9/v1",
        RECAP_MEDIA_DIR: join(dir, "media"),
        RECAP_REQUEST_TIMEOUT_SECONDS: "3",
        RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND: "1000",
        RECAP_MEDIA_MAX_BYTES: "1000000",
      },
    });
    token = (await server.newApp()).token;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const head = (path: string, length: number, type = "audio/wav") =>
    `POST ${path} HTTP/1.1\r\nHost: recap.test\r\n` +
    `Authorization: Bearer ${token}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
  const conversations = async () =>
    ((await (await server.api(token, "/v1/conversations")).json()) as Body.ConversationList).conversations;

  it("answers 413 from the declared length at once, while the body is never sent, and closes", async () => {
    for (const length of [5_000_000, 3 * 1024 ** 3]) {
      for (const path of ["/v1/process/audio", "/v1/process/video"]) {
        const answer = await answerToHeaders(server.url, head(path, length));
        expect(statusOf(answer), answer).toBe(413);
        expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      }
    }
    // A client that sends its body whole before reading still reads the answer.
    const big = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: Buffer.alloc(5_000_000),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(/RECAP_MEDIA_MAX_BYTES/);
    expect(await conversations()).toEqual([]);
  });

  it("takes an upload that arrives over longer than the request timeout at above the minimum rate", async () => {
    // About 35 kB a second for 5 s, against a 3 s request timeout and a minimum of 1,000 bytes a second.
    const answer = await sendSlowly(server.url, head("/v1/process/audio", recording.length), recording, {
      chunks: 20,
      everyMs: 250,
    });
    expect(statusOf(answer), answer).toBe(201);
    expect(await conversations()).toHaveLength(1);
  });

  it("holds a recording imported through the console to the same rate, not the request timeout", async () => {
    const app = await server.newApp();
    const client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
    const form = new FormData();
    form.set("name", "Slow link");
    form.set("file", new Blob([new Uint8Array(recording)], { type: "audio/wav" }), "memo.wav");
    const encoded = new Request("http://recap.test/", { method: "POST", body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const head =
      `POST /console/import HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\n` +
      `Cookie: ${client.cookie}\r\nContent-Type: ${encoded.headers.get("content-type")}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    // About 35 kB a second for 5 s, against a 3 s request timeout.
    const answer = await sendSlowly(server.url, head, body, { chunks: 20, everyMs: 250 });
    expect(statusOf(answer), answer).toBe(303);
    expect(answer).toMatch(/\r\nlocation: \/console\/jobs\//i);
  });

  it("cuts an upload that stalls with 408 naming the rate, keeping nothing", async () => {
    const before = (await conversations()).length;
    const answer = await sendSlowly(server.url, head("/v1/process/audio", recording.length), recording, {
      chunks: 20,
      everyMs: 10,
      sendChunks: 2,
    });
    expect(statusOf(answer), answer).toBe(408);
    expect(messageOf(answer)).toMatch(/RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND/);
    expect(await conversations()).toHaveLength(before);
    await until(() => readdirSync(incoming).length === 0, "the cut upload's file removed");
  });

  it("still holds a body that is not an upload to the request timeout", async () => {
    const body = Buffer.from(JSON.stringify({ messages: [{ payload: { content: "Hello there." } }] }));
    const answer = await sendSlowly(
      server.url,
      head("/v1/process/text", body.length, "application/json"),
      body,
      {
        chunks: body.length,
        everyMs: 100,
      },
    );
    expect(statusOf(answer), answer).toBe(408);
    expect(messageOf(answer)).toBe("The whole request must arrive within 3 s");
  });

  it("names the video route when a video type is sent to the audio route", async () => {
    const response = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "video/mp4" },
      body: recording,
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /\(got video\/mp4\): send video to \/v1\/process\/video$/,
    );
  });
});
