/**
 * The members route's p99 with 1k and with 1M conversations in the database (each with one member),
 * bulk-loaded straight into the SQLite files of two Recaps, one per size, whose runs alternate; the ratio
 * is taken within each round.
 *
 * Usage: node --import tsx bench/http/scale.ts [--runs 6 --seconds 5]   (writes bench/results/http-scale.txt)
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../../test/helpers/wait.ts";
import { median } from "../timing.ts";
import { load, type Run } from "./load.ts";
import { recapEnv, seedRecap, startRecap } from "./recap.ts";
import { openLikeRecap } from "./statements.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const { values } = parseArgs({ options: { runs: { type: "string" }, seconds: { type: "string" } } });
const RUNS = Number(values.runs ?? 6);
const SECONDS = Number(values.seconds ?? 5);

/** Adds conversations (one member each) to the app until the database holds `total`. */
function fillTo(file: string, total: number): void {
  const db = openLikeRecap(file);
  const appId = (db.prepare("SELECT id FROM apps LIMIT 1").get() as { id: string }).id;
  const have = (db.prepare("SELECT count(*) AS n FROM conversations").get() as { n: number }).n;
  const conversation = db.prepare(
    `INSERT INTO conversations (id, app_id, name, start_time, metadata, created_at, updated_at)
     VALUES (?, ?, ?, ?, '{}', ?, ?)`,
  );
  const member = db.prepare(
    "INSERT INTO members (id, conversation_id, name, position, identity_key) VALUES (?, ?, ?, 0, ?)",
  );
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  db.transaction(() => {
    for (let i = have; i < total; i++) {
      const id = String(9_000_000_000_000_000 + i);
      conversation.run(id, appId, `Filler ${i}`, at, at, at);
      member.run(`m${id}`, id, "Speaker", "name:speaker");
    }
  })();
  db.close();
}

const dir = mkdtempSync(join(tmpdir(), "recap-bench-scale-"));
const children: ChildProcess[] = [];
try {
  execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
  // One Recap per size, each on its own file, so the runs can alternate between them.
  const sizes = [1_000, 1_000_000];
  const targets = [];
  for (const total of sizes) {
    const port = await freePort();
    const file = join(dir, `recap-${total}.db`);
    const env = recapEnv(dir, `sqlite:${file}`, port);
    children.push(await startRecap(env, join(dir, `recap-${total}.log`)));
    const recap = await seedRecap(`http://127.0.0.1:${port}`, env);
    fillTo(file, total);
    targets.push({
      server: String(total),
      url: recap.url + recap.membersPath,
      connections: 50,
      headers: { authorization: `Bearer ${recap.token}` },
    });
  }
  for (const target of targets) await load(target, 2);
  const results: Record<string, Run[]> = {};
  for (let round = 0; round < RUNS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      (results[target.server] ??= []).push(await load(target, SECONDS));
    }
  }
  const [small = [], large = []] = sizes.map((total) => results[String(total)] ?? []);
  const p99 = (runs: Run[]) => median(runs.map((run) => run.p99));
  const perRound = large.map((run, i) => run.p99 / (small[i]?.p99 ?? Number.NaN));
  const lines = [
    `# node --import tsx bench/http/scale.ts --runs ${RUNS} --seconds ${SECONDS}   (${new Date().toISOString()})`,
    ...sizes.map(
      (total) =>
        `${String(total).padStart(7)} conversations: p99 median ${p99(results[String(total)] ?? [])} ms   ` +
        `runs (req/s/p50/p99): ` +
        (results[String(total)] ?? [])
          .map((r) => `${r.requestsPerSecond.toFixed(0)}/${r.p50}/${r.p99}`)
          .join("  "),
    ),
    `members p99 with 1M ÷ with 1k: median ${median(perRound).toFixed(2)}   rounds: ` +
      perRound.map((x) => x.toFixed(2)).join(" "),
  ];
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  writeFileSync(join(ROOT, "bench/results/http-scale.txt"), text);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dir, { recursive: true, force: true });
}
