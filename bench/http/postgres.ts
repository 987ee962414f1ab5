/**
 * Recap's members route on PostgreSQL beside a minimal node:http + `pg` server doing the same work
 * (minimal-pg.ts) and bare Fastify doing it with Recap's log line (fastify.ts, the floor of a Fastify
 * service): Recap started as `npm start` with DATABASE_URL on a fresh PostgreSQL database (dropped at the
 * end), seeded through its CLI and API; the answers compared byte for byte, then interleaved autocannon
 * rounds, ratios within each round, medians, and each node process's CPU time per request (PostgreSQL's own
 * is not counted).
 *
 * Usage: npm run bench:http:postgres [-- --rounds 6 --seconds 5]   (writes bench/results/http-postgres.txt;
 * the server is RECAP_TEST_POSTGRES_URL, by default postgres://postgres@127.0.0.1:5432/test)
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase } from "../../test/helpers/databases.ts";
import { freePort, until } from "../../test/helpers/wait.ts";
import { median } from "../timing.ts";
import { getRaw, load, type Run, type Target } from "./load.ts";
import { buildRecap, recapEnv, SECRET, seedRecap, startRecap } from "./recap.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const { values } = parseArgs({ options: { rounds: { type: "string" }, seconds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 6);
const SECONDS = Number(values.seconds ?? 5);

const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
const dir = mkdtempSync(join(tmpdir(), "recap-bench-pg-"));
const database = await createTestDatabase("postgres");
if (database.target.dialect !== "postgres") throw new Error("expected a PostgreSQL database");
const databaseUrl = database.target.url;
const children: ChildProcess[] = [];
try {
  buildRecap();
  const [recapPort, minimalPort] = [await freePort(), await freePort()];
  const env = recapEnv(dir, databaseUrl, recapPort);
  const recapServer = await startRecap(env, join(dir, "recap.log"));
  children.push(recapServer);
  const recap = await seedRecap(`http://127.0.0.1:${recapPort}`, env);
  /** Starts a bench server on the database; its standard output (Fastify's request log) goes to a file. */
  const startBenchServer = async (file: string, port: number): Promise<ChildProcess> => {
    const child = spawn("node", ["--import", "tsx", join(import.meta.dirname, file)], {
      cwd: ROOT,
      env: {
        ...process.env,
        BENCH_DATABASE_URL: databaseUrl,
        BENCH_SECRET: SECRET,
        BENCH_PORT: String(port),
      },
      stdio: ["ignore", openSync(join(dir, `${file}.log`), "a"), "ignore"],
    });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await until(async () => (await getRaw(url + "/").catch(() => ({ status: 0 }))).status === 404, file);
    return child;
  };
  const fastifyPort = await freePort();
  const minimalServer = await startBenchServer("minimal-pg.ts", minimalPort);
  const fastifyServer = await startBenchServer("fastify.ts", fastifyPort);
  const minimal = `http://127.0.0.1:${minimalPort}`;
  const fastify = `http://127.0.0.1:${fastifyPort}`;
  const expected = await getRaw(recap.url + recap.membersPath, recap.token);
  for (const base of [minimal, fastify]) {
    const got = await getRaw(base + recap.membersPath, recap.token);
    if (
      expected.status !== 200 ||
      !expected.body.toString().includes('"members":[{') ||
      !got.body.equals(expected.body)
    ) {
      throw new Error(
        `${base} does not answer Recap's bytes: ${got.body.toString()} vs ${expected.body.toString()}`,
      );
    }
  }

  const headers = { authorization: `Bearer ${recap.token}` };
  const targets: Target[] = [
    { server: "recap", url: recap.url + recap.membersPath, connections: 50, headers, pid: recapServer.pid },
    {
      server: "minimal-pg",
      url: minimal + recap.membersPath,
      connections: 50,
      headers,
      pid: minimalServer.pid,
    },
    { server: "fastify", url: fastify + recap.membersPath, connections: 50, headers, pid: fastifyServer.pid },
  ];
  for (const target of targets) await load(target, 5);
  const runs: Record<string, Run[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      (runs[target.server] ??= []).push(await load(target, SECONDS));
    }
    process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
  }

  const cpu = (r: Run) => r.cpuPerRequest ?? Number.NaN;
  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
  const lines = [
    `# npm run bench:http:postgres -- --rounds ${ROUNDS} --seconds ${SECONDS}`,
    `# ${new Date().toISOString()}, commit ${commit}, node ${process.version}, ${cpus().length} cpus (shared, ` +
      `PostgreSQL on the same machine), Recap started as \`npm start\` (NODE_ENV=production, DATABASE_URL ` +
      `postgres://…, LOG_LEVEL info to a file)`,
    `# members: ${ROUNDS} interleaved rounds of ${SECONDS} s per server, 50 connections`,
    "",
  ];
  for (const [server, list] of Object.entries(runs)) {
    const each = list.map((r) => `${fmt(r.requestsPerSecond)}/${r.p50}/${r.p99}`).join("  ");
    lines.push(
      `${server.padEnd(10)} median ${fmt(median(list.map((r) => r.requestsPerSecond)))} req/s, ` +
        `p50 ${median(list.map((r) => r.p50))} ms, p99 ${median(list.map((r) => r.p99))} ms, ` +
        `node's CPU ${median(list.map(cpu)).toFixed(0)} µs/request` +
        `   runs (req/s/p50/p99): ${each}`,
    );
  }
  const ratio = (what: string, measure: (r: Run) => number, server = "recap", base = "minimal-pg") => {
    const per = (runs[server] ?? []).map((run, i) => measure(run) / measure(runs[base]![i]!));
    lines.push(
      `members ${what} ${server} ÷ ${base}: median ${median(per).toFixed(2)}   rounds: ${per.map((x) => x.toFixed(2)).join(" ")}`,
    );
  };
  ratio("req/s", (r) => r.requestsPerSecond);
  ratio("req/s", (r) => r.requestsPerSecond, "fastify");
  ratio("req/s", (r) => r.requestsPerSecond, "recap", "fastify");
  ratio("p99", (r) => r.p99);
  ratio("node's CPU µs/request", cpu);
  ratio("node's CPU µs/request", cpu, "fastify");
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  writeFileSync(join(ROOT, "bench/results/http-postgres.txt"), text);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
