import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.ts";

describe("withStatementCache", () => {
  let dir: string;
  let sqlite: SQLite.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "recap-statements-"));
    sqlite = new SQLite(join(dir, "test.db"));
    sqlite.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  });
  afterEach(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prepares a SQL text once and answers each run with the rows as they are then", () => {
    const database = withStatementCache(sqlite);
    const select = "SELECT * FROM notes ORDER BY id";
    expect(database.prepare(select)).toBe(database.prepare(select));
    database.prepare("INSERT INTO notes (text) VALUES (?)").run(["first"]);
    expect(database.prepare(select).all([])).toEqual([{ id: 1, text: "first" }]);
    database.prepare("INSERT INTO notes (text) VALUES (?)").run(["second"]);
    expect(database.prepare(select).all([])).toHaveLength(2);
  });

  it("answers a kept statement with the new columns after a migration", () => {
    const database = withStatementCache(sqlite);
    database.prepare("INSERT INTO notes (text) VALUES (?)").run(["first"]);
    expect(database.prepare("SELECT * FROM notes").all([])).toEqual([{ id: 1, text: "first" }]);
    sqlite.exec("ALTER TABLE notes ADD COLUMN version INTEGER NOT NULL DEFAULT 0");
    expect(database.prepare("SELECT * FROM notes").all([])).toEqual([{ id: 1, text: "first", version: 0 }]);
  });

  it("answers rows as objects with their columns' names, however they are read", () => {
    const database = withStatementCache(sqlite);
    const inserted = database
      .prepare("INSERT INTO notes (text) VALUES (?) RETURNING id, text AS body")
      .all(["a"]);
    expect(inserted).toEqual([{ id: 1, body: "a" }]);
    database.prepare("INSERT INTO notes (text) VALUES (?)").run(["b"]);
    const select =
      "SELECT n.id, n.text, m.id FROM notes n LEFT JOIN notes m ON m.id = n.id + 1 ORDER BY n.id";
    // Two columns of one name: the last wins, as better-sqlite3's own rows have it.
    expect(database.prepare(select).all([])).toEqual([
      { id: 2, text: "a" },
      { id: null, text: "b" },
    ]);
    expect([...database.prepare("SELECT text FROM notes WHERE id > ?").iterate([0])]).toEqual([
      { text: "a" },
      { text: "b" },
    ]);
  });

  it("does not keep very long SQL, such as a large multi-row insert", () => {
    const database = withStatementCache(sqlite);
    const insert = `INSERT INTO notes (text) VALUES ${Array.from({ length: 1000 }, () => "(?)").join(", ")}`;
    expect(database.prepare(insert)).not.toBe(database.prepare(insert));
  });
});
