import type SQLite from "better-sqlite3";
import { LRUCache } from "lru-cache";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many statements stay prepared, and the longest SQL kept (multi-row inserts differ per batch size). */
const MAX_STATEMENTS = 256;
const MAX_SQL_LENGTH = 4096;

/**
 * better-sqlite3's database for Kysely's SqliteDialect, preparing each SQL text once: the dialect calls
 * `prepare` on every query, and SQLite's compiling a statement cost about as much as running it on the
 * API's routes. Statements are kept by their SQL, least recently used out first; SQLite re-prepares a kept statement
 * itself after a schema change. Kysely runs one query at a time on its one connection, so a kept
 * statement is never used twice at once.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: MAX_STATEMENTS });
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (sql.length <= MAX_SQL_LENGTH) statements.set(sql, statement);
      }
      return statement;
    },
  };
}
