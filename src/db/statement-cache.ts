import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many statements stay prepared, and the longest SQL kept (multi-row inserts differ per batch size). */
const MAX_STATEMENTS = 256;
const MAX_SQL_LENGTH = 4096;

/**
 * better-sqlite3's database for Kysely's SqliteDialect, preparing each SQL text once: the dialect calls
 * `prepare` on every query, and SQLite's compiling a statement cost about as much as running it on the
 * API's routes. Statements are kept by their SQL in a small LRU; SQLite re-prepares a kept statement
 * itself after a schema change. Kysely runs one query at a time on its one connection, so a kept
 * statement is never used twice at once.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const kept = statements.get(sql);
      if (kept !== undefined) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = database.prepare(sql);
      if (sql.length > MAX_SQL_LENGTH) return statement;
      statements.set(sql, statement);
      if (statements.size > MAX_STATEMENTS) {
        const oldest = statements.keys().next();
        if (oldest.done !== true) statements.delete(oldest.value);
      }
      return statement;
    },
  };
}
