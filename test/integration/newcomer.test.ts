import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/pages/escape.ts";
import { apiClient, generateToken } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { ROOT, startChild, untilOutput, type Child } from "../helpers/processes.ts";
import { loadMeeting, meetingFiles, spokenTurns, toProcessTextBody } from "../helpers/qmsum.ts";
import { freePort, until } from "../helpers/wait.ts";

const run = promisify(execFile);
/** The environment of `npm start` and `bin/recap` on the default embedded database in `dataDir`, on a free port. */
async function embeddedEnv(dataDir: string): Promise<{ env: NodeJS.ProcessEnv; port: number }> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    RECAP_DATA_DIR: dataDir,
    NODE_ENV: "development",
    DATABASE_URL: "",
  };
  return { env, port };
}

/** `npm start` on the default embedded database in `dataDir`; resolves once it listens. */
async function startServer(env: NodeJS.ProcessEnv): Promise<Child> {
  const server = startChild("npm", ["start", "--silent"], env);
  await untilOutput(server, "Recap listening on").catch(() => undefined);
  expect(server.output()).toContain("Recap listening on");
  return server;
}

/** Stops `npm start` and the server under it (SIGTERM reaches the whole process group's leader first). */
async function stopServer(server: Child): Promise<void> {
  const pid = Number(/"pid":(\d+)/.exec(server.output())?.[1]);
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  if (pid) process.kill(pid, "SIGTERM");
  await exited;
}

/** What a viewer of a summary link sees: the status and the page. */
async function openLink(url: string): Promise<{ status: number; html: string }> {
  const response = await fetch(url);
  return { status: response.status, html: await response.text() };
}

/** The shell blocks of the README's first path (Quick start and Using the API), in order. */
function readmeQuickStart(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const from = readme.indexOf("## Quick start");
  const to = readme.indexOf("\n## ", readme.indexOf("## Using the API"));
  return [...readme.slice(from, to).matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/** The JavaScript examples of the README's section on Symbl's clients, in order. */
function symblExamples(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const from = readme.indexOf("## Using Symbl's clients");
  const to = readme.indexOf("\n## ", from + 1);
  return [...readme.slice(from, to).matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/**
 * Whether the README's shell tools are here. Under CI=true they must be (.ci/run installs them); elsewhere
 * a missing one skips the README suite with a line saying so.
 */
function readmeToolsAvailable(): boolean {
  const missing = ["bash", "curl", "jq"].filter((tool) => {
    try {
      execFileSync(tool, ["--version"], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return true;
  if (process.env.CI === "true")
    throw new Error(`CI=true but ${missing.join(", ")} missing: the README needs them`);
  console.warn(`SKIPPED: the README's quick start (no ${missing.join(", ")}); apt-get install -y curl jq`);
  return false;
}

describe.skipIf(!readmeToolsAvailable())(
  "the README's first path, run as written on a fresh data folder",
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), "recap-readme-"));
    let env: NodeJS.ProcessEnv;
    let port = 0;
    let server: Child;

    beforeAll(async () => {
      ({ env, port } = await embeddedEnv(dataDir));
      server = await startServer(env);
    }, 90_000);

    afterAll(async () => {
      await stopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("every block runs in order and prints working links: the demo meeting's summary and the API's page", async () => {
      expect(server.output()).toContain("No app yet: `bin/recap demo`");
      const blocks = readmeQuickStart();
      expect(blocks.length).toBeGreaterThanOrEqual(4);
      // `npm install` and `npm start` are what this suite itself did; every other line runs as written, on the
      // server's port instead of 8080.
      const script = blocks
        .join("\n")
        .split("\n")
        .filter((line) => !/^npm (install|start)\b/.test(line))
        .join("\n")
        .replaceAll("localhost:8080", `localhost:${port}`);
      expect(script).toContain("bin/recap demo");
      const { stdout } = await run(
        "bash",
        ["-e", "-o", "pipefail", "-c", `${script}\necho "set: $APP_ID $APP_SECRET $CONVERSATION_ID"`],
        { cwd: ROOT, env },
      );

      const links = stdout.match(new RegExp(`http://localhost:${port}/s/[\\w-]+`, "g")) ?? [];
      expect(links).toHaveLength(2);
      const [demoLink = "", apiLink = ""] = links;
      const demo = await openLink(demoLink);
      expect(demo.status).toBe(200);
      expect(demo.html).toContain("Remote control: functional design");
      expect(demo.html).toMatch(/id="summary"[\s\S]*?class="goto item-text"/);
      const page = await openLink(apiLink);
      expect(page.status).toBe(200);
      expect(page.html).toContain("Budget review");

      expect(stdout).toContain('"name":"Bob"');
      expect(stdout).toContain('"name":"Dana","email":"dana@example.com"');
      expect(stdout).toMatch(/"status":"completed"/);
      expect(stdout).toMatch(/\{"conversationId":"\d+","jobId":"[0-9a-f-]{36}"\}/);
      expect(stdout).toContain("Imported 14 messages");

      // The README's @symblai/api-client example, on the app and conversation the blocks made. (The
      // symbl-js one is not run: that package is not a dependency.)
      const [appId, appSecret, conversationId] = /set: (\w+) (\w+) (\d+)/.exec(stdout)?.slice(1) ?? [];
      const example = symblExamples()[0] ?? "";
      expect(example).toContain("@symblai/api-client");
      const client = await run(
        process.execPath,
        [
          "-e",
          `const [appId, appSecret, conversationId] = ${JSON.stringify([appId, appSecret, conversationId])};\n` +
            example.replaceAll("localhost:8080", `localhost:${port}`),
        ],
        { cwd: ROOT, env },
      );
      expect(client.stdout).toContain("name: 'Bob'");
      expect(client.stdout).toContain("name: 'Dana'");
    }, 180_000);
  },
);

describe("bin/recap demo before the server runs", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "recap-demo-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints a link that shows the meeting's summary once `npm start` runs, and reuses its app", async () => {
    const { env, port } = await embeddedEnv(dataDir);
    const first = await run(join(ROOT, "bin", "recap"), ["demo"], { env });
    const link = new RegExp(`http://localhost:${port}/s/[\\w-]+`).exec(first.stdout)?.[0] ?? "";
    const credentials = /appId (\w+), appSecret (\w+)/.exec(first.stdout);
    const conversationId = /conversationId (\d+)/.exec(first.stdout)?.[1] ?? "";
    expect(link).not.toBe("");
    expect(credentials).not.toBeNull();

    const server = await startServer(env);
    try {
      const base = `http://127.0.0.1:${port}`;
      const { accessToken } = (await generateToken(base, credentials?.[1] ?? "", credentials?.[2] ?? ""))
        .body;
      const { summary } = (
        await apiClient(base, accessToken).get<Body.SummaryList>(
          `/v1/conversations/${conversationId}/summary`,
        )
      ).body;
      expect(summary.length).toBeGreaterThan(0);

      const page = await openLink(link);
      expect(page.status).toBe(200);
      for (const item of summary) expect(page.html).toContain(escapeHtml(item.text));

      // A second run reuses the analysed meeting rather than adding a copy, and gives a new link to it.
      const second = await run(join(ROOT, "bin", "recap"), ["demo", "--json"], { env });
      const again = JSON.parse(second.stdout) as {
        appId: string;
        appSecret?: string;
        conversationId: string;
        url: string;
      };
      expect(again.appId).toBe(credentials?.[1]);
      expect(again.appSecret).toBeUndefined();
      expect(again.conversationId).toBe(conversationId);
      const listed = (await apiClient(base, accessToken).get<Body.ConversationList>("/v1/conversations"))
        .body;
      expect(listed.conversations.map((c) => c.id)).toEqual([conversationId]);
      const reopened = await openLink(again.url);
      expect(reopened.status).toBe(200);
      expect(reopened.html).toContain("Remote control: functional design");
      const third = await run(join(ROOT, "bin", "recap"), ["demo"], { env });
      expect(third.stdout).toContain(`the demo meeting already analysed (conversationId ${conversationId})`);
    } finally {
      await stopServer(server);
    }
  }, 180_000);
});

/** The README's path on the default embedded database: `npm start`, `bin/recap apps create`, the API. */
describe("a newcomer's first run", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "recap-newcomer-"));
  let env: NodeJS.ProcessEnv;
  let server: Child;
  let base = "";

  beforeAll(async () => {
    let port: number;
    ({ env, port } = await embeddedEnv(dataDir));
    base = `http://127.0.0.1:${port}`;
    server = await startServer(env);
  }, 90_000);

  afterAll(() => {
    server.process.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates an app with the CLI, gets a token, ingests a QMSum meeting and lists its speakers", async () => {
    expect(server.output()).toContain("bin/recap apps create");
    const created = await run(
      join(ROOT, "bin", "recap"),
      ["apps", "create", "--name", "Newcomer", "--json"],
      { env },
    );
    const { appId, appSecret } = JSON.parse(created.stdout) as { appId: string; appSecret: string };

    const tokenResponse = await generateToken(base, appId, appSecret);
    expect(tokenResponse.status).toBe(200);
    const api = apiClient(base, tokenResponse.body.accessToken);

    const meeting = loadMeeting("val", meetingFiles("val")[1] ?? "");
    const ingest = await api.post<Body.Accepted>("/v1/process/text", toProcessTextBody(meeting));
    expect(ingest.status).toBe(201);
    const { conversationId, jobId } = ingest.body;
    // The server is another process: its queue is watched from outside.
    let status = "";
    await until(
      async () => {
        status = (await api.get<Body.Job>(`/v1/job/${jobId}`)).body.status;
        return status === "completed" || status === "failed";
      },
      "the job to end",
      { tries: 300, everyMs: 100 },
    ).catch(() => undefined);
    expect(status).toBe("completed");
    const members = (await api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`)).body;
    expect(members.members.map((m) => m.name)).toEqual([
      ...new Set(spokenTurns(meeting).map((turn) => turn.speaker.trim())),
    ]);

    // The same database through the CLI: import a transcript file, then list, rotate and fail clearly.
    const vtt = join(dataDir, "standup.vtt");
    writeFileSync(
      vtt,
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Dana>Morning.\n\n00:00:02.000 --> 00:00:04.000\n<v Bob>Hi Dana.\n",
    );
    const imported = await run(join(ROOT, "bin", "recap"), ["import", vtt, "--app", appId, "--json"], {
      env,
    });
    const result = JSON.parse(imported.stdout) as {
      conversationId: string;
      status: string;
      messages: number;
    };
    expect(result).toMatchObject({ status: "completed", messages: 2 });
    const importedMembers = (
      await api.get<Body.MemberList>(`/v1/conversations/${result.conversationId}/members`)
    ).body;
    expect(importedMembers.members.map((m) => m.name)).toEqual(["Dana", "Bob"]);

    // A file breaking the API's input rules is refused as the API would refuse its body, and nothing is stored.
    const conversationCount = async () =>
      (await api.get<Body.ConversationList>("/v1/conversations")).body.conversations.length;
    const before = await conversationCount();
    const withNul = join(dataDir, "nul.vtt");
    writeFileSync(withNul, "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Dana>Morning\u0000.\n");
    const loneSurrogate = join(dataDir, "surrogate.json");
    writeFileSync(
      loneSurrogate,
      '{"messages":[{"payload":{"content":"Hi \\ud800 there."},"from":{"name":"Ann"}}]}',
    );
    await expect(
      run(join(ROOT, "bin", "recap"), ["import", withNul, "--app", appId], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${withNul}: body must not contain the NUL character`) as unknown,
    });
    const backwards = join(dataDir, "backwards.vtt");
    writeFileSync(
      backwards,
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Dana>Morning.\n\n00:00:05.000 --> 00:00:04.000\n<v Bob>Hi.\n",
    );
    await expect(
      run(join(ROOT, "bin", "recap"), ["import", backwards, "--app", appId], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${backwards}: cue 2 (00:00:05.000 --> 00:00:04.000) must not end before it starts`,
      ) as unknown,
    });
    await expect(
      run(join(ROOT, "bin", "recap"), ["import", loneSurrogate, "--app", appId], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        "messages[0].payload.content must not contain an unpaired UTF-16 surrogate",
      ) as unknown,
    });
    expect(await conversationCount()).toBe(before);

    const listed = await run(join(ROOT, "bin", "recap"), ["apps", "list", "--json"], { env });
    expect((JSON.parse(listed.stdout) as { appId: string }[]).map((a) => a.appId)).toEqual([appId]);

    const rotated = await run(join(ROOT, "bin", "recap"), ["apps", "rotate-secret", appId, "--json"], {
      env,
    });
    expect((JSON.parse(rotated.stdout) as { appSecret: string }).appSecret).not.toBe(appSecret);
    const old = await generateToken(base, appId, appSecret);
    expect(old.status).toBe(401);

    await expect(
      run(join(ROOT, "bin", "recap"), ["apps", "update", "nope", "--name", "x"], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("app not found") as unknown,
    });
  }, 120_000);

  it("shuts down cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) =>
      server.process.once("exit", (code) => resolve(code)),
    );
    const pid = Number(/"pid":(\d+)/.exec(server.output())?.[1]);
    process.kill(pid, "SIGTERM");
    expect(await exited).toBe(0);
    expect(server.output()).toContain("shutting down");
  }, 30_000);
});
