import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, WebhookEventRow } from "../../db/schema.ts";

/** What a job's webhook receives: Symbl's job-status shape, and Recap's `message` saying why a job failed. */
export interface JobStatusPayload {
  jobId: string;
  status: string;
  message?: string;
}

/** The webhook outbox: events written with the job change they report, sent later by WebhookSender. */
export class WebhookEventsRepository {
  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {}

  /**
   * Adds a job's status change after its earlier events, unless the job has no webhook; `message` (why a job
   * failed) is carried with a failure only. Call it in the transaction that makes the change, so the event
   * exists exactly when the change does.
   */
  async addJobStatus(
    job: { id: string; app_id: string; webhook_url: string | null },
    status: string,
    now: string,
    message: string | null = null,
  ): Promise<void> {
    if (job.webhook_url === null) return;
    const last = await this.db
      .selectFrom("webhook_events")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("job_id", "=", job.id)
      .executeTakeFirst();
    const payload: JobStatusPayload = {
      jobId: job.id,
      status,
      ...(status === "failed" && message !== null && { message }),
    };
    await this.db
      .insertInto("webhook_events")
      .values({
        id: `msg_${randomUUID().replaceAll("-", "")}`,
        app_id: job.app_id,
        job_id: job.id,
        position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
        url: job.webhook_url,
        payload: JSON.stringify(payload),
        state: "pending",
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_error: null,
        created_at: now,
      })
      .execute();
  }

  /**
   * Pending events due by `now` and not claimed, each the first pending event of its job (so a job's
   * events go out in order), oldest first.
   */
  dueHeads(now: string, limit: number): Promise<WebhookEventRow[]> {
    return this.db
      .selectFrom("webhook_events as e")
      .selectAll("e")
      .where("e.state", "=", "pending")
      .where("e.next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("e.locked_until", "is", null), eb("e.locked_until", "<=", now)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("webhook_events as p")
              .select("p.id")
              .whereRef("p.job_id", "=", "e.job_id")
              .whereRef("p.position", "<", "e.position")
              .where("p.state", "=", "pending"),
          ),
        ),
      )
      .orderBy("e.created_at")
      .orderBy("e.position")
      .limit(limit)
      .execute();
  }

  /** Claims an event for one attempt until `lockedUntil`; false when another process holds it. */
  async claim(event: WebhookEventRow, now: string, lockedUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable("webhook_events")
      .set({ locked_until: lockedUntil, attempts: event.attempts + 1 })
      .where("id", "=", event.id)
      .where("state", "=", "pending")
      .where("attempts", "=", event.attempts)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A delivered event leaves the outbox. */
  async delivered(id: string): Promise<void> {
    await this.db.deleteFrom("webhook_events").where("id", "=", id).execute();
  }

  /** Records a failed attempt: tried again at `nextAttemptAt`, or failed for good when that is null. */
  async attemptFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
    await this.db
      .updateTable("webhook_events")
      .set({
        locked_until: null,
        last_error: error,
        ...(nextAttemptAt === null ? { state: "failed" } : { next_attempt_at: nextAttemptAt }),
      })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes the events that failed for good with their last attempt due before `before`; says how many. */
  async deleteFailedBefore(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("webhook_events")
      .where("state", "=", "failed")
      .where("next_attempt_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Frees every claim; used at start when this process owns the database, so none is a live sender's. */
  async releaseAllClaims(): Promise<void> {
    await this.db
      .updateTable("webhook_events")
      .set({ locked_until: null })
      .where("state", "=", "pending")
      .execute();
  }
}
