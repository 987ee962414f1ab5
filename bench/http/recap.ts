/**
 * Recap as a user runs it, for bench/http/run.ts: the package's `start` command (without its `prestart`
 * client and server builds, done once by the bench) in a child process on an SQLite file, with default logging to a
 * file, then seeded through its own API and CLI: an app, a conversation of five members, and the largest
 * QMSum val meeting (Bed015) analysed, with a summary link to it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMeeting, toProcessTextBody } from "../../test/helpers/qmsum.ts";
import { until } from "../../test/helpers/wait.ts";

const ROOT = join(import.meta.dirname, "..", "..");
export const SECRET = "bench-secret-that-is-long-enough-for-recap-0123456789";

export interface RecapUnderTest {
  child: ChildProcess;
  url: string;
  token: string;
  membersPath: string;
  experiencesPath: string;
  pagePath: string;
  /** The Bed015 conversation and one of its members, whose PUT makes the page change. */
  meeting: { conversationId: string; member: { id: string; name: string; email?: string } };
}

/** The environment Recap runs with; the per-app limit is raised so the load measures work, not 429s. */
export function recapEnv(dir: string, database: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: database,
    RECAP_DATA_DIR: dir,
    RECAP_SECRET: SECRET,
    RECAP_PUBLIC_URL: `http://127.0.0.1:${port}`,
    RECAP_FONT_CATALOGUE_URL: "off",
    RECAP_RATE_LIMIT_PER_MINUTE: "10000000",
  };
}

/** Builds what `npm start`'s prestart builds: the page and console assets, and the server in dist/. */
export function buildRecap(): void {
  execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
  execFileSync("node", [join(ROOT, "scripts/build-server.mjs")]);
}

/** Starts `npm start`'s command (read from package.json) with its output going to `logFile`. */
export async function startRecap(env: NodeJS.ProcessEnv, logFile: string): Promise<ChildProcess> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const log = openSync(logFile, "a");
  const child = spawn("sh", ["-c", `exec ${pkg.scripts.start}`], {
    cwd: ROOT,
    env,
    stdio: ["ignore", log, log],
  });
  await until(() => readFileSync(logFile, "utf8").includes("Recap listening"), "Recap to listen", {
    tries: 1200,
    everyMs: 100,
  });
  return child;
}

async function call<T>(
  url: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      ...(init.token !== undefined && { authorization: `Bearer ${init.token}` }),
      ...(init.body !== undefined && { "content-type": "application/json" }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  if (response.status >= 300) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function ingest(url: string, token: string, body: unknown): Promise<string> {
  const { conversationId, jobId } = await call<{ conversationId: string; jobId: string }>(
    `${url}/v1/process/text`,
    { method: "POST", token, body },
  );
  await until(
    async () => (await call<{ status: string }>(`${url}/v1/job/${jobId}`, { token })).status === "completed",
    `job ${jobId}`,
    { tries: 1200, everyMs: 250 },
  );
  return conversationId;
}

/** Seeds a running Recap through its CLI (the app) and its API (token, conversations, link). */
export async function seedRecap(url: string, env: NodeJS.ProcessEnv): Promise<Omit<RecapUnderTest, "child">> {
  const created = execFileSync(join(ROOT, "bin/recap"), ["apps", "create", "--name", "Bench", "--json"], {
    env,
  });
  const { appId, appSecret } = JSON.parse(created.toString()) as { appId: string; appSecret: string };
  const { accessToken: token } = await call<{ accessToken: string }>(`${url}/oauth2/token:generate`, {
    method: "POST",
    body: { type: "application", appId, appSecret },
  });
  const people = ["Ann Lee", "Bob Stone", "Chen Wu", "Dara Okafor", "Eve Martin"];
  const small = await ingest(url, token, {
    name: "Five members",
    messages: people.map((name, i) => ({
      payload: { content: `${name} reports on item ${i + 1} and asks for the numbers by Friday.` },
      from: i === 4 ? { name } : { name, email: `${name.split(" ")[0]?.toLowerCase()}@example.com` },
    })),
  });
  const meetingId = await ingest(url, token, toProcessTextBody(loadMeeting("val", "Bed015.json")));
  const link = await call<{ url: string }>(`${url}/v1/conversations/${meetingId}/experiences`, {
    method: "POST",
    token,
    body: { name: "verbose-text-summary" },
  });
  const { members } = await call<{ members: { id: string; name: string; email?: string }[] }>(
    `${url}/v1/conversations/${meetingId}/members`,
    { token },
  );
  return {
    url,
    token,
    membersPath: `/v1/conversations/${small}/members`,
    experiencesPath: `/v1/conversations/${small}/experiences`,
    pagePath: new URL(link.url).pathname,
    meeting: { conversationId: meetingId, member: members[0] ?? { id: "", name: "" } },
  };
}
