import type { JobRow } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { uuid } from "../../ids.ts";
import { serverFailureMessage } from "./job-failures.ts";
import type { JobsRepository, JobStatus } from "./jobs.repository.ts";
import type { WebhookEventsRepository } from "./webhook-events.repository.ts";

/** What the job runner is told once a transaction that scheduled a job has committed. */
export interface JobEvents {
  scheduled(): void;
}

/** The jobs module's repositories bound to a caller's transaction, so a job is scheduled with what it processes. */
export interface JobWrites {
  jobs: JobsRepository;
  webhookEvents: WebhookEventsRepository;
}

export type JobKind = "text" | "media";

/** Where a job stands as its submitter sees it: `message` says why it failed, on a failed job only. */
export interface JobReport {
  id: string;
  status: JobStatus;
  message?: string;
}

function reportOf(job: JobRow): JobReport {
  const status = job.status as JobStatus;
  if (status !== "failed") return { id: job.id, status };
  return { id: job.id, status, message: job.error ?? serverFailureMessage(job.id) };
}

export interface NewJobRequest {
  id: string;
  /** "media" jobs transcribe a file before the analysis, on the media runners; "text" when absent. */
  kind?: JobKind;
  /** "fetch": a media job's URL is fetched first, by the fetch runners (docs/MEDIA.md, The job). */
  stage?: "fetch";
  appId: string;
  conversationId: string;
  webhookUrl: string | null;
  now: string;
}

/** Jobs as other modules see them: read one, schedule one. */
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly events: JobEvents,
  ) {}

  /**
   * The job, its status and its conversation, for a failed job why (`message`), and for a media job how far it
   * has got (a percentage; 100 once completed). Throws not_found when the app cannot see the job.
   */
  async getJob(
    appId: string,
    jobId: string,
  ): Promise<{ id: string; status: JobStatus; conversationId: string; message?: string; progress?: number }> {
    const job = await this.jobs.find(appId, jobId);
    if (!job) throw notFound("job");
    const found = { ...reportOf(job), conversationId: job.conversation_id };
    if (job.kind !== "media") return found;
    return { ...found, progress: found.status === "completed" ? 100 : Math.floor((job.progress ?? 0) * 100) };
  }

  /** The latest job of each conversation given that has one, by conversation id, with why it failed. */
  async latestJobs(appId: string, conversationIds: string[]): Promise<Map<string, JobReport>> {
    const latest = await this.jobs.latestOfConversations(appId, conversationIds);
    return new Map([...latest].map(([id, job]) => [id, reportOf(job)]));
  }

  /** The conversations given whose latest job failed, by id: that job and why. */
  async latestFailures(
    appId: string,
    conversationIds: string[],
  ): Promise<Map<string, { jobId: string; message: string }>> {
    const failed = new Map<string, { jobId: string; message: string }>();
    for (const [id, job] of await this.latestJobs(appId, conversationIds)) {
      if (job.message !== undefined) failed.set(id, { jobId: job.id, message: job.message });
    }
    return failed;
  }

  /** How many jobs wait and run now, in every process, by kind and status. */
  unfinishedJobs(): Promise<{ kind: string; status: string; count: number }[]> {
    return this.jobs.countUnfinished();
  }

  /**
   * Writes a scheduled job after the conversation's others, and its first webhook event, in the caller's
   * transaction (`within`), so the job exists exactly when what it processes does. Call `scheduled()` once
   * that transaction has committed.
   */
  async schedule(within: JobWrites, job: NewJobRequest): Promise<void> {
    await within.jobs.insert({
      id: job.id,
      app_id: job.appId,
      conversation_id: job.conversationId,
      kind: job.kind ?? "text",
      progress: job.kind === "media" ? 0 : null,
      stage: job.stage ?? null,
      sequence: await within.jobs.nextSequence(job.conversationId),
      status: "scheduled",
      webhook_url: job.webhookUrl,
      error: null,
      attempts: 0,
      lease_expires_at: null,
      created_at: job.now,
      updated_at: job.now,
    });
    await within.webhookEvents.addJobStatus(
      { id: job.id, app_id: job.appId, webhook_url: job.webhookUrl },
      "scheduled",
      job.now,
    );
  }

  /**
   * Schedules a job with no webhook for the conversation, unless one not yet started is waiting (it will read
   * the conversation as it is then); in the caller's transaction. Returns that job's id and whether it is new.
   */
  async scheduleUnlessWaiting(
    within: JobWrites,
    job: Omit<NewJobRequest, "id" | "webhookUrl">,
  ): Promise<{ jobId: string; created: boolean }> {
    const waiting = await within.jobs.findWaiting(job.conversationId);
    if (waiting) return { jobId: waiting.id, created: false };
    const id = uuid();
    await this.schedule(within, { ...job, id, webhookUrl: null });
    return { jobId: id, created: true };
  }

  /**
   * Writes a live stream's job (docs/LIVE.md), in the caller's transaction: in progress and held by this
   * process until `leaseExpiresAt` (renewed by `renewLive` while the stream runs), so the runners leave it alone
   * unless the process dies; no webhook event yet (the stream's end schedules it).
   */
  async openLive(
    within: JobWrites,
    job: Omit<NewJobRequest, "kind" | "webhookUrl"> & { connectionId: string; leaseExpiresAt: string },
  ): Promise<void> {
    await within.jobs.insert({
      id: job.id,
      app_id: job.appId,
      conversation_id: job.conversationId,
      kind: "text",
      progress: null,
      sequence: await within.jobs.nextSequence(job.conversationId),
      status: "in_progress",
      webhook_url: null,
      error: null,
      attempts: 0,
      lease_expires_at: job.leaseExpiresAt,
      live_connection_id: job.connectionId,
      created_at: job.now,
      updated_at: job.now,
    });
  }

  /** The live stream of the app with this connection id that a process still holds, if any. */
  async findLive(
    within: JobWrites,
    appId: string,
    connectionId: string,
    now: string,
  ): Promise<{ jobId: string; conversationId: string } | null> {
    const job = await within.jobs.findLive(appId, connectionId, now);
    return job ? { jobId: job.id, conversationId: job.conversation_id } : null;
  }

  /** Whether the conversation is being streamed (a live stream's job still held by its process). */
  isLive(conversationId: string, now: string): Promise<boolean> {
    return this.jobs.isLive(conversationId, now);
  }

  /** Renews a live stream's hold on its job; false when a runner took it over (the process stalled). */
  renewLive(jobId: string, leaseExpiresAt: string): Promise<boolean> {
    return this.jobs.extendLease({ id: jobId, attempts: 0 }, leaseExpiresAt);
  }

  /**
   * Ends a live stream's hold on its job, in the caller's transaction: with lines to analyse, it is scheduled
   * for the runners (or, when a runner had taken it over, a new job is), with its webhook event; with none, it
   * is deleted. Returns the id of the job that will analyse the stream, or null. Call `scheduled()` after.
   */
  async endLive(
    within: JobWrites,
    job: { id: string; appId: string; conversationId: string; now: string },
    hasLines: boolean,
  ): Promise<string | null> {
    if (!hasLines) {
      await within.jobs.dropLive(job.id);
      return null;
    }
    if (await within.jobs.handOver(job.id, job.now)) {
      await within.webhookEvents.addJobStatus(
        { id: job.id, app_id: job.appId, webhook_url: null },
        "scheduled",
        job.now,
      );
      return job.id;
    }
    const id = uuid();
    await this.schedule(within, {
      id,
      appId: job.appId,
      conversationId: job.conversationId,
      webhookUrl: null,
      now: job.now,
    });
    return id;
  }

  /** Wakes the job runner (and the webhook sender) after a transaction that scheduled a job has committed. */
  scheduled(): void {
    this.events.scheduled();
  }
}
