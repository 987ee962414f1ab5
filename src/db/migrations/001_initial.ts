import type { Kysely } from "kysely";

/** The first schema: every table uses portable types so one migration serves SQLite and PostgreSQL. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("custom_domain", "text")
    .addColumn("frame_ancestors", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("apps_custom_domain").on("apps").column("custom_domain").execute();

  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("end_time", "text")
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("confidence_threshold", "double precision")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("conversations_app_created")
    .on("conversations")
    .columns(["app_id", "created_at"])
    .execute();

  await db.schema
    .createTable("members")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("user_id", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("members_conversation").on("members").column("conversation_id").execute();

  await db.schema
    .createTable("member_identities")
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("identity_key", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("member_identities_pk", ["conversation_id", "identity_key"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("sequence", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("webhook_url", "text")
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("lease_expires_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("jobs_conversation_sequence", ["conversation_id", "sequence"])
    .execute();
  await db.schema.createIndex("jobs_status").on("jobs").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("job_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("from_name", "text")
    .addColumn("from_user_id", "text")
    .addColumn("from_email", "text")
    .addColumn("member_id", "text", (c) => c.references("members.id").onDelete("set null"))
    .addColumn("start_time", "text")
    .addColumn("end_time", "text")
    .addColumn("hidden", "integer", (c) => c.notNull())
    .addUniqueConstraint("messages_conversation_position", ["conversation_id", "position"])
    .execute();
  await db.schema.createIndex("messages_job").on("messages").column("job_id").execute();

  for (const table of ["summaries", "topics"] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("conversation_id", "text", (c) =>
        c.notNull().references("conversations.id").onDelete("cascade"),
      )
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("message_ids", "text", (c) => c.notNull());
    if (table === "topics") builder = builder.addColumn("score", "double precision", (c) => c.notNull());
    await builder.execute();
    await db.schema.createIndex(`${table}_conversation`).on(table).column("conversation_id").execute();
  }

  await db.schema
    .createTable("insights")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("score", "double precision", (c) => c.notNull())
    .addColumn("message_ids", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.references("members.id").onDelete("set null"))
    .addColumn("assignee_name", "text")
    .addColumn("due_by", "text")
    .addColumn("dismissed", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("insights_conversation").on("insights").column("conversation_id").execute();

  await db.schema
    .createTable("experiences")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("settings", "text", (c) => c.notNull())
    .addColumn("read_only", "integer", (c) => c.notNull())
    .addColumn("custom_domain", "text")
    .addColumn("expires_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("experiences_conversation")
    .on("experiences")
    .column("conversation_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "experiences",
    "insights",
    "topics",
    "summaries",
    "messages",
    "jobs",
    "member_identities",
    "members",
    "conversations",
    "apps",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
