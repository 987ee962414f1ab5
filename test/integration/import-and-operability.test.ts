import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { dialects } from "../helpers/databases.ts";

const VTT = `WEBVTT

00:00:00.000 --> 00:00:03.000
<v Dana>Let's start with the budget.

00:00:03.500 --> 00:00:06.000
<v Bob>I will send the numbers by Friday.

00:00:06.500 --> 00:00:08.000
Dana: Great, thanks Bob.
`;

const SRT = `1
00:00:00,000 --> 00:00:02,000
Ann: Welcome back.

2
00:00:02,500 --> 00:00:05,000
Cy: Glad to be here.
`;

describe.each(await dialects())("transcript import and operations on %s", (dialect) => {
  let server: TestServer;
  let token = "";
  beforeAll(async () => {
    server = await startTestServer(dialect);
    token = (await server.newApp()).token;
  });
  afterAll(() => server.close());

  async function importFile(body: string, type: string, query = "") {
    const response = await fetch(`${server.url}/v1/process/transcript${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      body,
    });
    return response;
  }

  it("imports WebVTT and SRT as timed messages with members", async () => {
    for (const [body, type, speakers] of [
      [VTT, "text/vtt", ["Dana", "Bob"]],
      [SRT, "application/x-subrip", ["Ann", "Cy"]],
    ] as const) {
      const response = await importFile(body, type, "?name=Imported");
      expect(response.status).toBe(201);
      const { conversationId, jobId } = (await response.json()) as { conversationId: string; jobId: string };
      expect(await waitForJob(server, token, jobId)).toBe("completed");
      const members = (await (
        await server.api(token, `/v1/conversations/${conversationId}/members`)
      ).json()) as {
        members: { name: string }[];
      };
      expect(members.members.map((m) => m.name)).toEqual(speakers);
      const messages = (await (
        await server.api(token, `/v1/conversations/${conversationId}/messages`)
      ).json()) as {
        messages: { text: string; timeOffset: number; duration: number }[];
      };
      expect(messages.messages[1]).toMatchObject({ timeOffset: type === "text/vtt" ? 3.5 : 2.5 });
      expect(messages.messages[0]?.duration).toBeGreaterThan(0);
      const conversation = (await (
        await server.api(token, `/v1/conversations/${conversationId}`)
      ).json()) as {
        name: string;
      };
      expect(conversation.name).toBe("Imported");
    }
  });

  it("refuses a transcript that is not one, or of another type", async () => {
    const empty = await importFile("hello there", "text/vtt");
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/transcript/);
    expect((await importFile(VTT, "text/plain")).status).toBe(415);
  });

  it("serves OpenAPI 3.1 from the route schemas, a docs page, health and readiness", async () => {
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(openapi.openapi).toBe("3.1.0");
    for (const path of [
      "/oauth2/token:generate",
      "/v1/process/text",
      "/v1/process/text/{conversationId}",
      "/v1/job/{jobId}",
      "/v1/conversations/{conversationId}/members/{memberId}",
    ]) {
      expect(Object.keys(openapi.paths)).toContain(path);
    }
    const docs = await fetch(`${server.url}/docs`, { redirect: "follow" });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it("tags every response with a request id", async () => {
    const response = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "trace-123" } });
    expect(response.headers.get("x-request-id")).toBe("trace-123");
    expect((await fetch(`${server.url}/healthz`)).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
