import { describe, expect, it } from "vitest";
import { waitForJob } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { importTranscript } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

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
  const suite = suiteServer(dialect);

  const importFile = (body: string, type: string, query = "") =>
    importTranscript(suite.server, suite.token, body, type, query);
  const get = <T>(path: string) => suite.api.get<T>(path);

  it("imports WebVTT and SRT as timed messages with members", async () => {
    for (const [body, type, speakers] of [
      [VTT, "text/vtt", ["Dana", "Bob"]],
      [SRT, "application/x-subrip", ["Ann", "Cy"]],
    ] as const) {
      const response = await importFile(body, type, "?name=Imported");
      expect(response.status).toBe(201);
      const { conversationId, jobId } = response.body;
      expect(await waitForJob(suite.server, suite.token, jobId)).toBe("completed");
      const { members } = (await get<Body.MemberList>(`/v1/conversations/${conversationId}/members`)).body;
      expect(members.map((m) => m.name)).toEqual(speakers);
      const { messages } = (await get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`)).body;
      expect(messages[1]).toMatchObject({ timeOffset: type === "text/vtt" ? 3.5 : 2.5 });
      expect(messages[0]?.duration).toBeGreaterThan(0);
      const conversation = (await get<Body.Conversation>(`/v1/conversations/${conversationId}`)).body;
      expect(conversation.name).toBe("Imported");
    }
  });

  it("refuses a transcript that is not one, or of another type", async () => {
    const empty = await importFile("hello there", "text/vtt");
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/transcript/);
    expect((await importFile(VTT, "text/plain")).status).toBe(415);
  });

  it("serves OpenAPI 3.1 from the route schemas, a docs page, health and readiness", async () => {
    const { body: openapi } = await get<{ openapi: string; paths: Record<string, unknown> }>("/openapi.json");
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
    const docs = await fetch(`${suite.server.url}/docs`, { redirect: "follow" });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
    expect(await (await fetch(`${suite.server.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${suite.server.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it("tags every response with a request id", async () => {
    const response = await fetch(`${suite.server.url}/healthz`, { headers: { "x-request-id": "trace-123" } });
    expect(response.headers.get("x-request-id")).toBe("trace-123");
    expect((await fetch(`${suite.server.url}/healthz`)).headers.get("x-request-id")).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
