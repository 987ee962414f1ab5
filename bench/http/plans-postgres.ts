/**
 * The members route's queries on PostgreSQL with 1M conversations: a fresh database (dropped after) is
 * migrated as Recap does, filled from generate_series (one app, 1M conversations with one member each)
 * and analysed, and each query, caught through Kysely's log on the real repositories, is printed with
 * its EXPLAIN plan. Companion of bench/http/scale.ts, which does the same on SQLite.
 *
 * Usage: node --import tsx bench/http/plans-postgres.ts   (writes bench/results/http-scale-postgres.txt)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import type { Database } from "../../src/db/schema.ts";
import { AppsRepository } from "../../src/modules/apps/apps.repository.ts";
import { ConversationsRepository } from "../../src/modules/conversations/conversations.repository.ts";
import { createTestDatabase } from "../../test/helpers/databases.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const TOTAL = 1_000_000;

const database = await createTestDatabase("postgres");
if (database.target.dialect !== "postgres") throw new Error("expected a PostgreSQL database");
try {
  const handle = openDatabase(database.target);
  await handle.migrate();
  const start = performance.now();
  await sql`INSERT INTO apps (id, secret_hash, name, frame_ancestors, created_at, updated_at)
    VALUES ('bench-app', 'x', 'Bench', '', '2026-01-01', '2026-01-01')`.execute(handle.db);
  await sql`INSERT INTO conversations (id, app_id, name, start_time, metadata, created_at, updated_at)
    SELECT (1000000000000000 + i)::text, 'bench-app', 'Filler ' || i, '2026-01-01', '{}', '2026-01-01', '2026-01-01'
    FROM generate_series(1, ${TOTAL}) AS i`.execute(handle.db);
  await sql`INSERT INTO members (id, conversation_id, name, position, identity_key)
    SELECT md5(id), id, 'Speaker', 0, 'name:Speaker' FROM conversations`.execute(handle.db);
  await sql`ANALYZE`.execute(handle.db);
  const built = ((performance.now() - start) / 1000).toFixed(1);
  await handle.close();

  const queries: { sql: string; parameters: readonly unknown[] }[] = [];
  const pool = new pg.Pool({ connectionString: database.target.url, max: 1 });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => void queries.push(event.query),
  });
  const conversationId = String(1000000000000000 + TOTAL / 2);
  const generation = (await new AppsRepository(db).secretGeneration("bench-app")) ?? 0;
  // The route checks the generation inside its members query; this read only supplies the value.
  queries.length = 0;
  const members = await new ConversationsRepository(db).listMembersOfApp(
    "bench-app",
    generation,
    conversationId,
  );
  if (members?.length !== 1) throw new Error("the filled conversation is missing");
  const lines = [
    `# node --import tsx bench/http/plans-postgres.ts   (${new Date().toISOString()}; ${TOTAL} conversations built in ${built} s)`,
    "the members route's queries (as the repositories build them) and PostgreSQL's plan:",
  ];
  for (const query of [...queries]) {
    const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${query.sql}`, [
      ...query.parameters,
    ]);
    lines.push(`  ${query.sql}`, ...rows.map((row) => `    plan: ${row["QUERY PLAN"]}`));
  }
  await db.destroy();
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  writeFileSync(join(ROOT, "bench/results/http-scale-postgres.txt"), text);
} finally {
  await database.drop();
}
