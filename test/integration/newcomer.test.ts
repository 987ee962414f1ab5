import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMeeting, meetingFiles, spokenTurns, toProcessTextBody } from "../helpers/qmsum.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The README's path on the default embedded database: `npm start`, `bin/recap apps create`, the API. */
describe("a newcomer's first run", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "recap-newcomer-"));
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess;
  let base = "";
  let output = "";

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      PORT: String(port),
      RECAP_DATA_DIR: dataDir,
      NODE_ENV: "development",
      DATABASE_URL: "",
    };
    server = spawn("npm", ["start", "--silent"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    for (let i = 0; i < 600 && !output.includes("Recap listening on"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain("Recap listening on");
  }, 90_000);

  afterAll(() => {
    server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates an app with the CLI, gets a token, ingests a QMSum meeting and lists its speakers", async () => {
    expect(output).toContain("bin/recap apps create");
    const created = await run(
      join(ROOT, "bin", "recap"),
      ["apps", "create", "--name", "Newcomer", "--json"],
      { env },
    );
    const { appId, appSecret } = JSON.parse(created.stdout) as { appId: string; appSecret: string };

    const tokenResponse = await fetch(`${base}/oauth2/token:generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "application", appId, appSecret }),
    });
    expect(tokenResponse.status).toBe(200);
    const { accessToken } = (await tokenResponse.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };

    const meeting = loadMeeting("val", meetingFiles("val")[1] ?? "");
    const ingest = await fetch(`${base}/v1/process/text`, {
      method: "POST",
      headers,
      body: JSON.stringify(toProcessTextBody(meeting)),
    });
    expect(ingest.status).toBe(201);
    const { conversationId, jobId } = (await ingest.json()) as { conversationId: string; jobId: string };
    let status = "";
    for (let i = 0; i < 300 && status !== "completed" && status !== "failed"; i++) {
      status = ((await (await fetch(`${base}/v1/job/${jobId}`, { headers })).json()) as { status: string })
        .status;
      if (status !== "completed") await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe("completed");
    const members = (await (
      await fetch(`${base}/v1/conversations/${conversationId}/members`, { headers })
    ).json()) as {
      members: { name: string }[];
    };
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
    const importedMembers = (await (
      await fetch(`${base}/v1/conversations/${result.conversationId}/members`, { headers })
    ).json()) as { members: { name: string }[] };
    expect(importedMembers.members.map((m) => m.name)).toEqual(["Dana", "Bob"]);

    const listed = await run(join(ROOT, "bin", "recap"), ["apps", "list", "--json"], { env });
    expect((JSON.parse(listed.stdout) as { appId: string }[]).map((a) => a.appId)).toEqual([appId]);

    const rotated = await run(join(ROOT, "bin", "recap"), ["apps", "rotate-secret", appId, "--json"], {
      env,
    });
    expect((JSON.parse(rotated.stdout) as { appSecret: string }).appSecret).not.toBe(appSecret);
    const old = await fetch(`${base}/oauth2/token:generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "application", appId, appSecret }),
    });
    expect(old.status).toBe(401);

    await expect(
      run(join(ROOT, "bin", "recap"), ["apps", "update", "nope", "--name", "x"], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("app not found") as unknown,
    });
  }, 120_000);

  it("shuts down cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    const pid = Number(/"pid":(\d+)/.exec(output)?.[1]);
    process.kill(pid, "SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("shutting down");
  }, 30_000);
});
