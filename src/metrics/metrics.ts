import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { PoolUse } from "../db/database.ts";

/**
 * The process's metrics (docs/OPERATIONS.md, Metrics): one registry per app, never prom-client's global one,
 * so that apps started side by side (the tests) count apart. This room knows no module: each part of Recap
 * is handed the small interface below that it reports through, and the composition root (src/services.ts)
 * tells it where the values read at scrape time come from.
 */

/**
 * How a job left this process's hands: also passed on (a stage done, the next runner takes it) and retried (put
 * back because its service did not answer).
 */
export type JobOutcome = "completed" | "failed" | "interrupted" | "taken_over" | "passed_on" | "retried";

/** What a job runner reports (modules/jobs/jobs.runner.ts). */
export interface JobMetrics {
  /** A job was claimed for the first time, `waitSeconds` after it was scheduled. */
  claimed(kind: string, waitSeconds: number): void;
  /** This process stopped working on a job: how, and after how long. */
  ended(kind: string, outcome: JobOutcome, workSeconds: number): void;
}

/** What the media pipeline reports of each recognition (modules/media/media.service.ts). */
export interface TranscriptionMetrics {
  transcribed(mediaSeconds: number, processingSeconds: number): void;
}

/** One webhook attempt: delivered, failed (to be retried) or failed for the last time. */
export type WebhookOutcome = "delivered" | "failed" | "abandoned";

export interface WebhookMetrics {
  attempted(outcome: WebhookOutcome): void;
}

/** Whether a summary page was sent from this process's page cache or made (modules/summary-page/page-cache.ts). */
export interface PageCacheMetrics {
  looked(found: boolean): void;
}

export interface LinkViewMetrics {
  viewed(): void;
}

/** Live connections open on this process (modules/live/live.routes.ts). */
export interface LiveMetrics {
  opened(): void;
  closed(): void;
}

/** Which limit refused a request (http/rate-limit.ts). */
export type RateLimitName = "app" | "address" | "credentials";

export interface RateLimitMetrics {
  refused(limit: RateLimitName): void;
}

export interface RequestMetrics {
  /** One answered request, by its route's template (`route`), never by its URL. */
  answered(method: string, route: string, statusCode: number, seconds: number): void;
}

/** What is read when Prometheus scrapes, rather than counted as it happens. */
export interface ScrapeSources {
  /** Jobs not yet finished (scheduled or in progress), by kind and status, from the shared database. */
  unfinishedJobs(): Promise<{ kind: string; status: string; count: number }[]>;
  /** PostgreSQL's connection pool; null for SQLite, which has none. */
  poolUse(): PoolUse | null;
  /** Bytes this process holds in its page cache. */
  pageCacheBytes(): number;
  /** Whether the remote speech engine's server answered its last request (times ISO); null: none, or local. */
  speechServer(): { state: string; since: string | null; lastReachableAt: string | null } | null;
}

const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 14_400];
const REAL_TIME_FACTOR_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 5];

export interface Metrics {
  readonly requests: RequestMetrics;
  readonly jobs: JobMetrics;
  readonly transcription: TranscriptionMetrics;
  readonly webhooks: WebhookMetrics;
  readonly pageCache: PageCacheMetrics;
  readonly linkViews: LinkViewMetrics;
  readonly live: LiveMetrics;
  readonly rateLimits: RateLimitMetrics;
  /** Registers the gauges read at scrape time; called once by the composition root (twice throws: names are taken). */
  readOnScrape(sources: ScrapeSources): void;
  /** The text Prometheus scrapes, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * Makes the app's registry and instruments. `processMetrics` adds prom-client's default process and Node.js
 * metrics (CPU, memory, event-loop lag, garbage collection); they start observers that live as long as the
 * process, so only an app whose metrics are served asks for them.
 */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // Fastify's ecosystem names (fastify-metrics): the histogram's _count is the request count.
  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by method, route template and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const jobQueueWait = new Histogram({
    name: "recap_job_queue_wait_seconds",
    help: "Time from a job being scheduled to its first claim, by kind",
    labelNames: ["kind"] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobWork = new Histogram({
    name: "recap_job_work_seconds",
    help: "Time this process worked on a job, from its claim to its end here, by kind and outcome",
    labelNames: ["kind", "outcome"] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const mediaSeconds = new Counter({
    name: "recap_transcription_media_seconds_total",
    help: "Seconds of audio this process recognised in recordings (each channel recognised counts)",
    registers,
  });
  const processingSeconds = new Counter({
    name: "recap_transcription_processing_seconds_total",
    help: "Seconds this process spent recognising that audio (a loaded engine; not fetching, decoding or diarising)",
    registers,
  });
  const realTimeFactor = new Histogram({
    name: "recap_transcription_real_time_factor",
    help: "Processing seconds per second of recording, per recognised recording (below 1: faster than real time)",
    buckets: REAL_TIME_FACTOR_BUCKETS,
    registers,
  });
  const webhookAttempts = new Counter({
    name: "recap_webhook_attempts_total",
    help: "Webhook attempts by outcome: delivered, failed (retried later) or abandoned (the last attempt failed)",
    labelNames: ["outcome"] as const,
    registers,
  });
  const pageCacheLookups = new Counter({
    name: "recap_page_cache_lookups_total",
    help: "Summary pages sent from this process's page cache (hit) or made (miss)",
    labelNames: ["result"] as const,
    registers,
  });
  const linkViews = new Counter({
    name: "recap_link_views_total",
    help: "Views of summary pages recorded by this process",
    registers,
  });
  const liveConnections = new Gauge({
    name: "recap_live_connections",
    help: "Live (streaming) connections open on this process",
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: "recap_rate_limit_refusals_total",
    help: "Requests refused with 429 by a rate limit: app (/v1), address, or credentials",
    labelNames: ["limit"] as const,
    registers,
  });
  // Counted from zero, so each label appears in the first scrape and a rate over it needs no first event.
  for (const outcome of ["delivered", "failed", "abandoned"]) webhookAttempts.inc({ outcome }, 0);
  for (const result of ["hit", "miss"]) pageCacheLookups.inc({ result }, 0);
  for (const limit of ["app", "address", "credentials"]) rateLimitRefusals.inc({ limit }, 0);

  return {
    requests: {
      answered: (method, route, statusCode, seconds) =>
        requestDuration.observe({ method, route, status_code: statusCode }, seconds),
    },
    jobs: {
      claimed: (kind, waitSeconds) => jobQueueWait.observe({ kind }, Math.max(0, waitSeconds)),
      ended: (kind, outcome, workSeconds) => jobWork.observe({ kind, outcome }, workSeconds),
    },
    transcription: {
      transcribed(media, processing) {
        if (media <= 0) return;
        mediaSeconds.inc(media);
        processingSeconds.inc(processing);
        realTimeFactor.observe(processing / media);
      },
    },
    webhooks: { attempted: (outcome) => webhookAttempts.inc({ outcome }) },
    pageCache: { looked: (found) => pageCacheLookups.inc({ result: found ? "hit" : "miss" }) },
    linkViews: { viewed: () => linkViews.inc() },
    live: { opened: () => liveConnections.inc(), closed: () => liveConnections.dec() },
    rateLimits: { refused: (limit) => rateLimitRefusals.inc({ limit }) },
    readOnScrape: (sources) => registerScrapeGauges(registers, sources),
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

function registerScrapeGauges(registers: Registry[], sources: ScrapeSources): void {
  new Gauge({
    name: "recap_jobs",
    help: "Unfinished jobs in the database (all processes), by kind and state (scheduled, in_progress)",
    labelNames: ["kind", "state"] as const,
    registers,
    async collect() {
      // A database that does not answer leaves the gauge without samples for this scrape, not the scrape failed.
      const rows = await sources.unfinishedJobs().catch(() => []);
      this.reset();
      for (const kind of ["text", "media"]) {
        for (const state of ["scheduled", "in_progress"]) this.set({ kind, state }, 0);
      }
      for (const row of rows) this.set({ kind: row.kind, state: row.status }, row.count);
    },
  });
  new Gauge({
    name: "recap_page_cache_bytes",
    help: "Bytes of made summary pages this process keeps",
    registers,
    collect() {
      this.set(sources.pageCacheBytes());
    },
  });
  // A remote engine's server, known from the requests jobs send it; the local engine has none.
  if (sources.speechServer() !== null) {
    new Gauge({
      name: "recap_speech_engine_state",
      help: "The remote speech engine's server: 1 for its state now (unknown before the first request, reachable, unreachable), 0 for the others",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const now = sources.speechServer()?.state ?? "unknown";
        for (const state of ["unknown", "reachable", "unreachable"])
          this.set({ state }, state === now ? 1 : 0);
      },
    });
    const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : 0);
    new Gauge({
      name: "recap_speech_engine_last_reachable_timestamp_seconds",
      help: "When the remote speech engine's server last answered (Unix time); 0 before it first did",
      registers,
      collect() {
        this.set(seconds(sources.speechServer()?.lastReachableAt));
      },
    });
    new Gauge({
      name: "recap_speech_engine_unreachable_since_timestamp_seconds",
      help: "Since when the remote speech engine's server has not answered (Unix time); 0 while it answers",
      registers,
      collect() {
        const server = sources.speechServer();
        this.set(server?.state === "unreachable" ? seconds(server.since) : 0);
      },
    });
  }
  if (sources.poolUse() === null) return;
  const pool = (name: string, help: string, read: (use: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const use = sources.poolUse();
        if (use !== null) this.set(read(use));
      },
    });
  pool(
    "recap_database_pool_connections",
    "PostgreSQL connections open in this process's pool",
    (u) => u.total,
  );
  pool("recap_database_pool_idle_connections", "Open PostgreSQL connections not in use", (u) => u.idle);
  pool("recap_database_pool_waiting", "Queries waiting for a PostgreSQL connection", (u) => u.waiting);
  pool("recap_database_pool_max_connections", "The pool's size (RECAP_DATABASE_POOL_SIZE)", (u) => u.max);
}
