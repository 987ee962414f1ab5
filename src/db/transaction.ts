import type { Kysely } from "kysely";
import { DomainError } from "../errors.ts";
import type { Database } from "./schema.ts";

/**
 * Runs `work` in one transaction with `R` (repositories) bound to it. Services receive one from the
 * composition root (src/services.ts), which decides what `R` holds; db/ knows no feature.
 */
export type Transaction<R> = <T>(work: (repos: R) => Promise<T>) => Promise<T>;

/** How many times a transaction that lost a race with another writer is run in all. */
const ATTEMPTS = 4;

/**
 * Error codes that mean a transaction collided with a concurrent one and may well succeed when run again:
 * PostgreSQL's serialization failure, deadlock, unique and foreign-key violations (a row another writer
 * added or removed first); SQLite's lock still held after busy_timeout and the same constraint failures.
 */
const CONFLICT_CODES = new Set([
  "40001",
  "40P01",
  "23505",
  "23503",
  "SQLITE_BUSY",
  "SQLITE_BUSY_SNAPSHOT",
  "SQLITE_CONSTRAINT_UNIQUE",
  "SQLITE_CONSTRAINT_PRIMARYKEY",
  "SQLITE_CONSTRAINT_FOREIGNKEY",
]);

const codeOf = (error: unknown): unknown =>
  typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;

/** True for a database error that a concurrent writer caused; the one place that knows both dialects' codes. */
function isWriteConflict(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === "string" && CONFLICT_CODES.has(code);
}

/** True when a write was refused by a unique index (PostgreSQL's 23505, SQLite's constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Makes the `transaction(work)` of a database: each call runs `work` in one transaction with the
 * repositories `bind` makes on it; everything or nothing is written. A run that collides with a concurrent
 * writer is rolled back and run again, a few times; after that it throws `conflict` (409), which the caller
 * may retry. `work` must therefore have no effect outside the database.
 */
export function createTransaction<R>(
  db: Kysely<Database>,
  bind: (trx: Kysely<Database>) => R,
): Transaction<R> {
  return async (work) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute((trx) => work(bind(trx)));
      } catch (error) {
        if (!isWriteConflict(error)) throw error;
        if (attempt === ATTEMPTS) {
          throw new DomainError(
            "conflict",
            "The conversation was being changed by another request at the same time; try again",
          );
        }
      }
    }
  };
}
