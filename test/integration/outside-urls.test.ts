// URLs Recap is asked to call (a webhookUrl) or fetch (a media url): what the schema lets through is what the
// services can read, and no spelling of an internal address passes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { writeRecording } from "../helpers/audio.ts";
import { dialects } from "../helpers/databases.ts";

const message = { payload: { content: "Dana will send the numbers by Friday." }, from: { name: "Dana" } };

describe.each(await dialects())("URLs from outside on %s", (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), "recap-urls-"));
  let server: TestServer;
  let token = "";
  let recording = Buffer.alloc(0);
  beforeAll(async () => {
    const file = join(dir, "tone.wav");
    writeRecording(file, [{ tone: 440, seconds: 1 }]);
    recording = readFileSync(file);
    // An engine is named so that media submissions reach their URL checks; no job runs.
    server = await startTestServer(dialect, {
      runJobs: false,
      env: { RECAP_ASR_URL: "http://127.0.0.1:9/v1", RECAP_MEDIA_DIR: join(dir, "media") },
    });
    token = (await server.newApp()).token;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every way a URL comes in: a text job's webhook, a media URL, a media URL's webhook, an upload's webhook. */
  const submissions = (url: string) => [
    {
      field: "webhookUrl",
      send: () =>
        server.api(token, "/v1/process/text", {
          method: "POST",
          body: { webhookUrl: url, messages: [message] },
        }),
    },
    {
      field: "url",
      send: () => server.api(token, "/v1/process/audio/url", { method: "POST", body: { url } }),
    },
    {
      field: "webhookUrl",
      send: () =>
        server.api(token, "/v1/process/video/url", {
          method: "POST",
          body: { url: "https://93.184.215.14/a.mp4", webhookUrl: url },
        }),
    },
    {
      field: "query.webhookUrl",
      send: () =>
        fetch(`${server.url}/v1/process/audio?webhookUrl=${encodeURIComponent(url)}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
          body: recording,
        }),
    },
  ];

  const conversations = async () =>
    ((await (await server.api(token, "/v1/conversations")).json()) as Body.ConversationList).conversations;

  it("refuses with 400 naming the field a URL that the URL parser cannot read", async () => {
    for (const url of ["http://127.0.0.1%2509/", "http://exa%20mple.com/hook", "http://[::1/hook"]) {
      for (const { field, send } of submissions(url)) {
        const response = await send();
        const body = (await response.json()) as { message: string };
        expect(response.status, `${field} ${url}: ${body.message}`).toBe(400);
        expect(body.message).toMatch(
          new RegExp(`^${field.replace(".", "\\.")} must be an absolute http\\(s\\) URL`),
        );
      }
    }
    expect(await conversations()).toEqual([]);
  });

  it("refuses IPv4-compatible and the rest of ::/8 as internal addresses, naming the field", async () => {
    for (const url of [
      "http://[::127.0.0.1]/",
      "http://[::7f00:1]/",
      "http://[::8.8.8.8]/",
      "http://[ff::1]/",
    ]) {
      for (const { field, send } of submissions(url)) {
        const response = await send();
        const body = (await response.json()) as { message: string };
        expect(response.status, `${field} ${url}: ${body.message}`).toBe(400);
        expect(body.message).toMatch(/must not point at an internal address/);
        expect(body.message.startsWith(field.replace(/^query\./, ""))).toBe(true);
      }
    }
    expect(await conversations()).toEqual([]);
  });
});
