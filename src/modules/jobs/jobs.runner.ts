import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { JobRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import type { JobMetrics, JobOutcome } from "../../metrics/metrics.ts";
import { JobProblem, serverFailureMessage, ServiceUnreachable } from "./job-failures.ts";
import { ClaimTakenOver, type JobsRepository } from "./jobs.repository.ts";
import type { JobEvents, JobKind, JobWrites } from "./jobs.service.ts";
import type { WebhookSender } from "./webhooks.ts";
import { PollPause } from "./poll-pause.ts";

export interface JobRunnerOptions {
  /** The kind of job this runner claims ("text" or "media"). */
  kind: JobKind;
  jobs: JobsRepository;
  /** Runs `work` in one transaction: a job's status change and its webhook event are written together. */
  transaction: Transaction<JobWrites>;
  /**
   * Does the job's work. `signal` aborts when the runner stops or the claim is lost: work that can stop early
   * (a transcription) then throws, and the job is left for its next claim instead of failing.
   */
  process: (job: JobRow, signal: AbortSignal) => Promise<void>;
  webhooks: Pick<WebhookSender, "notify">;
  clock: Clock;
  logger: FastifyBaseLogger;
  leaseSeconds: number;
  /** Queue waits and work times (docs/OPERATIONS.md, Metrics). */
  metrics: JobMetrics;
  /** How often to look for jobs scheduled by other processes sharing the database. */
  pollMs?: number;
  /**
   * The stage this runner claims jobs at (a media job's "fetch"); once its work is done the job passes on, with
   * no stage left, to the runners of its kind, and `passedOn` wakes them. Absent: jobs with no stage, finished here.
   */
  stage?: string;
  passedOn?: () => void;
  /** How often a job whose service did not answer (ServiceUnreachable) is tried again; absent: never. */
  retries?: RetryBounds;
}

/** Retries of a job whose service did not answer: `count` at most, backing off from the first delay, doubling. */
export interface RetryBounds {
  count: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/**
 * Runs scheduled jobs one at a time, off the request path. Jobs live in the database, so a job whose
 * process died (its lease ran out, or `releaseInterruptedJobs` at start) is picked up again.
 */
export class JobRunner implements JobEvents {
  private running = false;
  private loop: Promise<void> | null = null;
  /** The job the loop is running now, if any. */
  private inHand: Promise<boolean> | null = null;
  /** Aborts the work of the job in hand. */
  private abortInHand: AbortController | null = null;
  private readonly pause: PollPause;

  constructor(private readonly options: JobRunnerOptions) {
    this.pause = new PollPause(options.pollMs ?? 500);
  }

  scheduled(): void {
    this.options.webhooks.notify();
    this.pause.wake();
  }

  /** Makes jobs left in progress by a dead process claimable at once; only for a database this process owns. */
  releaseInterruptedJobs(): Promise<number> {
    return this.options.jobs.releaseAllLeases(this.options.clock.now().toISOString());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Stops taking jobs and waits for the one in hand: work that can stop early (a transcription) is aborted and
   * its job released for the next claim; the rest finishes.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.abortInHand?.abort();
    this.pause.wake();
    await this.loop;
    this.loop = null;
  }

  /**
   * Processes jobs until none is runnable and the loop has none in hand: the CLI (which has no loop)
   * and tests, which wait for the queue this way instead of polling job statuses. True when it ran any.
   */
  async runUntilIdle(): Promise<boolean> {
    let worked = false;
    for (;;) {
      await this.inHand?.catch(() => false);
      if (await this.runOne()) worked = true;
      else if (!this.inHand) return worked;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        this.inHand = this.runOne();
        worked = await this.inHand;
      } catch (error) {
        this.options.logger.error({ err: error }, "job runner could not reach the database");
      } finally {
        this.inHand = null;
      }
      if (!worked && this.running) {
        await this.pause.wait();
      }
    }
  }

  /**
   * What a failed job tells its submitter: a JobProblem's own message (their input, logged as an event), a
   * service that stayed unreachable through every retry, else only that the server failed, with the job's id
   * to find the logged error by.
   */
  private failureMessage(job: JobRow, error: unknown): string {
    if (error instanceof ServiceUnreachable) {
      const attempts = job.retries + 1;
      const message = `${error.message}; gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
      this.options.logger.warn({ jobId: job.id, reason: message }, "job failed");
      return message;
    }
    if (error instanceof JobProblem) {
      this.options.logger.info({ jobId: job.id, reason: error.message }, "job failed");
      return error.message;
    }
    this.options.logger.error({ err: error, jobId: job.id }, "job failed");
    return serverFailureMessage(job.id);
  }

  private leaseUntil(): string {
    return new Date(this.options.clock.now().getTime() + this.options.leaseSeconds * 1000).toISOString();
  }

  private async runOne(): Promise<boolean> {
    const { kind, stage, jobs, transaction, webhooks, clock, logger, metrics } = this.options;
    const job = await transaction(async ({ jobs, webhookEvents }) => {
      const now = clock.now().toISOString();
      const claimed = await jobs.claimNext(kind, now, this.leaseUntil(), stage ?? null);
      // Reported once, at the first claim: a later one (the next stage, a retry, a takeover) changes nothing for its submitter.
      if (claimed?.attempts === 1) await webhookEvents.addJobStatus(claimed, "in_progress", now);
      return claimed;
    });
    if (!job) return false;
    const label = stage === undefined ? kind : `${kind}_${stage}`;
    const workStarted = performance.now();
    // The wait in the queue is the first claim's; a job claimed again after its lease ran out waited for work.
    if (job.attempts === 1) {
      metrics.claimed(label, (clock.now().getTime() - Date.parse(job.created_at)) / 1000);
    }
    const ended = (outcome: JobOutcome) =>
      metrics.ended(label, outcome, (performance.now() - workStarted) / 1000);
    webhooks.notify();
    const finish = async (status: "completed" | "failed", error: string | null) => {
      await transaction(async ({ jobs, webhookEvents }) => {
        const now = clock.now().toISOString();
        if (!(await jobs.finish(job, status, error, now))) throw new ClaimTakenOver(job.id);
        await webhookEvents.addJobStatus(job, status, now, error);
      });
      webhooks.notify();
    };
    const held = (done: boolean) => {
      if (!done) throw new ClaimTakenOver(job.id);
    };
    const abort = new AbortController();
    this.abortInHand = abort;
    const heartbeat = setInterval(
      () =>
        void jobs
          .extendLease(job, this.leaseUntil())
          .then((held) => held || abort.abort())
          .catch(() => undefined),
      (this.options.leaseSeconds * 1000) / 3,
    );
    try {
      let outcome: { status: "completed" | "failed"; error: string | null };
      try {
        await this.options.process(job, abort.signal);
        if (stage !== undefined) {
          held(await jobs.passOn(job, clock.now().toISOString()));
          this.options.passedOn?.();
          ended("passed_on");
          return true;
        }
        outcome = { status: "completed", error: null };
      } catch (error) {
        if (error instanceof ClaimTakenOver) throw error;
        if (abort.signal.aborted) {
          // Stopped (or the claim was lost) mid-work: the job is left to its next claim, at once.
          await jobs.releaseLease(job, clock.now().toISOString());
          logger.info({ jobId: job.id }, "job interrupted; it will be taken up again");
          ended("interrupted");
          return true;
        }
        const retryAt = error instanceof ServiceUnreachable ? this.retryAt(job) : null;
        if (error instanceof ServiceUnreachable && retryAt !== null) {
          held(await jobs.retryLater(job, retryAt, clock.now().toISOString()));
          logger.warn(
            { jobId: job.id, retry: job.retries + 1, retryAt, reason: error.message },
            "job will be retried",
          );
          ended("retried");
          return true;
        }
        outcome = { status: "failed", error: this.failureMessage(job, error) };
      }
      await finish(outcome.status, outcome.error);
      ended(outcome.status);
    } catch (error) {
      if (!(error instanceof ClaimTakenOver)) throw error;
      // This process stalled past its lease and another took the job: it wrote nothing and reports nothing.
      logger.warn({ jobId: job.id, attempt: job.attempts }, "job claim taken over by another process");
      ended("taken_over");
    } finally {
      clearInterval(heartbeat);
      this.abortInHand = null;
    }
    return true;
  }

  /**
   * When a job whose service did not answer is tried again: the first retry after `firstDelaySeconds`, each
   * next one after twice the last, at most `maxDelaySeconds`; null once its retries are spent.
   */
  private retryAt(job: JobRow): string | null {
    const bounds = this.options.retries;
    if (!bounds || job.retries >= bounds.count) return null;
    const delay = Math.min(bounds.firstDelaySeconds * 2 ** job.retries, bounds.maxDelaySeconds);
    return new Date(this.options.clock.now().getTime() + delay * 1000).toISOString();
  }
}

/**
 * A process's runners: one for text jobs, and RECAP_ASR_CONCURRENCY for media jobs, so a long recording
 * never holds up text and transcriptions per process stay bounded. The jobs service tells them all when a
 * job is scheduled.
 */
export class JobRunners implements JobEvents {
  constructor(private readonly runners: JobRunner[]) {}

  scheduled(): void {
    for (const runner of this.runners) runner.scheduled();
  }

  async releaseInterruptedJobs(): Promise<void> {
    await this.runners[0]?.releaseInterruptedJobs();
  }

  start(): void {
    for (const runner of this.runners) runner.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
  }

  /** Runs every kind of job until none is runnable (a text job may wait on a media job of its conversation). */
  async runUntilIdle(): Promise<void> {
    for (;;) {
      let worked = false;
      for (const runner of this.runners) if (await runner.runUntilIdle()) worked = true;
      if (!worked) return;
    }
  }
}
