import type SQLite from "better-sqlite3";
import { LRUCache } from "lru-cache";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many statements stay prepared, and the longest SQL kept (multi-row inserts differ per batch size). */
const MAX_STATEMENTS = 256;
const MAX_SQL_LENGTH = 4096;

/**
 * A reading statement whose rows are made into objects here, from the arrays SQLite answers (`raw`):
 * better-sqlite3 builds each row object through V8's API, and a long transcript's 1,257 rows read in
 * 1.25 ms this way against 1.9 ms (a 6-member read: 11.1 against 12.4 µs). The column names are read
 * once, and again when a row's width changes: SQLite re-prepares a statement after a schema change, so a
 * `SELECT *` kept across a migration answers the new columns. A migration that only renames a column
 * while this process runs is not seen; processes are restarted with a migration (docs/ARCHITECTURE.md).
 */
function rowsAsObjects(statement: SQLite.Statement): SqliteStatement {
  const arrays = statement.raw(true);
  let names: string[] = [];
  const toObject = (values: unknown[]) => {
    if (values.length !== names.length) names = arrays.columns().map((column) => column.name);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (arrays.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => arrays.run(parameters),
    *iterate(parameters) {
      for (const values of arrays.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

/**
 * better-sqlite3's database for Kysely's SqliteDialect, preparing each SQL text once: the dialect calls
 * `prepare` on every query, and SQLite's compiling a statement cost about as much as running it on the
 * API's routes. Statements are kept by their SQL, least recently used out first; SQLite re-prepares a kept statement
 * itself after a schema change. Kysely runs one query at a time on its one connection, so a kept
 * statement is never used twice at once. Reading statements answer rows made by `rowsAsObjects`.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: MAX_STATEMENTS });
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement === undefined) {
        const prepared = database.prepare(sql);
        statement = prepared.reader ? rowsAsObjects(prepared) : prepared;
        if (sql.length <= MAX_SQL_LENGTH) statements.set(sql, statement);
      }
      return statement;
    },
  };
}
