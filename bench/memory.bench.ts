/**
 * Recap's resident memory at rest and after load (issue 35, item 11; docs/OPERATIONS.md, Performance): `npm start`'s
 * command in a child process on a fresh SQLite file, its VmRSS read from /proc idle after start, after seeding (Bed015
 * analysed) and after each round of members requests; beside it, in the same run, the minimal node:http server of
 * bench/http doing the members work, as the floor a Node process of this kind sits at on this machine.
 * `node --import tsx bench/memory.bench.ts [--rounds 3] [--write]` (→ bench/results/memory.txt).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { freePort, until } from "../test/helpers/wait.ts";
import { getRaw, load, rssMb } from "./http/load.ts";
import { buildRecap, recapEnv, SECRET, seedRecap, startRecap } from "./http/recap.ts";

const ROOT = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { rounds: { type: "string", default: "3" }, write: { type: "boolean", default: false } },
});
const ROUNDS = Number(values.rounds);
/** How long a process is left alone before its idle figure is read: start-up garbage is collected by then. */
const SETTLE_MS = 8000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The median of a few readings a second apart, so one collection in flight does not make the figure. */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) {
    readings.push(rssMb(pid));
    await sleep(1000);
  }
  return median(readings);
}

const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
const dir = mkdtempSync(join(tmpdir(), "recap-bench-memory-"));
const children: ChildProcess[] = [];
try {
  buildRecap();
  const [recapPort, minimalPort] = [await freePort(), await freePort()];
  const dbFile = join(dir, "recap.db");
  const env = recapEnv(dir, `sqlite:${dbFile}`, recapPort);
  const recapProcess = await startRecap(env, join(dir, "recap.log"));
  children.push(recapProcess);
  const recapPid = recapProcess.pid ?? 0;
  await sleep(SETTLE_MS);
  const idle = await settledRss(recapPid);
  const recap = await seedRecap(`http://127.0.0.1:${recapPort}`, env);
  const seeded = await settledRss(recapPid);

  writeFileSync(join(dir, "page.html"), "");
  const minimal = spawn("node", ["--import", "tsx", join(ROOT, "bench/http/minimal.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_DB: dbFile,
      BENCH_SECRET: SECRET,
      BENCH_PUBLIC_URL: recap.url,
      BENCH_PAGE_FILE: join(dir, "page.html"),
      BENCH_PORT: String(minimalPort),
    },
    stdio: "ignore",
  });
  children.push(minimal);
  const minimalUrl = `http://127.0.0.1:${minimalPort}`;
  await until(
    async () => (await getRaw(`${minimalUrl}/s/x`).catch(() => ({ status: 0 }))).status === 200,
    "minimal",
  );
  await sleep(SETTLE_MS);
  const minimalIdle = await settledRss(minimal.pid ?? 0);

  const headers = { authorization: `Bearer ${recap.token}` };
  const afterMembers: number[] = [];
  const minimalAfter: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await load({ server: "recap", url: recap.url + recap.membersPath, connections: 50, headers }, 5);
    afterMembers.push(await settledRss(recapPid));
    await load({ server: "minimal", url: minimalUrl + recap.membersPath, connections: 50, headers }, 5);
    minimalAfter.push(await settledRss(minimal.pid ?? 0));
  }

  const lines = [
    `# node --import tsx bench/memory.bench.ts --rounds ${ROUNDS}`,
    `# ${new Date().toISOString()}, commit ${commit}, node ${process.version}`,
    "resident memory (VmRSS, MB)   Recap   minimal node:http   Recap ÷ minimal   target",
    `idle after start              ${idle.toFixed(0).padStart(5)}   ${minimalIdle.toFixed(0).padStart(17)}   ${(idle / minimalIdle).toFixed(2).padStart(15)}   < 120`,
    `after seeding (Bed015)        ${seeded.toFixed(0).padStart(5)}`,
    `after members (max of rounds) ${Math.max(...afterMembers)
      .toFixed(0)
      .padStart(5)}   ${Math.max(...minimalAfter)
      .toFixed(0)
      .padStart(
        17,
      )}   ${(Math.max(...afterMembers) / Math.max(...minimalAfter)).toFixed(2).padStart(15)}   < 150`,
    `rounds: Recap ${afterMembers.map((x) => x.toFixed(0)).join(" ")}; minimal ${minimalAfter.map((x) => x.toFixed(0)).join(" ")}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (values.write) writeFileSync(join(ROOT, "bench/results/memory.txt"), `${lines.join("\n")}\n`);
} finally {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
}
