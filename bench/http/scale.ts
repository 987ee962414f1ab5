/**
 * The members route's p99 with 1k and with 1M conversations in the database. Recap is seeded once through
 * its CLI and API (seedRecap) and stopped; its SQLite file is copied twice and each copy filled in one
 * INSERT … SELECT from a recursive CTE to 1k and 1M conversations (random ids like Recap's, one member
 * each, through every index the migrations made) and checkpointed. Two Recaps, one per file, then take
 * alternating autocannon runs after a warm-up; the p99 ratio is taken within each round. The route's
 * queries (caught through Kysely's log on the real repositories) are printed with SQLite's
 * EXPLAIN QUERY PLAN on the 1M file.
 *
 * Usage: npm run bench:http:scale [-- --rounds 12 --seconds 4]   (writes bench/results/http-scale.txt)
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "../../src/db/schema.ts";
import { AppsRepository } from "../../src/modules/apps/apps.repository.ts";
import { ConversationsRepository } from "../../src/modules/conversations/conversations.repository.ts";
import { freePort } from "../../test/helpers/wait.ts";
import { median } from "../timing.ts";
import { load, type Run, type Target } from "./load.ts";
import { buildRecap, recapEnv, seedRecap, startRecap } from "./recap.ts";
import { openLikeRecap } from "./statements.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const { values } = parseArgs({ options: { rounds: { type: "string" }, seconds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 12);
const SECONDS = Number(values.seconds ?? 4);
const SIZES = [1_000, 1_000_000];

/** Folds the write-ahead log into the file and empties it, so reads do not walk a large WAL. */
function checkpoint(file: string): void {
  const db = openLikeRecap(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/**
 * Adds filler conversations (random 16-digit ids like Recap's) with one member each until the file holds
 * `total` conversations. A build step: no journal, no syncs and a large page cache, then back to WAL.
 */
function fillTo(file: string, total: number): void {
  const db = new SQLite(file);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000");
  const appId = (db.prepare("SELECT id FROM apps LIMIT 1").get() as { id: string }).id;
  const have = (db.prepare("SELECT count(*) AS n FROM conversations").get() as { n: number }).n;
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  db.transaction(() => {
    db.prepare(
      `INSERT OR IGNORE INTO conversations (id, app_id, name, start_time, metadata, created_at, updated_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       SELECT CAST(1000000000000000 + abs(random() % 9000000000000000) AS TEXT), ?, 'Filler ' || i, ?, '{}', ?, ?
       FROM n`,
    ).run(total - have, appId, at, at, at);
    db.prepare(
      `INSERT INTO members (id, conversation_id, name, position, identity_key)
       SELECT lower(hex(randomblob(16))), id, 'Speaker', 0, 'name:Speaker' FROM conversations
       WHERE name LIKE 'Filler %'`,
    ).run();
    db.prepare(
      `INSERT OR IGNORE INTO member_identities (conversation_id, identity_key, member_id)
       SELECT conversation_id, identity_key, id FROM members WHERE name = 'Speaker' AND position = 0
       AND identity_key = 'name:Speaker'`,
    ).run();
  })();
  db.pragma("journal_mode = WAL");
  db.close();
}

/** The members route's queries as the repositories build them, each with its plan on `file`. */
async function plans(file: string, appId: string, conversationId: string): Promise<string[]> {
  const queries: { sql: string; parameters: readonly unknown[] }[] = [];
  const sqlite = new SQLite(file, { readonly: true });
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void queries.push(event.query),
  });
  const generation = await new AppsRepository(db).secretGeneration(appId);
  // The route checks the generation inside its members query; this read only supplies the value.
  queries.length = 0;
  const members = await new ConversationsRepository(db).listMembersOfApp(
    appId,
    generation ?? 0,
    conversationId,
  );
  if (generation === undefined || members === undefined)
    throw new Error("the seeded conversation is missing");
  const lines = queries.flatMap(({ sql, parameters }) => [
    `  ${sql}`,
    ...(sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map(
      (row) => `    plan: ${row.detail}`,
    ),
  ]);
  await db.destroy();
  return lines;
}

const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
const dir = mkdtempSync(join(tmpdir(), "recap-bench-scale-"));
const children: ChildProcess[] = [];
try {
  buildRecap();
  const seedFile = join(dir, "seed.db");
  const seedPort = await freePort();
  const seedEnv = recapEnv(join(dir, "seed"), `sqlite:${seedFile}`, seedPort);
  const seeder = await startRecap(seedEnv, join(dir, "seed.log"));
  const seeded = await seedRecap(`http://127.0.0.1:${seedPort}`, seedEnv);
  await new Promise((resolve) => seeder.once("exit", resolve).kill("SIGTERM"));
  checkpoint(seedFile);
  const conversationId = seeded.membersPath.split("/")[3] ?? "";
  const appId = (
    JSON.parse(Buffer.from(seeded.token.split(".")[1] ?? "", "base64url").toString()) as { sub: string }
  ).sub;

  const targets: Target[] = [];
  const built: string[] = [];
  let plan: string[] = [];
  for (const total of SIZES) {
    const file = join(dir, `recap-${total}.db`);
    copyFileSync(seedFile, file);
    const start = performance.now();
    fillTo(file, total);
    built.push(
      `${total} conversations built in ${((performance.now() - start) / 1000).toFixed(1)} s, ` +
        `${(statSync(file).size / 1e6).toFixed(0)} MB`,
    );
    if (total === Math.max(...SIZES)) plan = await plans(file, appId, conversationId);
    const port = await freePort();
    const env = recapEnv(join(dir, String(total)), `sqlite:${file}`, port);
    children.push(await startRecap(env, join(dir, `recap-${total}.log`)));
    targets.push({
      server: String(total),
      url: `http://127.0.0.1:${port}${seeded.membersPath}`,
      connections: 50,
      headers: { authorization: `Bearer ${seeded.token}` },
    });
  }
  for (const target of targets) await load(target, 3);
  const results: Record<string, Run[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      (results[target.server] ??= []).push(await load(target, SECONDS));
    }
    process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const [small = [], large = []] = SIZES.map((total) => results[String(total)] ?? []);
  const ratio = (what: string, measure: (run: Run) => number) => {
    const per = large.map((run, i) => measure(run) / measure(small[i]!));
    return `members ${what} with 1M ÷ with 1k: median ${median(per).toFixed(2)}   rounds: ${per.map((x) => x.toFixed(2)).join(" ")}`;
  };
  const lines = [
    `# npm run bench:http:scale -- --rounds ${ROUNDS} --seconds ${SECONDS}`,
    `# ${new Date().toISOString()}, commit ${commit}, node ${process.version}, ${cpus().length} cpus (shared), ` +
      `two Recaps as \`npm start\` (NODE_ENV=production, SQLite), 50 connections, a 3 s warm-up each`,
    `# ${built.join("; ")}`,
    "",
    ...SIZES.map((total) => {
      const runs = results[String(total)] ?? [];
      return (
        `${String(total).padStart(7)} conversations: median ${median(runs.map((r) => r.requestsPerSecond)).toFixed(0)} req/s, ` +
        `p99 ${median(runs.map((r) => r.p99))} ms   runs (req/s/p50/p99): ` +
        runs.map((r) => `${r.requestsPerSecond.toFixed(0)}/${r.p50}/${r.p99}`).join("  ")
      );
    }),
    ratio("p99", (run) => run.p99),
    ratio("req/s", (run) => run.requestsPerSecond),
    "",
    "the route's queries (as the repositories build them) and SQLite's plan on the 1M file:",
    ...plan,
  ];
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  writeFileSync(join(ROOT, "bench/results/http-scale.txt"), text);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dir, { recursive: true, force: true });
}
