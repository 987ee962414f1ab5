import type { Insertable } from "kysely";
import type { AppsTable, ConversationsTable, MessagesTable } from "../../src/db/schema.ts";

// Rows written straight to the database, for suites and benches that store more lines than ingesting them would
// allow in their time (or before the migrations that ingestion needs); every column a row has, the rest unset.

/** An app (made at `at`) whose secret no test signs with: its tokens are issued by the test's services. */
export function appRow(app: {
  id: string;
  at: string;
  name?: string;
  customDomain?: string | null;
}): Insertable<AppsTable> {
  return {
    id: app.id,
    secret_hash: "x",
    secret_generation: 0,
    webhook_secret: "whsec_x",
    name: app.name ?? app.id,
    custom_domain: app.customDomain ?? null,
    frame_ancestors: "[]",
    brand: "{}",
    created_at: app.at,
    updated_at: app.at,
  };
}

/** A conversation of the app, made when it starts. */
export function conversationRow(conversation: {
  id: string;
  appId: string;
  start: string;
  name?: string;
}): Insertable<ConversationsTable> {
  return {
    id: conversation.id,
    app_id: conversation.appId,
    name: conversation.name ?? `Meeting ${conversation.id}`,
    start_time: conversation.start,
    end_time: null,
    metadata: "{}",
    confidence_threshold: null,
    created_at: conversation.start,
    updated_at: conversation.start,
    summary_engine: null,
    decisions_engine: null,
    chapters_engine: null,
    action_items_engine: null,
    content_version: 0,
    language_code: null,
    language_given: null,
  };
}

/** A visible line of a conversation, said by `fromName` (the member, when given). */
export function messageRow(line: {
  id: string;
  conversationId: string;
  position: number;
  text: string;
  fromName: string;
  memberId?: string;
  startTime?: string;
}): Insertable<MessagesTable> {
  return {
    id: line.id,
    conversation_id: line.conversationId,
    job_id: "-",
    position: line.position,
    text: line.text,
    from_name: line.fromName,
    from_user_id: null,
    from_email: null,
    member_id: line.memberId ?? null,
    start_time: line.startTime ?? null,
    end_time: null,
    hidden: 0,
  };
}
