// One set of input rules for every way in (docs/ARCHITECTURE.md, "Input rules"): the API's bodies, the
// console's import and `bin/recap import` refuse the same text with a 400 (or exit 1) naming where it is,
// and store nothing.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { ROOT } from "../helpers/processes.ts";

const run = promisify(execFile);

/** `{"metadata": {"a": {"a": … "x" …}}}` with `depth` objects under metadata, and a valid message. */
function nested(depth: number): string {
  return (
    `{"messages":[{"payload":{"content":"Hello there."},"from":{"name":"Ann"}}],"metadata":` +
    '{"a":'.repeat(depth) +
    '"x"' +
    "}".repeat(depth) +
    "}"
  );
}

/** A process/text body whose one line says `content` (a JSON string literal's inside, escapes kept). */
const lineSaying = (content: string) =>
  `{"messages":[{"payload":{"content":"${content}"},"from":{"name":"Ann"}}]}`;

/** The byte 0xE9 (é in Latin-1), which no UTF-8 text holds on its own, in the middle of `before` + `after`. */
const latin1Between = (before: string, after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);

/** The import form as bytes, so the name field and the file can hold any bytes at all. */
function importForm(name: Buffer | string, fileName: string, file: Buffer | string) {
  const boundary = "----recap-input-rules";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`),
    Buffer.from(name),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(await dialects())("the input rules on every way in, on %s", (dialect) => {
  let server: TestServer;
  let token = "";
  let client: ConsoleClient;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const app = await server.newApp();
    token = app.token;
    client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
  });
  afterAll(() => server.close());

  const conversationCount = async () =>
    (await apiClient(server.url, token).get<Body.ConversationList>("/v1/conversations")).body.conversations
      .length;

  const sendBytes = (path: string, type: string, body: Buffer) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      body: new Uint8Array(body),
    });

  /** Posts the import form as a console page would, with the session cookie. */
  const importThroughConsole = (form: ReturnType<typeof importForm>) =>
    fetch(`${server.url}/console/import`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: client.cookie, origin: server.url, "content-type": form.type },
      body: new Uint8Array(form.body),
    });

  it("refuses a body that is not UTF-8 on process/text and the transcript import, naming its byte offset", async () => {
    const before = await conversationCount();
    const prefix = '{"messages":[{"payload":{"content":"caf';
    const json = latin1Between(prefix, '"},"from":{"name":"Ann"}}]}');
    const vttPrefix = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ann>Caf";
    const vtt = latin1Between(vttPrefix, " au lait.\n");
    const cases: [string, string, Buffer][] = [
      ["/v1/process/text", "application/json", json],
      ["/v1/process/transcript", "text/vtt", vtt],
    ];
    for (const [path, type, body] of cases) {
      const answer = await sendBytes(path, type, body);
      expect(answer.status, path).toBe(400);
      const offset = path === "/v1/process/text" ? prefix.length : vttPrefix.length;
      expect(((await answer.json()) as Body.ErrorBody).message).toBe(
        `body is not valid UTF-8 at byte offset ${offset}`,
      );
    }
    // Overlong forms, encoded surrogates and a sequence cut short are not UTF-8 either.
    for (const bytes of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      const body = Buffer.concat([Buffer.from(prefix), Buffer.from(bytes), Buffer.from('"}}]}')]);
      const answer = await sendBytes("/v1/process/text", "application/json", body);
      expect(answer.status, JSON.stringify(bytes)).toBe(400);
    }
    expect(await conversationCount()).toBe(before);
    // Text that is UTF-8 is taken as sent, U+FFFD itself included.
    const fine = await sendBytes(
      "/v1/process/text",
      "application/json",
      Buffer.from(lineSaying("Café \ufffd")),
    );
    expect(fine.status).toBe(201);
  });

  it("holds the console's import to the API's rules, naming the field, and stores nothing", async () => {
    const before = await conversationCount();
    const vttWith = (speaker: string, text: string) =>
      `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v ${speaker}>${text}\n`;
    const cases: [string, ReturnType<typeof importForm>, string][] = [
      [
        "NUL in a JSON file",
        importForm("Broken", "notes.json", lineSaying("Hi \\u0000 there.")),
        "messages[0].payload.content must not contain the NUL character (U+0000)",
      ],
      [
        "an unpaired surrogate in a JSON file",
        importForm("Broken", "notes.json", lineSaying("Hi \\ud800 there.")),
        "messages[0].payload.content must not contain an unpaired UTF-16 surrogate",
      ],
      [
        "NUL in a speaker's name in a .vtt file",
        importForm("Broken", "notes.vtt", vttWith("Da\u0000na", "Morning.")),
        "body must not contain the NUL character (U+0000)",
      ],
      [
        "NUL in an .srt file",
        importForm("Broken", "notes.srt", "1\n00:00:00,000 --> 00:00:02,000\nDa\u0000na: Morning.\n"),
        "body must not contain the NUL character (U+0000)",
      ],
      [
        "metadata nested 5,000 levels",
        importForm("Broken", "notes.json", nested(5000)),
        "body must not nest objects and arrays deeper than 64 levels",
      ],
      [
        "metadata nested 100 levels",
        importForm("Broken", "notes.json", nested(100)),
        "body must not nest objects and arrays deeper than 64 levels",
      ],
      [
        "a file that is not UTF-8",
        importForm("Broken", "notes.vtt", latin1Between(vttWith("Ann", "Caf"), ".")),
        `file is not valid UTF-8 at byte offset ${vttWith("Ann", "Caf").length}`,
      ],
      [
        "NUL in the name field",
        importForm("Bro\u0000ken", "notes.vtt", vttWith("Ann", "Morning.")),
        "name must not contain the NUL character (U+0000)",
      ],
      [
        "a name field that is not UTF-8",
        importForm(latin1Between("Caf", ""), "notes.vtt", vttWith("Ann", "Morning.")),
        "name is not valid UTF-8 at byte offset 3",
      ],
    ];
    for (const [what, form, message] of cases) {
      const answer = await importThroughConsole(form);
      expect(answer.status, what).toBe(400);
      const html = await answer.text();
      expect(html, what).toContain(message.replace(/'/g, "&#39;"));
    }
    expect(await conversationCount()).toBe(before);

    // Within the rules, the same ways are taken as sent.
    const taken = await importThroughConsole(importForm("Café ☕", "notes.json", nested(60)));
    expect(taken.status).toBe(303);
    const listed = await apiClient(server.url, token).get<Body.ConversationList>("/v1/conversations");
    expect(listed.body.conversations.map((conversation) => conversation.name)).toContain("Café ☕");
  });
});

describe("bin/recap import and the input rules", () => {
  let dir: string;
  let database: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "recap-cli-rules-"));
    database = await createTestDatabase("sqlite");
    server = await startTestServer("sqlite", { runJobs: false, testDatabase: database });
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a file that is not UTF-8, naming the file and the byte offset, and stores nothing", async () => {
    const { appId, token } = await server.newApp();
    const file = join(dir, "latin1.vtt");
    const before = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ann>Caf";
    writeFileSync(file, latin1Between(before, ".\n"));
    const { target } = database;
    if (target.dialect !== "sqlite") throw new Error("the CLI test runs on SQLite");
    await expect(
      run(join(ROOT, "bin", "recap"), ["import", file, "--app", appId], {
        env: {
          ...process.env,
          NODE_ENV: "test",
          DATABASE_URL: `sqlite:${target.path}`,
          RECAP_SECRET: TEST_SECRET,
        },
      }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${file}: file is not valid UTF-8 at byte offset ${before.length}`,
      ) as unknown,
    });
    const listed = await apiClient(server.url, token).get<Body.ConversationList>("/v1/conversations");
    expect(listed.body.conversations).toEqual([]);
  });
});
