import { sql, type Kysely } from "kysely";
import { isSqlite } from "../full-text.ts";
import type { Database } from "../schema.ts";

/**
 * PostgreSQL's search index with each line's scope (docs/SEARCH.md, Speed): `message_search` holds a message's
 * tsvector beside its conversation's app and start, so that a search ranks only the app's lines in the dates asked
 * for (a GIN index on the vectors, a b-tree on app and start, combined by the planner). Triggers keep it in step:
 * a line written or edited, a conversation whose start moves (an appended line said earlier); a line is deleted
 * with its message by the foreign key. The table made at migration 023 (before this one) is replaced; its lines,
 * and an installation's lines from before search, are indexed after migrating by indexStoredMessages
 * (search-index.ts), in batches it can resume, from `message_search_backfill`; the GIN index is built after them.
 * SQLite's FTS5 index needs none of this: its filters join, and a conversation is a range of rowids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const typed = db as Kysely<Database>;
  if (isSqlite(typed)) return;
  await sql`DROP TABLE IF EXISTS message_search`.execute(db);
  await sql`DROP FUNCTION IF EXISTS messages_search_insert, messages_search_update CASCADE`.execute(db);
  await sql`CREATE TABLE message_search (
    message_id text PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    app_id text NOT NULL,
    conversation_start text NOT NULL,
    search_vector tsvector NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX message_search_scope ON message_search (app_id, conversation_start)`.execute(db);
  await sql`CREATE FUNCTION messages_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO message_search (message_id, app_id, conversation_start, search_vector)
        SELECT i.id, c.app_id, c.start_time, recap_search_vector(i.text)
        FROM inserted i JOIN conversations c ON c.id = i.conversation_id;
      RETURN NULL;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION messages_search_insert()`.execute(
    db,
  );
  await sql`CREATE FUNCTION messages_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE message_search SET search_vector = recap_search_vector(NEW.text) WHERE message_id = NEW.id;
      RETURN NULL;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
    FOR EACH ROW WHEN (OLD.text IS DISTINCT FROM NEW.text) EXECUTE FUNCTION messages_search_update()`.execute(
    db,
  );
  await sql`CREATE FUNCTION conversations_search_start() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE message_search s SET conversation_start = NEW.start_time
        FROM messages m WHERE m.conversation_id = NEW.id AND s.message_id = m.id;
      RETURN NULL;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER conversations_search_start AFTER UPDATE OF start_time ON conversations
    FOR EACH ROW WHEN (OLD.start_time IS DISTINCT FROM NEW.start_time)
    EXECUTE FUNCTION conversations_search_start()`.execute(db);
  await sql`CREATE TABLE message_search_backfill (last_id text NOT NULL)`.execute(db);
  await sql`INSERT INTO message_search_backfill (last_id) VALUES ('')`.execute(db);
}
