/**
 * Search measured (docs/SEARCH.md, Speed), on each database in one run:
 * - a corpus of `--messages` lines (one million by default) in `--conversations` conversations (ten thousand), made
 *   from the QMSum meetings in datasets/qmsum: conversation i holds the turns from a place of its own in the
 *   meetings' turns, one after another, so each turn is said in several conversations; the conversations start a
 *   day apart or less over a year, with a member per speaker;
 * - indexing throughput: the corpus is written before migration 023; migrating then indexes it (the path an
 *   existing installation takes), and the rate of inserting 20,000 more lines with the triggers indexing them;
 * - the index's size on disk;
 * - query latency, p50 and p95 of `--runs` runs after warm-up, over HTTP through the whole app (GET /v1/search:
 *   auth, validation, parsing, the query, snippets, JSON) beside, in the same run and interleaved, the same SQL the
 *   repository sends run bare on the database's own driver (better-sqlite3, pg), for a common and a rare word, a
 *   phrase, a prefix and filters;
 * - what FTS5's tokenizers make of Chinese and Japanese: how many of the words Intl.Segmenter finds in the
 *   meetings of test/helpers/languages.ts a search for the word finds, with unicode61 as is, trigram, and the
 *   character-at-a-time text Recap indexes.
 *
 * Usage: npm run bench:search [-- --messages 1000000 --conversations 10000 --runs 40]
 * (writes bench/results/search.txt; PostgreSQL is RECAP_TEST_POSTGRES_URL, by default postgres://postgres@127.0.0.1:5432/test)
 */
import { statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from "kysely";
import pg from "pg";
import { loadMeeting, meetingFiles, spokenTurns } from "../../src/cli/qmsum.ts";
import { migrations, openDatabase } from "../../src/db/database.ts";
import type { Database } from "../../src/db/schema.ts";
import { searchText } from "../../src/db/search-text.ts";
import { parseSearchQuery } from "../../src/modules/search/search-query.ts";
import { SearchRepository, type SearchFilters } from "../../src/modules/search/search.repository.ts";
import { startTestServer } from "../../test/helpers/app.ts";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/databases.ts";
import { FOREIGN_MEETINGS } from "../../test/helpers/languages.ts";
import { appRow, conversationRow, messageRow } from "../../test/helpers/stored-rows.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    conversations: { type: "string", default: "10000" },
    runs: { type: "string", default: "40" },
    dialects: { type: "string", default: "sqlite,postgres" },
  },
});
const MESSAGES = Number(values.messages);
const CONVERSATIONS = Number(values.conversations);
const PER_CONVERSATION = Math.ceil(MESSAGES / CONVERSATIONS);
const RUNS = Number(values.runs);
const WARMUP = 5;
const APP_ID = "1000000000000001";
const YEAR_START = Date.parse("2026-01-01T09:00:00Z");

const lines: string[] = [];
const say = (text: string) => {
  lines.push(text);
  console.log(text);
};

// The corpus: every spoken QMSum turn, train then val.
const turns = (["train", "val"] as const).flatMap((split) =>
  meetingFiles(split).flatMap((file) => spokenTurns(loadMeeting(split, file))),
);

/** The words of the corpus by how many turns hold them, to pick a common and a rare one. */
function wordCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const turn of turns) {
    // QMSum marks noises and disfluencies as {vocalsound}, {disfmarker}: not words anyone searches for.
    const said = turn.content.toLowerCase().replace(/\{[a-z_]+\}/g, " ");
    for (const word of new Set(said.match(/[a-z]+/g) ?? [])) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}
const counts = wordCounts();
const byCount = [...counts].filter(([word]) => word.length >= 5).sort((a, b) => b[1] - a[1]);
const COMMON = byCount[0]?.[0] ?? "think";
const RARE = byCount.find(([word, count]) => count === 2 && word.length >= 7)?.[0] ?? "zebra";
const middle =
  byCount.find(([word, count]) => count < 200 && count > 100 && word.length >= 7)?.[0] ?? "budget";
const PREFIX = `${middle.slice(0, 5)}*`;

const turnOf = (conversation: number, index: number) => {
  const turn = turns[(conversation * 137 + index) % turns.length];
  if (!turn) throw new Error("no QMSum turns: is datasets/qmsum there?");
  return turn;
};
const startOf = (conversation: number) =>
  new Date(YEAR_START + Math.floor((conversation * 365 * 24 * 3600 * 1000) / CONVERSATIONS)).toISOString();

/** Writes the app, its conversations, members and lines straight into the tables, in batches. */
async function seed(
  db: Kysely<Database>,
  firstConversation: number,
  conversations: number,
  perConversation: number,
) {
  const now = new Date().toISOString();
  if (firstConversation === 0) {
    await db
      .insertInto("apps")
      .values(appRow({ id: APP_ID, at: now, name: "Bench" }))
      .execute();
  }
  const BATCH_CONVERSATIONS = 10;
  for (let c = firstConversation; c < firstConversation + conversations; c += BATCH_CONVERSATIONS) {
    await db.transaction().execute(async (trx) => {
      const last = Math.min(c + BATCH_CONVERSATIONS, firstConversation + conversations);
      const conversationRows = [];
      const memberRows = [];
      const messageRows = [];
      for (let n = c; n < last; n++) {
        const id = String(2000000000000000 + n);
        const start = startOf(n);
        conversationRows.push(conversationRow({ id, appId: APP_ID, start }));
        const members = new Map<string, string>();
        for (let i = 0; i < perConversation; i++) {
          const turn = turnOf(n, i);
          let member = members.get(turn.speaker);
          if (member === undefined) {
            member = `${id}${String(members.size).padStart(3, "0")}`;
            members.set(turn.speaker, member);
            memberRows.push({
              id: member,
              conversation_id: id,
              name: turn.speaker,
              email: null,
              user_id: null,
              position: members.size - 1,
              identity_key: `name:${turn.speaker.toLowerCase()}`,
            });
          }
          messageRows.push(
            messageRow({
              id: `${id}${String(i).padStart(5, "0")}`,
              conversationId: id,
              position: i,
              text: turn.content,
              fromName: turn.speaker,
              memberId: member,
              startTime: new Date(Date.parse(start) + i * 5000).toISOString(),
            }),
          );
        }
      }
      await trx.insertInto("conversations").values(conversationRows).execute();
      await trx.insertInto("members").values(memberRows).execute();
      for (let i = 0; i < messageRows.length; i += 1000) {
        await trx
          .insertInto("messages")
          .values(messageRows.slice(i, i + 1000))
          .execute();
      }
    });
  }
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (value: number) => value.toFixed(1).padStart(7);

interface Case {
  label: string;
  q: string;
  filters: SearchFilters;
  query: Record<string, string>;
}

const cases: Case[] = [
  { label: `common word "${COMMON}"`, q: COMMON, filters: {}, query: {} },
  { label: `rare word "${RARE}"`, q: RARE, filters: {}, query: {} },
  { label: 'phrase "we should"', q: '"we should"', filters: {}, query: {} },
  { label: `prefix ${PREFIX}`, q: PREFIX, filters: {}, query: {} },
  { label: "two words, one excluded", q: `${middle} -${COMMON}`, filters: {}, query: {} },
  {
    label: `"${COMMON}" + speaker + a month`,
    q: COMMON,
    filters: {
      speaker: { name: "Project Manager" },
      startsFrom: "2026-03-01T00:00:00.000Z",
      startsBefore: "2026-04-01T00:00:00.000Z",
    },
    query: { speaker: "Project Manager", from: "2026-03-01", to: "2026-03-31" },
  },
  {
    label: `"${COMMON}" in one conversation`,
    q: COMMON,
    filters: { conversationId: String(2000000000000000 + Math.floor(CONVERSATIONS / 2)) },
    query: { conversationId: String(2000000000000000 + Math.floor(CONVERSATIONS / 2)) },
  },
];

/** The SQL the repository sends for a case (one query, or two when the best matches alone cannot fill the page). */
async function compiledOf(target: TestDatabase["target"], c: Case) {
  const captured: CompiledQuery[] = [];
  const log = (event: { query: CompiledQuery }) => {
    captured.push(event.query);
  };
  const db =
    target.dialect === "sqlite"
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(target.path) }), log })
      : new Kysely<Database>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url, max: 1 }) }),
          log,
        });
  await new SearchRepository(db).hits(APP_ID, parseSearchQuery(c.q), c.filters, { limit: 21, offset: 0 });
  await db.destroy();
  return captured;
}

async function benchDialect(dialect: "sqlite" | "postgres") {
  say(`\n## ${dialect === "sqlite" ? "SQLite (FTS5)" : "PostgreSQL (tsvector, GIN)"}`);
  const testDb = await createTestDatabase(dialect);
  const handle = openDatabase(testDb.target);
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const before = await migrator.migrateTo("022_member_voices");
  if (before.error) throw before.error instanceof Error ? before.error : new Error("migration failed");

  let started = performance.now();
  await seed(handle.db, 0, CONVERSATIONS, PER_CONVERSATION);
  const seedSeconds = (performance.now() - started) / 1000;
  say(
    `corpus: ${(CONVERSATIONS * PER_CONVERSATION).toLocaleString("en")} lines in ${CONVERSATIONS.toLocaleString("en")} ` +
      `conversations written in ${seedSeconds.toFixed(0)} s without the index ` +
      `(${Math.round((CONVERSATIONS * PER_CONVERSATION) / seedSeconds).toLocaleString("en")} lines/s)`,
  );
  // The figures autovacuum (PostgreSQL) or an operator's ANALYZE would have given the planner by now.
  await sql`ANALYZE`.execute(handle.db);
  const sizeBefore = await sizeOf(testDb.target, handle.db);
  started = performance.now();
  const info = console.info;
  console.info = () => undefined;
  try {
    await handle.migrate();
  } finally {
    console.info = info;
  }
  const indexSeconds = (performance.now() - started) / 1000;
  say(
    `migrating indexed them in ${indexSeconds.toFixed(0)} s: ` +
      `${Math.round((CONVERSATIONS * PER_CONVERSATION) / indexSeconds).toLocaleString("en")} lines/s`,
  );
  const sizeAfter = await sizeOf(testDb.target, handle.db);
  say(
    `index on disk: ${(sizeAfter.index / 2 ** 20).toFixed(0)} MB (the database ${(sizeBefore.total / 2 ** 20).toFixed(0)} MB ` +
      `before, ${(sizeAfter.total / 2 ** 20).toFixed(0)} MB after; the lines' text ${(sizeAfter.text / 2 ** 20).toFixed(0)} MB)`,
  );
  started = performance.now();
  await seed(handle.db, CONVERSATIONS, 20, 1000);
  const insertSeconds = (performance.now() - started) / 1000;
  say(
    `20,000 more lines with the triggers indexing them: ${Math.round(20_000 / insertSeconds).toLocaleString("en")} lines/s`,
  );
  await handle.close();

  const server = await startTestServer(dialect, { testDatabase: testDb, runJobs: false });
  const { accessToken } = server.services.tokens.issue(APP_ID, 0);
  const target = testDb.target;
  const raw = target.dialect === "sqlite" ? new SQLite(target.path, { readonly: true }) : null;
  const client = target.dialect === "postgres" ? new pg.Client({ connectionString: target.url }) : null;
  await client?.connect();
  say(`\nquery (limit 20)                          hits   HTTP p50    p95   bare SQL p50    p95`);
  for (const c of cases) {
    const compiled = await compiledOf(testDb.target, c);
    const statements = compiled.map((query) => ({
      sql: query.sql,
      parameters: query.parameters as unknown[],
      prepared: raw?.prepare(query.sql),
    }));
    const bare = async () => {
      for (const { sql: text, parameters, prepared } of statements) {
        if (prepared) prepared.all(...parameters);
        else await client?.query(text, parameters);
      }
    };
    const url = `${server.url}/v1/search?${new URLSearchParams({ q: c.q, ...c.query })}`;
    let hits = 0;
    const viaHttp = async () => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
      const body = (await response.json()) as { results?: unknown[]; message?: string };
      if (response.status !== 200) throw new Error(`${c.label}: ${response.status} ${body.message}`);
      hits = body.results?.length ?? 0;
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaHttp();
      await bare();
    }
    const http: number[] = [];
    const sqlOnly: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let start = performance.now();
      await viaHttp();
      http.push(performance.now() - start);
      start = performance.now();
      await bare();
      sqlOnly.push(performance.now() - start);
    }
    say(
      `${c.label.padEnd(40)} ${String(hits).padStart(5)} ${ms(percentile(http, 50))} ${ms(percentile(http, 95))}` +
        `        ${ms(percentile(sqlOnly, 50))} ${ms(percentile(sqlOnly, 95))}`,
    );
  }
  raw?.close();
  await client?.end();
  await server.close();
  await testDb.drop();
}

/** The whole database's size, the search index's and the lines' text, in bytes. */
async function sizeOf(target: TestDatabase["target"], db: Kysely<Database>) {
  if (target.dialect === "sqlite") {
    const file = new SQLite(target.path, { readonly: true });
    const page = file.pragma("page_size", { simple: true }) as number;
    const pages = file.pragma("page_count", { simple: true }) as number;
    const index = file
      .prepare("SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE 'message_search%'")
      .get() as { bytes: number };
    const text = file
      .prepare("SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM messages")
      .get() as {
      bytes: number;
    };
    file.close();
    const wal = (() => {
      try {
        return statSync(`${target.path}-wal`).size;
      } catch {
        return 0;
      }
    })();
    return { total: page * pages + wal, index: index.bytes, text: text.bytes };
  }
  const { rows } = await sql<{ total: string; index: string; text: string }>`SELECT
      pg_database_size(current_database()) AS total,
      coalesce(pg_total_relation_size(to_regclass('message_search')), 0) AS index,
      (SELECT coalesce(sum(octet_length(text)), 0) FROM messages) AS text`.execute(db);
  const row = rows[0];
  return { total: Number(row?.total), index: Number(row?.index), text: Number(row?.text) };
}

/** Chinese and Japanese words findable with each FTS5 tokenizer. */
function cjkFindability() {
  say("\n## Chinese and Japanese words a search finds, by FTS5 tokenizer");
  const japanese = [
    "明日の会議室の予約をお願いします。",
    "来週の月曜日までに予算を顧客に送る必要があります。",
    "新製品の発表計画について話し合いましょう。",
    "田中さんが資料を準備します。",
  ];
  const sets: [string, string, string[]][] = [
    ["Chinese (zh-CN meeting)", "zh", FOREIGN_MEETINGS["zh-CN"] ?? []],
    ["Japanese", "ja", japanese],
  ];
  const tokenizers: [string, string, (text: string) => string][] = [
    ["unicode61 (FTS5's default)", "unicode61", (text) => text],
    ["trigram", "trigram", (text) => text],
    ["Recap: a character at a time", "unicode61 remove_diacritics 2 categories 'L* N* Co M*'", searchText],
  ];
  for (const [label, locale, sentences] of sets) {
    const segmenter = new Intl.Segmenter(locale, { granularity: "word" });
    const words = [
      ...new Set(
        sentences.flatMap((sentence) =>
          [...segmenter.segment(sentence)].filter((s) => s.isWordLike).map((s) => s.segment),
        ),
      ),
    ];
    const short = words.filter((word) => [...word].length < 3).length;
    const results = tokenizers.map(([name, tokenize, prepare]) => {
      const db = new SQLite(":memory:");
      db.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize="${tokenize}")`);
      const insert = db.prepare("INSERT INTO t (rowid, text) VALUES (?, ?)");
      sentences.forEach((sentence, i) => insert.run(i + 1, prepare(sentence)));
      const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ?");
      const found = words.filter((word) => {
        const rows = match.all(`"${prepare(word).trim().replaceAll('"', '""')}"`) as { rowid: number }[];
        return rows.some(({ rowid }) => sentences[rowid - 1]?.includes(word));
      }).length;
      db.close();
      return `${name} ${found}/${words.length}`;
    });
    say(`${label}, ${words.length} words (${short} of one or two characters): ${results.join(", ")}`);
  }
}

say(
  `# npm run bench:search (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores: ${cpus()[0]?.model ?? ""})`,
);
say(
  `corpus: ${turns.length.toLocaleString("en")} QMSum turns, ${PER_CONVERSATION} a conversation; ` +
    `the common word is in ${(((counts.get(COMMON) ?? 0) / turns.length) * 100).toFixed(0)}% of them, the rare one in ${counts.get(RARE)} turns`,
);
cjkFindability();
for (const dialect of (values.dialects ?? "").split(",") as ("sqlite" | "postgres")[])
  await benchDialect(dialect);
writeFileSync(resolve(ROOT, "bench/results/search.txt"), `${lines.join("\n")}\n`);
