// The SQLite file as `bin/recap backup` and `restore` handle it (docs/OPERATIONS.md, Backup and restore): a
// consistent copy made while servers write to it, the migrations a copy has, and whether a server holds it.
import SQLite from "better-sqlite3";

/** The files an SQLite database in WAL mode may consist of: the database, its write-ahead log and its index. */
export const SQLITE_FILE_SUFFIXES = ["", "-wal", "-shm"] as const;

/** Kysely's Migrator records each applied migration here (db/database.ts). */
const MIGRATION_TABLE = "kysely_migration";

/** Pages per backup step: all of them, so the copy is made in one read transaction (see snapshotSqlite). */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the database at `source` to `destination` (a new file) with SQLite's online backup API while other
 * processes keep writing. The copy is taken in one step, inside one read transaction: in WAL mode writers go on
 * meanwhile, and the copy holds every transaction committed before it began and none after. (Smaller steps
 * would be restarted by every write from another process and, under steady writes, might never finish.)
 * Throws when `source` is not an SQLite database.
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  const database = new SQLite(source, { fileMustExist: true, timeout: 5_000 });
  try {
    await database.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    database.close();
  }
}

/** The names of the migrations applied to the SQLite file at `path`, in order (none when it has no schema). */
export function migrationsOf(path: string): string[] {
  const database = new SQLite(path, { fileMustExist: true });
  try {
    const table = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(MIGRATION_TABLE);
    if (table === undefined) return [];
    return database.prepare(`SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`).pluck().all().map(String);
  } finally {
    database.close();
  }
}

/**
 * Whether another connection has the SQLite file at `path` open: a server (of this host) holds it. An open
 * connection in WAL mode keeps a shared lock, so an exclusive lock cannot be had while one exists. False when
 * there is no file.
 */
export function sqliteInUse(path: string): boolean {
  let database: SQLite.Database;
  try {
    database = new SQLite(path, { fileMustExist: true, timeout: 0 });
  } catch {
    return false;
  }
  try {
    database.pragma("locking_mode = EXCLUSIVE");
    database.exec("BEGIN EXCLUSIVE");
    database.prepare("SELECT count(*) FROM sqlite_master").get();
    database.exec("COMMIT");
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "SQLITE_BUSY") return true;
    // A file that is not a database is held by no server.
    if (code === "SQLITE_NOTADB") return false;
    throw error;
  } finally {
    database.close();
  }
}
