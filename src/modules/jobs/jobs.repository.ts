import type { Kysely, Transaction } from "kysely";
import type { Database, JobRow, NewJob } from "../../db/schema.ts";

export type JobStatus = "scheduled" | "in_progress" | "completed" | "failed";

/** A job's claim: the job and the attempt that claimed it; a later claim of the same job supersedes it. */
export type Claim = Pick<JobRow, "id" | "attempts">;

/** Thrown by a job's work when another process took the job over (this one stalled past its lease). */
export class ClaimTakenOver extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was taken over by another process`);
    this.name = "ClaimTakenOver";
  }
}

export class JobsRepository {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  async insert(job: NewJob): Promise<void> {
    await this.db.insertInto("jobs").values(job).execute();
  }

  /** Finds a job only if it belongs to the app. */
  find(appId: string, id: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", id)
      .where("app_id", "=", appId)
      .executeTakeFirst();
  }

  /** The latest job of each of the app's conversations given that has one. */
  async latestOfConversations(appId: string, conversationIds: string[]): Promise<Map<string, JobRow>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("jobs")
      .selectAll()
      .where("app_id", "=", appId)
      .where("conversation_id", "in", conversationIds)
      .orderBy("sequence")
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, row]));
  }

  /** How many jobs are scheduled and in progress, by kind and status (the metrics read it at each scrape). */
  async countUnfinished(): Promise<{ kind: string; status: string; count: number }[]> {
    const rows = await this.db
      .selectFrom("jobs")
      .select((eb) => ["kind", "status", eb.fn.countAll<number | string>().as("count")])
      .where("status", "in", ["scheduled", "in_progress"])
      .groupBy(["kind", "status"])
      .execute();
    return rows.map((row) => ({ kind: row.kind, status: row.status, count: Number(row.count) }));
  }

  /** The conversation's earliest job not yet started, if any: it will read the conversation as it is then. */
  findWaiting(conversationId: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom("jobs")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("status", "=", "scheduled")
      .orderBy("sequence")
      .limit(1)
      .executeTakeFirst();
  }

  async nextSequence(conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.max("sequence").as("last"))
      .where("conversation_id", "=", conversationId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  /**
   * Claims the oldest runnable job of the kind at the stage (null: a job with no stage left): scheduled, or in
   * progress with an expired lease (its process died, or its retry is due), and with no earlier unfinished job
   * of the same conversation. The conditional update makes the claim safe when several processes share the
   * database.
   */
  async claimNext(
    kind: string,
    now: string,
    leaseExpiresAt: string,
    stage: string | null = null,
  ): Promise<JobRow | undefined> {
    const candidates = await this.db
      .selectFrom("jobs as j")
      .selectAll("j")
      .where("j.kind", "=", kind)
      .where((eb) => (stage === null ? eb("j.stage", "is", null) : eb("j.stage", "=", stage)))
      .where((eb) =>
        eb.or([
          eb("j.status", "=", "scheduled"),
          eb.and([eb("j.status", "=", "in_progress"), eb("j.lease_expires_at", "<=", now)]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("jobs as p")
              .select("p.id")
              .whereRef("p.conversation_id", "=", "j.conversation_id")
              .whereRef("p.sequence", "<", "j.sequence")
              .where("p.status", "in", ["scheduled", "in_progress"]),
          ),
        ),
      )
      .orderBy("j.created_at")
      .orderBy("j.sequence")
      .limit(5)
      .execute();
    for (const job of candidates) {
      const result = await this.db
        .updateTable("jobs")
        .set({
          status: "in_progress",
          lease_expires_at: leaseExpiresAt,
          attempts: job.attempts + 1,
          updated_at: now,
        })
        .where("id", "=", job.id)
        .where("status", "=", job.status)
        .where("attempts", "=", job.attempts)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) {
        return {
          ...job,
          status: "in_progress",
          lease_expires_at: leaseExpiresAt,
          attempts: job.attempts + 1,
        };
      }
    }
    return undefined;
  }

  /**
   * The fence of a job's writes, called first in each transaction that writes its results: throws
   * ClaimTakenOver unless the claim still holds. The no-op update also locks the job row until the
   * transaction ends, so no other process can claim the job between this check and the commit.
   */
  async holdClaim(claim: Claim): Promise<void> {
    const result = await this.db
      .updateTable("jobs")
      .set({ attempts: claim.attempts })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new ClaimTakenOver(claim.id);
  }

  /**
   * Renews the lease while the claim holds (a claim taken over is left to its new owner); false when it no
   * longer holds.
   */
  async extendLease(claim: Claim, leaseExpiresAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ lease_expires_at: leaseExpiresAt })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends the claim's lease now, so any process may take the job up again at once. */
  async releaseLease(claim: Claim, now: string): Promise<void> {
    await this.db
      .updateTable("jobs")
      .set({ lease_expires_at: now })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .execute();
  }

  /**
   * Ends the claimed job's stage while the claim holds: with no stage left, any process's runner of its kind
   * claims it at once. False when the claim no longer holds.
   */
  async passOn(claim: Claim, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ stage: null, lease_expires_at: now, updated_at: now })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Puts the claimed job back, to be claimed again from `retryAt`, counting the retry, while the claim holds.
   * It stays in progress for its submitter. False when the claim no longer holds.
   */
  async retryLater(claim: Claim & Pick<JobRow, "retries">, retryAt: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ lease_expires_at: retryAt, retries: claim.retries + 1, updated_at: now })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records how far the claimed job has got (0 to 1), while the claim holds. */
  async setProgress(claim: Claim, progress: number): Promise<void> {
    await this.db
      .updateTable("jobs")
      .set({ progress })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .execute();
  }

  /** Makes every in-progress job claimable now; used at start when this process owns the database. */
  async releaseAllLeases(now: string): Promise<number> {
    const result = await this.db
      .updateTable("jobs")
      .set({ lease_expires_at: now })
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Records the job's outcome if the claim still holds; false when another process took it over. */
  async finish(
    claim: Claim,
    status: "completed" | "failed",
    error: string | null,
    now: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ status, error, lease_expires_at: null, updated_at: now })
      .where("id", "=", claim.id)
      .where("attempts", "=", claim.attempts)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * The app's live stream with this connection id that a process still holds (docs/LIVE.md): its job, in
   * progress with attempts 0 (no runner has claimed it) and a lease not yet lapsed.
   */
  findLive(appId: string, connectionId: string, now: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom("jobs")
      .selectAll()
      .where("app_id", "=", appId)
      .where("live_connection_id", "=", connectionId)
      .where("status", "=", "in_progress")
      .where("attempts", "=", 0)
      .where("lease_expires_at", ">", now)
      .orderBy("sequence")
      .limit(1)
      .executeTakeFirst();
  }

  /** Whether the conversation is being streamed: a live stream's job still held by its process. */
  async isLive(conversationId: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("jobs")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .where("live_connection_id", "is not", null)
      .where("status", "=", "in_progress")
      .where("attempts", "=", 0)
      .where("lease_expires_at", ">", now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Hands a live stream's job, still held by its process (attempts 0), to the job runners: scheduled, so one
   * claims it at once. False when a runner took it over (the stream's process stalled past its lease).
   */
  async handOver(jobId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ status: "scheduled", lease_expires_at: null, updated_at: now })
      .where("id", "=", jobId)
      .where("attempts", "=", 0)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Of these jobs, the ones scheduled or in progress. */
  async unfinishedAmong(jobIds: string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("jobs")
      .select("id")
      .where("id", "in", jobIds)
      .where("status", "in", ["scheduled", "in_progress"])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Deletes a live stream's job still held by its process: the stream ended with nothing to analyse. */
  async dropLive(jobId: string): Promise<void> {
    await this.db
      .deleteFrom("jobs")
      .where("id", "=", jobId)
      .where("attempts", "=", 0)
      .where("status", "=", "in_progress")
      .execute();
  }
}
