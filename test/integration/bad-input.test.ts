import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { dialects } from "../helpers/databases.ts";

type Json = Record<string, unknown>;

const validBody = (): Json => ({
  name: "Planning",
  confidenceThreshold: 0.5,
  webhookUrl: "http://127.0.0.1:9/hook",
  metadata: { team: "core" },
  messages: [
    {
      payload: { content: "Dana will send the budget by Friday.", contentType: "text/plain" },
      from: { name: "Dana", email: "dana@example.com" },
      duration: { startTime: "2026-11-02T10:00:00Z", endTime: "2026-11-02T10:00:04Z" },
    },
  ],
});

/** One change that makes the valid body invalid, with the field the answer must name. */
const corruptions: { field: RegExp; apply: (body: Json) => void }[] = [
  { field: /messages/, apply: (b) => delete b.messages },
  { field: /messages/, apply: (b) => (b.messages = []) },
  { field: /messages/, apply: (b) => (b.messages = "hello") },
  { field: /messages\[0\]/, apply: (b) => ((b.messages as unknown[])[0] = null) },
  { field: /messages\[0\]\.payload/, apply: (b) => delete (b.messages as Json[])[0]?.payload },
  { field: /content/, apply: (b) => (((b.messages as Json[])[0]?.payload as Json).content = "") },
  { field: /content/, apply: (b) => (((b.messages as Json[])[0]?.payload as Json).content = 42) },
  {
    field: /contentType/,
    apply: (b) => (((b.messages as Json[])[0]?.payload as Json).contentType = "text/html"),
  },
  {
    field: /startTime/,
    apply: (b) => (((b.messages as Json[])[0]?.duration as Json).startTime = "yesterday"),
  },
  {
    field: /endTime/,
    apply: (b) => (((b.messages as Json[])[0]?.duration as Json).endTime = "2026-11-02T09:00:00Z"),
  },
  { field: /email/, apply: (b) => (((b.messages as Json[])[0]?.from as Json).email = "not-an-email") },
  { field: /from\.name/, apply: (b) => (((b.messages as Json[])[0]?.from as Json).name = ["x"]) },
  { field: /confidenceThreshold/, apply: (b) => (b.confidenceThreshold = 2) },
  { field: /confidenceThreshold/, apply: (b) => (b.confidenceThreshold = "high") },
  { field: /webhookUrl/, apply: (b) => (b.webhookUrl = "javascript:alert(1)") },
  { field: /webhookUrl/, apply: (b) => (b.webhookUrl = "not a url") },
  { field: /name/, apply: (b) => (b.name = 5) },
  { field: /name/, apply: (b) => (b.name = "n".repeat(1001)) },
  { field: /metadata/, apply: (b) => (b.metadata = "team") },
];

describe.each(await dialects())("bad input on %s", (dialect) => {
  let server: TestServer;
  let token = "";
  let conversationId = "";
  let memberId = "";
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      env: { RECAP_BODY_LIMIT_BYTES: "65536", RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" },
    });
    token = (await server.newApp()).token;
    ({ conversationId } = await server.ingest(token, {
      messages: [{ payload: { content: "Seed" }, from: { name: "Ann" } }],
    }));
    const members = (await (
      await server.api(token, `/v1/conversations/${conversationId}/members`)
    ).json()) as {
      members: { id: string }[];
    };
    memberId = members.members[0]?.id ?? "";
  });
  afterAll(() => server.close());

  async function counts() {
    const db = server.database.db;
    const count = async (table: "conversations" | "messages" | "jobs" | "members") =>
      Number((await db.selectFrom(table).select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    return {
      conversations: await count("conversations"),
      messages: await count("messages"),
      jobs: await count("jobs"),
      members: await count("members"),
    };
  }

  it("answers 400 naming the field for every corrupted process/text body, and stores nothing", async () => {
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...corruptions), fc.boolean(), async (corruption, append) => {
        const body = validBody();
        corruption.apply(body);
        const response = await server.api(
          token,
          append ? `/v1/process/text/${conversationId}` : "/v1/process/text",
          {
            method: append ? "PUT" : "POST",
            body,
          },
        );
        expect(response.status).toBe(400);
        const { message } = (await response.json()) as { message: string };
        expect(message).toMatch(corruption.field);
      }),
      { numRuns: 120 },
    );
    expect(await counts()).toEqual(before);
  });

  it("never answers 5xx to generated bodies, headers and paths", async () => {
    const before = await counts();
    const routes = [
      { method: "POST", path: "/v1/process/text" },
      { method: "PUT", path: `/v1/process/text/${conversationId}` },
      { method: "PUT", path: `/v1/conversations/${conversationId}/members/${memberId}` },
      { method: "POST", path: "/oauth2/token:generate" },
    ];
    const bodies = fc.oneof(
      fc.json().map((json) => ({ raw: json, type: "application/json" })),
      fc.anything().map((value) => ({ raw: JSON.stringify(value) ?? "null", type: "application/json" })),
      fc.string().map((raw) => ({ raw, type: "application/json" })),
      fc.string().map((raw) => ({
        raw,
        type: fc.sample(fc.constantFrom("text/plain", "application/xml", "text/vtt"), 1)[0] ?? "",
      })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodies, async (route, body) => {
        const response = await fetch(server.url + route.path, {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, "content-type": body.type },
          body: body.raw,
        });
        expect(
          response.status,
          `${route.method} ${route.path} ${body.type} ${body.raw}`,
        ).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(typeof ((await response.json()) as { message: unknown }).message).toBe("string");
      }),
      { numRuns: 200 },
    );
    const paths = fc.oneof(
      fc.string().map((s) => `/v1/conversations/${encodeURIComponent(s)}`),
      fc.string().map((s) => `/v1/job/${encodeURIComponent(s)}`),
      fc.string().map((s) => `/v1/conversations?limit=${encodeURIComponent(s)}`),
      fc.string().map((s) => `/v1/conversations/${conversationId}/members/${encodeURIComponent(s)}`),
    );
    await fc.assert(
      fc.asyncProperty(paths, async (path) => {
        const response = await server.api(token, path);
        expect(response.status, path).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    expect(await counts()).toEqual(before);
  });

  it("answers 415 for a body that is not JSON, 413 over the body limit, 400 for broken JSON", async () => {
    const send = (body: string, type: string) =>
      fetch(`${server.url}/v1/process/text`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": type },
        body,
      });
    const unsupported = await send("name=x", "application/x-www-form-urlencoded");
    expect(unsupported.status).toBe(415);
    expect(((await unsupported.json()) as { message: string }).message).toMatch(/Content-Type/);

    const big = validBody();
    (big.messages as Json[])[0] = { payload: { content: "x".repeat(70_000) } };
    const tooLarge = await send(JSON.stringify(big), "application/json");
    expect(tooLarge.status).toBe(413);

    const broken = await send('{"messages": [', "application/json");
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toMatch(/JSON/);
  });
});
