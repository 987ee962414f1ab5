import http from "node:http";
import https from "node:https";
import type { FastifyBaseLogger } from "fastify";
import { Webhook } from "standardwebhooks";
import type { Clock } from "../../clock.ts";
import type { WebhookEventRow } from "../../db/schema.ts";
import { withDeadline } from "../../deadline.ts";
import type { WebhookMetrics } from "../../metrics/metrics.ts";
import type { WebhookEventsRepository } from "./webhook-events.repository.ts";
import type { WebhookTargets } from "./webhook-targets.ts";
import { PollPause } from "./poll-pause.ts";

/** Attempts per event, and the wait before attempt n + 1: 1 s, 4 s, 16 s … capped at an hour (~3 h in all). */
const ATTEMPTS = 8;
const retryDelayMs = (attempt: number) => Math.min(1_000 * 4 ** (attempt - 1), 3_600_000);
const TIMEOUT_MS = 10_000;
/** A claim outlives one attempt, so a sender that died mid-attempt frees its event within this. */
const CLAIM_MS = 30_000;
const BATCH = 20;
/** An event that failed for good is kept this long after its last attempt (to be looked into), then deleted. */
const FAILED_KEPT_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface WebhookSenderOptions {
  events: WebhookEventsRepository;
  apps: { webhookSecret(appId: string): Promise<string> };
  targets: WebhookTargets;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Each attempt's outcome (docs/OPERATIONS.md, Metrics). */
  metrics: WebhookMetrics;
  /** How often to look for events written by other processes and for retries that came due. */
  pollMs?: number;
}

/**
 * Sends the webhook outbox: every event is signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, HMAC-SHA256 with the app's `whsec_` secret), a job's events go out one after
 * another in order, and a failed attempt is retried later with the same webhook-id, so receivers can
 * drop duplicates. Redirects are never followed, and a host that resolves to an internal address is not
 * connected to (WebhookTargets). Events survive a shutdown or a crash in the database and are sent by
 * whichever process runs a sender next.
 */
export class WebhookSender {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly pause: PollPause;
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WebhookSenderOptions) {
    this.pause = new PollPause(options.pollMs ?? 500);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks at the outbox now rather than at the next poll; called after a transaction that added events. */
  notify(): void {
    this.pause.wake();
  }

  /** Frees claims left by a crash; only for a database this process owns. */
  releaseInterruptedClaims(): Promise<void> {
    return this.options.events.releaseAllClaims();
  }

  /**
   * Stops sending: waits up to `graceMs` for attempts in flight, then aborts them. Whatever was not
   * delivered stays in the outbox for the next start.
   */
  async stop(graceMs = 3_000): Promise<void> {
    this.running = false;
    this.pause.wake();
    await this.loop;
    this.loop = null;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.inFlight.values()),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    this.shutdown.abort();
    await Promise.all(this.inFlight.values());
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.sendDue();
      } catch (error) {
        this.options.logger.error({ err: error }, "webhook sender could not reach the database");
      }
      if (!this.running) break;
      await this.pause.wait();
    }
  }

  /** Starts an attempt for each due event whose job has none in flight. */
  private async sendDue(): Promise<void> {
    const { events, clock } = this.options;
    const now = clock.now();
    const lockedUntil = new Date(now.getTime() + CLAIM_MS).toISOString();
    if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now.getTime();
      await events.deleteFailedBefore(new Date(now.getTime() - FAILED_KEPT_MS).toISOString());
    }
    for (const event of await events.dueHeads(now.toISOString(), BATCH)) {
      if (!this.running || this.inFlight.has(event.job_id)) continue;
      if (!(await events.claim(event, now.toISOString(), lockedUntil))) continue;
      const attempt = this.attempt(event, event.attempts + 1)
        .catch((error: unknown) =>
          this.options.logger.error({ err: error, webhookId: event.id }, "webhook outbox update failed"),
        )
        .finally(() => {
          this.inFlight.delete(event.job_id);
          this.notify();
        });
      this.inFlight.set(event.job_id, attempt);
    }
  }

  private async attempt(event: WebhookEventRow, attempt: number): Promise<void> {
    const { events, clock, logger, metrics } = this.options;
    let failure: string;
    try {
      const status = await this.post(event);
      if (status >= 200 && status < 300) {
        metrics.attempted("delivered");
        await events.delivered(event.id);
        return;
      }
      failure = `answered ${status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const retry = attempt < ATTEMPTS;
    const next = retry ? new Date(clock.now().getTime() + retryDelayMs(attempt)).toISOString() : null;
    metrics.attempted(retry ? "failed" : "abandoned");
    await events.attemptFailed(event.id, failure, next);
    logger.warn(
      { webhookId: event.id, jobId: event.job_id, attempt, error: failure, nextAttemptAt: next },
      retry ? "webhook delivery failed; will retry" : "webhook delivery failed; giving up",
    );
  }

  /** POSTs the signed event once; resolves with the status, never following a redirect. */
  private async post(event: WebhookEventRow): Promise<number> {
    const url = new URL(event.url);
    const refusal = this.options.targets.refusal(url);
    if (refusal !== null) throw new Error(refusal);
    const secret = await this.options.apps.webhookSecret(event.app_id);
    const sentAt = new Date(Math.floor(this.options.clock.now().getTime() / 1000) * 1000);
    const headers = {
      "content-type": "application/json",
      "user-agent": "Recap-Webhook/1",
      "webhook-id": event.id,
      "webhook-timestamp": String(sentAt.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign(event.id, sentAt, event.payload),
    };
    const client = url.protocol === "https:" ? https : http;
    const deadline = withDeadline(this.shutdown.signal, TIMEOUT_MS);
    return new Promise<number>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: "POST",
          headers,
          agent: false,
          lookup: this.options.targets.lookup,
          signal: deadline.signal,
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(event.payload);
    }).finally(deadline.clear);
  }
}
