import type { Redis } from "ioredis";
import type { KyselyPlugin } from "kysely";
import { createAnalyzer } from "../../src/analysis/pool.ts";
import type { Analyzer } from "../../src/analysis/types.ts";
import { buildApp } from "../../src/app.ts";
import { systemClock, type Clock } from "../../src/clock.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import type { Metrics } from "../../src/metrics/metrics.ts";
import { openRuntime } from "../../src/runtime.ts";
import type { Services } from "../../src/services.ts";
import { apiClient, bodyOf } from "./api.ts";
import type * as Body from "./bodies.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";
import { startChild, type Child } from "./processes.ts";
import { untilValue } from "./wait.ts";

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(private current = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

export interface TestServer {
  url: string;
  services: Services;
  database: DatabaseHandle;
  clock: Clock;
  /** The server's configuration, with the test database it runs on. */
  config: Readonly<Config>;
  /** The app's metrics (what /metrics serves). */
  metrics: Metrics;
  /** Makes an app and a token for it. */
  newApp(settings?: { customDomain?: string; frameAncestors?: string[] }): Promise<{
    appId: string;
    appSecret: string;
    token: string;
  }>;
  /** fetch() against the server with the token as Bearer, JSON in and out. */
  api(
    token: string,
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /**
   * Submits a `process/text` body (appending when a conversation id is given) and waits for its job;
   * throws unless the submission is accepted and the job completes.
   */
  ingest(
    token: string,
    body: unknown,
    conversationId?: string,
  ): Promise<{ conversationId: string; jobId: string }>;
  close(): Promise<void>;
}

/** The signing secret of every test server (tokens and links signed outside a server use it too). */
export const TEST_SECRET = "test-secret-that-is-long-enough-for-recap-0123456789";

/**
 * Starts the server itself, `src/main.ts`, as a process of its own on a test database and `port` (0: a port of
 * its choosing, which it logs): the test secret, logs at info, no Redis; `nodeArgs` go to node (a heap limit),
 * `env` is added to (or replaces) that environment. Wait for it with untilOutput.
 */
export function startMain(
  database: TestDatabase,
  port: number,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Child {
  const { target } = database;
  return startChild(process.execPath, [...nodeArgs, "--import", "tsx", "src/main.ts"], {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    DATABASE_URL: target.dialect === "sqlite" ? `sqlite:${target.path}` : target.url,
    RECAP_SECRET: TEST_SECRET,
    LOG_LEVEL: "info",
    REDIS_URL: "",
    ...env,
  });
}

let sharedAnalyzer: Analyzer | null = null;
function analyzer(): Analyzer {
  return (sharedAnalyzer ??= createAnalyzer());
}

/** A Kysely plugin that changes nothing and reports each query as its result comes back. */
function observing(onQuery: () => void): KyselyPlugin {
  return {
    transformQuery: ({ node }) => node,
    transformResult: ({ result }) => {
      onQuery();
      return Promise.resolve(result);
    },
  };
}

/** Starts the real app on a random port over a fresh database of the dialect. */
export async function startTestServer(
  dialect: "sqlite" | "postgres",
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    runJobs?: boolean;
    /** Reuse a database (a "restart"); the caller then drops it. */
    testDatabase?: TestDatabase;
    /** Shared rate-limit counters. */
    redis?: Redis;
    /** Called for every query the server runs (its services and hooks), as each finishes. */
    onQuery?: () => void;
  } = {},
): Promise<TestServer> {
  const testDb: TestDatabase = options.testDatabase ?? (await createTestDatabase(dialect));
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    LOG_LEVEL: "silent",
    RECAP_SECRET: TEST_SECRET,
    // Tests never reach the public font catalogue; a font test serves its own (test/helpers/font-catalogue.ts).
    RECAP_FONT_CATALOGUE_URL: "off",
    ...options.env,
  });
  const runtime = await openRuntime({ ...config, database: testDb.target }, { analyzer: analyzer() });
  const database = options.onQuery
    ? { ...runtime.database, db: runtime.database.db.withPlugin(observing(options.onQuery)) }
    : runtime.database;
  const clock = options.clock ?? systemClock;
  const { app, services, metrics } = await buildApp({
    ...runtime,
    database,
    clock,
    runJobs: options.runJobs ?? true,
    redis: options.redis ?? null,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const url = address;

  const api: TestServer["api"] = (token, path, init = {}) =>
    fetch(url + path, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body !== undefined && { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body !== undefined && {
        body: typeof init.body === "string" ? init.body : JSON.stringify(init.body),
      }),
    });

  const server: TestServer = {
    url,
    services,
    database,
    clock,
    config: { ...config, database: testDb.target },
    metrics,
    api,
    async ingest(token, body, conversationId) {
      const response = await api(token, `/v1/process/text${conversationId ? `/${conversationId}` : ""}`, {
        method: conversationId ? "PUT" : "POST",
        body,
      });
      if (response.status !== 201)
        throw new Error(`ingestion answered ${response.status}: ${await response.text()}`);
      const accepted = await bodyOf<Body.Accepted>(response);
      const status = await waitForJob(server, token, accepted.jobId);
      if (status !== "completed") throw new Error(`job ${accepted.jobId} ended ${status}`);
      return accepted;
    },
    async newApp(settings = {}) {
      const created = await services.apps.createApp({ name: "Test app", ...settings });
      const { accessToken } = services.tokens.issue(created.appId, created.secretGeneration);
      return { appId: created.appId, appSecret: created.appSecret, token: accessToken };
    },
    async close() {
      await app.close();
      await runtime.close();
      if (!options.testDatabase) await testDb.drop();
    },
  };
  return server;
}

/**
 * Runs the job queue until it is idle (in this process, deterministically: no polling) and says how the
 * job ended. A server started with `runJobs: false` runs its jobs only here. When another server on the
 * same database holds the job (or an earlier one of its conversation), it waits for that server to end it.
 */
export async function waitForJob(server: TestServer, token: string, jobId: string): Promise<string> {
  await server.services.jobRunner.runUntilIdle();
  const status = async () =>
    (await apiClient(server.url, token).get<Body.Job>(`/v1/job/${jobId}`)).body.status;
  const ended = await untilValue(async () => {
    const now = await status();
    return now === "completed" || now === "failed" ? now : undefined;
  }, 60_000);
  return ended ?? (await status());
}
