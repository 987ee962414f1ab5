import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";

/**
 * Ends earlier tokens at a secret rotation (`apps.secret_generation`, carried in every token), signs
 * webhooks with a per-app secret (`apps.webhook_secret`, Standard Webhooks `whsec_…`), and keeps webhook
 * events in a durable outbox written with the job change they report.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("apps")
    .addColumn("secret_generation", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("apps")
    .addColumn("webhook_secret", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const apps = await sql<{ id: string }>`select id from apps`.execute(db);
  for (const { id } of apps.rows) {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    await sql`update apps set webhook_secret = ${secret} where id = ${id}`.execute(db);
  }

  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("job_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_events_due")
    .on("webhook_events")
    .columns(["state", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("webhook_events_job")
    .on("webhook_events")
    .columns(["job_id", "position"])
    .execute();
}
