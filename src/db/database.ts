import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type Migration,
  type MigrationProvider,
  type PostgresPool,
  type PostgresPoolClient,
} from "kysely";
import type { Pool } from "pg";
import * as initial from "./migrations/001_initial.ts";
import * as insightEdits from "./migrations/002_insight_edits.ts";
import * as webhooksAndRotation from "./migrations/003_webhooks_and_rotation.ts";
import * as jobFencing from "./migrations/004_job_fencing.ts";
import * as insightMembers from "./migrations/005_insight_members.ts";
import * as topicKinds from "./migrations/006_topic_kinds.ts";
import * as analysisEngines from "./migrations/007_analysis_engines.ts";
import * as trackers from "./migrations/008_trackers.ts";
import * as linkLabels from "./migrations/009_link_labels.ts";
import * as linkViews from "./migrations/010_link_views.ts";
import * as contentVersion from "./migrations/011_content_version.ts";
import * as language from "./migrations/012_language.ts";
import * as consoleSessionsAndBrand from "./migrations/013_console_sessions_and_brand.ts";
import * as uniqueCustomDomain from "./migrations/014_unique_custom_domain.ts";
import * as media from "./migrations/015_media.ts";
import * as decisions from "./migrations/016_decisions.ts";
import * as liveStreams from "./migrations/018_live_streams.ts";
import * as decisionsEngine from "./migrations/019_decisions_engine.ts";
import * as jobStages from "./migrations/020_job_stages.ts";
import * as voiceProfiles from "./migrations/021_voice_profiles.ts";
import * as memberVoices from "./migrations/022_member_voices.ts";
import * as search from "./migrations/023_search.ts";
import * as voiceDecisions from "./migrations/024_voice_decisions.ts";
import * as searchScope from "./migrations/025_search_scope.ts";
import type { Database } from "./schema.ts";
import { statementNameOf } from "./precompiled.ts";
import { indexStoredMessages } from "./search-index.ts";
import { searchText } from "./search-text.ts";
import { withStatementCache } from "./statement-cache.ts";

/** The PostgreSQL connections one process keeps open at most, unless RECAP_DATABASE_POOL_SIZE says so. */
export const DEFAULT_POSTGRES_POOL_SIZE = 10;

/** Connections open, idle and the most the pool opens, and queries waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export type DatabaseTarget =
  { dialect: "sqlite"; path: string } | { dialect: "postgres"; url: string; poolSize?: number };

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * True when one server process owns the database (an SQLite file), so at start any job still marked
   * in progress was interrupted; false when several processes share it (PostgreSQL) and leases decide.
   */
  ownedByOneProcess: boolean;
  /** Runs every pending migration, then indexes for search any lines stored before; safe to call on every start. */
  migrate(): Promise<string[]>;
  /** Answers whether the database accepts a query right now (used by /readyz). */
  ping(): Promise<boolean>;
  /** The connection pool's state (metrics); null for SQLite, which has one connection and no pool. */
  poolUse(): PoolUse | null;
  close(): Promise<void>;
}

/** Every migration by name; they run in name order. */
export const migrations: Record<string, Migration> = {
  "001_initial": initial,
  "002_insight_edits": insightEdits,
  "003_webhooks_and_rotation": webhooksAndRotation,
  "004_job_fencing": jobFencing,
  "005_insight_members": insightMembers,
  "006_topic_kinds": topicKinds,
  "007_analysis_engines": analysisEngines,
  "008_trackers": trackers,
  "009_link_labels": linkLabels,
  "010_link_views": linkViews,
  "011_content_version": contentVersion,
  "012_language": language,
  "013_console_sessions_and_brand": consoleSessionsAndBrand,
  "014_unique_custom_domain": uniqueCustomDomain,
  "015_media": media,
  "016_decisions": decisions,
  "018_live_streams": liveStreams,
  "019_decisions_engine": decisionsEngine,
  "020_job_stages": jobStages,
  "021_voice_profiles": voiceProfiles,
  "022_member_voices": memberVoices,
  "023_search": search,
  "024_voice_decisions": voiceDecisions,
  "025_search_scope": searchScope,
};

class StaticMigrationProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  }
}

/**
 * Reads a DATABASE_URL-style string: unset means the embedded file, `sqlite:PATH` or `file:PATH` an SQLite
 * file, `postgres://…` PostgreSQL. Returns null for anything else.
 */
export function parseDatabaseUrl(value: string | undefined, defaultPath: string): DatabaseTarget | null {
  if (value === undefined || value.trim() === "") return { dialect: "sqlite", path: defaultPath };
  const match = /^(sqlite|file):(.+)$/.exec(value);
  if (match?.[2]) return { dialect: "sqlite", path: match[2].replace(/^\/\/(?=\/)/, "") };
  if (/^postgres(ql)?:\/\//.test(value)) return { dialect: "postgres", url: value };
  return null;
}

/**
 * The pg pool as Kysely gets it: its clients run the precompiled hot queries (db/precompiled.ts) as named
 * prepared statements, which PostgreSQL parses and plans once per connection instead of on every request;
 * any other query goes as Kysely sends it, unnamed, so the statements a connection keeps stay few.
 */
function withNamedStatements(pool: Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      // Kysely passes SQL and its parameters (a cursor, which Recap does not configure, would go on as it is).
      const query = (sql: string, parameters: readonly unknown[]) => {
        const name = statementNameOf(sql);
        const values = parameters as unknown[];
        return name === undefined ? client.query(sql, values) : client.query({ name, text: sql, values });
      };
      return { query: query as unknown as PostgresPoolClient["query"], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

/**
 * The pool of PostgreSQL connections; the driver is loaded only for PostgreSQL (SQLite never needs it).
 * `opened` is handed the pool, whose counts the metrics read.
 */
async function postgresPool(url: string, max: number, opened: (pool: Pool) => void): Promise<PostgresPool> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max });
  opened(pool);
  // An idle connection the server drops (restart, failover) must not crash the process: the pool
  // replaces it on the next query, and /readyz reports whether the database answers.
  pool.on("error", (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  return withNamedStatements(pool);
}

/** Opens the database named by the target. The SQLite file's directory is created when missing. */
export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  let db: Kysely<Database>;
  let poolUse: () => PoolUse | null = () => null;
  if (target.dialect === "sqlite") {
    if (target.path !== ":memory:") mkdirSync(dirname(target.path), { recursive: true });
    const sqlite = new SQLite(target.path);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("cache_size = -2000");
    // The search index's triggers (migration 023) cut each line's text with it, as the search module does queries.
    sqlite.function("recap_search_text", { deterministic: true }, (text: unknown) =>
      typeof text === "string" ? searchText(text) : text,
    );
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  } else {
    const poolSize = target.poolSize ?? DEFAULT_POSTGRES_POOL_SIZE;
    // Kysely opens the pool with its first query; until then it holds no connection.
    let pool: Pool | null = null;
    poolUse = () => ({
      total: pool?.totalCount ?? 0,
      idle: pool?.idleCount ?? 0,
      waiting: pool?.waitingCount ?? 0,
      max: poolSize,
    });
    db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: () => postgresPool(target.url, poolSize, (opened) => (pool = opened)),
      }),
    });
  }
  return {
    db,
    ownedByOneProcess: target.dialect === "sqlite",
    async migrate() {
      const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
      await indexStoredMessages(db);
      return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    },
    async ping() {
      try {
        await db.selectFrom("apps").select("id").limit(1).execute();
        return true;
      } catch {
        return false;
      }
    },
    poolUse,
    close: () => db.destroy(),
  };
}
