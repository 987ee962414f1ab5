// Over 300 lines: a table of bad inputs per rule (every 4xx names its field), kept together so the
// rules read as one list; the generated requests are in test/fuzz.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, messageOf, readBody } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { replayable } from "../helpers/property.ts";
import { sendRaw } from "../helpers/raw-http.ts";

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
    const members = await readBody<Body.MemberList>(
      server,
      token,
      `/v1/conversations/${conversationId}/members`,
    );
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
        const message = await messageOf(response);
        expect(message).toMatch(corruption.field);
      }),
      replayable("corrupted process/text bodies", { numRuns: 120 }),
    );
    expect(await counts()).toEqual(before);
  });

  /** Every route that takes a JSON body. */
  const jsonRoutes = () => [
    { method: "POST", path: "/v1/process/text" },
    { method: "PUT", path: `/v1/process/text/${conversationId}` },
    { method: "PUT", path: `/v1/conversations/${conversationId}/members/${memberId}` },
    { method: "POST", path: `/v1/conversations/${conversationId}/experiences` },
    { method: "POST", path: "/oauth2/token:generate" },
  ];

  it("never answers 5xx to generated bodies, headers and paths", async () => {
    const before = await counts();
    const routes = jsonRoutes().filter((route) => !route.path.endsWith("/experiences"));
    const bodies = fc.oneof(
      fc.json().map((json) => ({ raw: json, type: "application/json" })),
      fc.anything().map((value) => ({ raw: JSON.stringify(value) ?? "null", type: "application/json" })),
      fc.string().map((raw) => ({ raw, type: "application/json" })),
      fc
        .tuple(fc.string(), fc.constantFrom("text/plain", "application/xml", "text/vtt"))
        .map(([raw, type]) => ({ raw, type })),
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
        expect(typeof (await bodyOf<{ message: unknown }>(response)).message).toBe("string");
      }),
      replayable("generated bodies and headers", { numRuns: 200 }),
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
      replayable("generated paths", { numRuns: 150 }),
    );
    expect(await counts()).toEqual(before);
  });

  it("answers 415 on every JSON route for any other content type, and for a body without one", async () => {
    const before = await counts();
    const routes = jsonRoutes();
    const types = [
      "text/plain",
      "text/vtt",
      "application/x-subrip",
      "application/xml",
      "multipart/form-data",
    ];
    const body = JSON.stringify({
      ...validBody(),
      id: memberId,
      type: "application",
      appId: "a",
      appSecret: "b",
    });
    for (const route of routes) {
      for (const type of [...types, undefined]) {
        const response = await fetch(server.url + route.path, {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, ...(type && { "content-type": type }) },
          // Bytes, so that fetch adds no content type of its own.
          body: new TextEncoder().encode(body),
        });
        expect(response.status, `${route.method} ${route.path} ${type ?? "(none)"}`).toBe(415);
        const message = await messageOf(response);
        expect(message).toMatch(/Content-Type/);
      }
    }
    const transcriptAsJson = await server.api(token, "/v1/process/transcript", { method: "POST", body: {} });
    expect(transcriptAsJson.status).toBe(415);
    expect(await counts()).toEqual(before);

    // An empty body is no body, whatever its type: Symbl's clients send application/json on bodiless requests.
    for (const type of ["application/json", "text/plain"]) {
      const list = await server.api(token, "/v1/conversations", { headers: { "content-type": type } });
      expect(list.status, type).toBe(200);
      const removed = await server.api(token, "/v1/conversations/0000000000000000", {
        method: "DELETE",
        headers: { "content-type": type },
        body: "",
      });
      expect(removed.status, type).toBe(404);
      const empty = await server.api(token, "/v1/process/text", {
        method: "POST",
        headers: { "content-type": type },
        body: "",
      });
      expect(empty.status, type).toBe(400);
      expect(await messageOf(empty)).toBe("body must be object");
    }
  });

  /** Sends each request and expects 400 with exactly its message, and nothing stored. */
  async function expectRefused(cases: [request: () => Promise<Response>, message: string][]) {
    const before = await counts();
    for (const [request, message] of cases) {
      const response = await request();
      expect(response.status, message).toBe(400);
      expect(await messageOf(response)).toBe(message);
    }
    expect(await counts()).toEqual(before);
  }
  const post =
    (path: string, body: string, method = "POST") =>
    () =>
      server.api(token, path, { method, body });

  it("refuses a body nested deeper than 64 levels, and takes one within the limit", async () => {
    let deep = "{}";
    for (let level = 0; level < 10_000; level++) deep = `{"a":${deep}}`;
    await expectRefused([
      [
        post("/v1/process/text", `{"messages":[{"payload":{"content":"x"}}],"metadata":${deep}}`),
        "body must not nest objects and arrays deeper than 64 levels",
      ],
      [
        post(`/v1/process/text/${conversationId}`, `{"messages":[{"payload":{"content":${deep}}}]}`, "PUT"),
        "body must not nest objects and arrays deeper than 64 levels",
      ],
    ]);
    let allowed: unknown = "leaf";
    for (let level = 0; level < 60; level++) allowed = { a: allowed };
    const within = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: { messages: [{ payload: { content: "Deep enough." } }], metadata: { deep: allowed } },
    });
    expect(within.status).toBe(201);
  });

  it("refuses a body holding a __proto__ or constructor.prototype key, wherever it is nested", async () => {
    const refused = "body must not contain a __proto__ or constructor.prototype property";
    await expectRefused([
      [
        post("/v1/process/text", `{"messages":[{"payload":{"content":"x"}}],"__proto__":{"admin":true}}`),
        refused,
      ],
      [
        post(
          "/v1/process/text",
          `{"messages":[{"payload":{"content":"x"}}],"metadata":{"constructor":{"prototype":{"admin":true}}}}`,
        ),
        refused,
      ],
      [
        post(
          `/v1/process/text/${conversationId}`,
          `{"messages":[{"payload":{"content":"x","__proto__":{}}}]}`,
          "PUT",
        ),
        refused,
      ],
    ]);
  });

  it("refuses leap-second times, with or without an offset, as not an ISO-8601 date-time", async () => {
    const timed = (startTime: string, endTime: string) =>
      post(
        "/v1/process/text",
        JSON.stringify({ messages: [{ payload: { content: "Leap." }, duration: { startTime, endTime } }] }),
      );
    const rule = "must be an ISO-8601 date-time such as 2026-11-02T10:00:00Z (seconds 00 to 59)";
    await expectRefused([
      [timed("2026-12-31T23:59:60Z", "2027-01-01T00:00:01Z"), `messages[0].duration.startTime ${rule}`],
      [timed("2026-12-31T10:00:00Z", "2026-12-31T23:59:60+00:00"), `messages[0].duration.endTime ${rule}`],
      [
        timed("2027-01-01T00:59:60+01:00", "2027-01-01T01:00:01+01:00"),
        `messages[0].duration.startTime ${rule}`,
      ],
    ]);
  });

  it("refuses list bounds that are out of range or not finite", async () => {
    const list = (query: string) => () => server.api(token, `/v1/conversations?${query}`);
    await expectRefused([
      [list("offset=1e20"), "query.offset must be <= 2147483647"],
      [list("offset=9223372036854775808"), "query.offset must be <= 2147483647"],
      [list("offset=Infinity"), "query.offset must be a finite number"],
      [list("limit=Infinity"), "query.limit must be a finite number"],
      [list("limit=-1e999"), "query.limit must be a finite number"],
    ]);
    expect((await server.api(token, "/v1/conversations?offset=2147483647&limit=1000")).status).toBe(200);
  });

  it("refuses text holding an unpaired surrogate, and keeps paired ones exactly", async () => {
    await expectRefused([
      [
        post("/v1/process/text", '{"messages":[{"payload":{"content":"a\\ud800b"}}]}'),
        "messages[0].payload.content must not contain an unpaired UTF-16 surrogate",
      ],
      [
        post(
          `/v1/process/text/${conversationId}`,
          '{"messages":[{"payload":{"content":"x"},"from":{"name":"\\udfff"}}]}',
          "PUT",
        ),
        "messages[0].from.name must not contain an unpaired UTF-16 surrogate",
      ],
      [
        post(
          `/v1/conversations/${conversationId}/members/${memberId}`,
          `{"id":"${memberId}","name":"Ann \\ud83d"}`,
          "PUT",
        ),
        "name must not contain an unpaired UTF-16 surrogate",
      ],
    ]);
    const { conversationId: emoji } = await server.ingest(token, {
      messages: [{ payload: { content: "Ship it \ud83d\ude80 today" }, from: { name: "Bo \ud83d\ude00" } }],
    });
    const { messages } = await readBody<Body.MessageList>(
      server,
      token,
      `/v1/conversations/${emoji}/messages`,
    );
    expect(messages[0]).toMatchObject({ text: "Ship it 🚀 today", from: { name: "Bo 😀" } });
  });

  it("refuses the NUL character in path ids, queries, bodies and property names on every database", async () => {
    const transcript = (query: string, body: string) => () =>
      fetch(`${server.url}/v1/process/transcript${query}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/vtt" },
        body,
      });
    const cue = (text: string) => `WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n`;
    await expectRefused([
      [
        post("/v1/process/text", '{"messages":[{"payload":{"content":"a\\u0000b"}}]}'),
        "messages[0].payload.content must not contain the NUL character (U+0000)",
      ],
      [
        post("/v1/process/text", '{"messages":[{"payload":{"content":"x"}}],"metadata":{"k\\u0000":1}}'),
        "metadata has a property name containing the NUL character (U+0000)",
      ],
      [
        post(
          `/v1/conversations/${conversationId}/members/${memberId}`,
          `{"id":"${memberId}","name":"Ann\\u0000"}`,
          "PUT",
        ),
        "name must not contain the NUL character (U+0000)",
      ],
      [
        () =>
          fetch(`${server.url}/oauth2/token:generate`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"type":"application","appId":"a\\u0000","appSecret":"b"}',
          }),
        "appId must not contain the NUL character (U+0000)",
      ],
      [() => server.api(token, "/v1/job/%00"), "params.jobId must not contain the NUL character (U+0000)"],
      [
        () => server.api(token, "/v1/conversations/1%002/messages"),
        "params.conversationId must not contain the NUL character (U+0000)",
      ],
      [
        () =>
          server.api(token, `/v1/conversations/${conversationId}/members/%00`, {
            method: "PUT",
            body: { id: "x", name: "Ann" },
          }),
        "params.memberId must not contain the NUL character (U+0000)",
      ],
      [transcript("?name=a%00", cue("Hello")), "query.name must not contain the NUL character (U+0000)"],
      [transcript("", cue("Hel\u0000lo")), "body must not contain the NUL character (U+0000)"],
    ]);
    // Node's HTTP parser refuses NUL in a header (an API key, a Host) before any route runs.
    for (const header of [`x-api-key: key\0`, "host: recap.test\0"]) {
      const answer = await sendRaw(server.url, `GET /v1/conversations HTTP/1.1\r\n${header}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('{"message":"The request is not valid HTTP/1.1: Invalid header value char"}');
    }
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
    expect(await messageOf(unsupported)).toMatch(/Content-Type/);

    const big = validBody();
    (big.messages as Json[])[0] = { payload: { content: "x".repeat(70_000) } };
    const tooLarge = await send(JSON.stringify(big), "application/json");
    expect(tooLarge.status).toBe(413);

    const broken = await send('{"messages": [', "application/json");
    expect(broken.status).toBe(400);
    expect(await messageOf(broken)).toMatch(/JSON/);
  });
});
