import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { precompile } from "./precompiled.ts";

interface Notes {
  notes: { id: number; owner: string; text: string | null; kind: string };
}

describe("precompile", () => {
  let dir: string;
  let db: Kysely<Notes>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "recap-precompiled-"));
    const sqlite = new SQLite(join(dir, "test.db"));
    sqlite.exec(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, text TEXT, kind TEXT NOT NULL)",
    );
    db = new Kysely<Notes>({ dialect: new SqliteDialect({ database: sqlite }) });
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs one built query with each call's values, constants of the query kept", async () => {
    const insert = precompile(db, (row: Notes["notes"]) => db.insertInto("notes").values(row), [
      "id",
      "owner",
      "text",
      "kind",
    ]);
    const ofOwner = precompile(db, (key: { owner: string; after: number }) =>
      db
        .selectFrom("notes")
        .select(["id", "text"])
        .where("owner", "=", key.owner)
        .where("id", ">", key.after)
        .where("kind", "=", "note")
        .orderBy("id"),
    );
    await insert({ id: 1, owner: "ann", text: "first", kind: "note" });
    await insert({ id: 2, owner: "ann", text: null, kind: "note" });
    await insert({ id: 3, owner: "bob", text: "third", kind: "note" });
    await insert({ id: 4, owner: "ann", text: "a draft", kind: "draft" });

    expect((await ofOwner({ owner: "ann", after: 0 })).rows).toEqual([
      { id: 1, text: "first" },
      { id: 2, text: null },
    ]);
    expect((await ofOwner({ owner: "ann", after: 1 })).rows).toEqual([{ id: 2, text: null }]);
    expect((await ofOwner({ owner: "bob", after: 0 })).rows).toEqual([{ id: 3, text: "third" }]);
    expect((await ofOwner({ owner: "eve", after: 0 })).rows).toEqual([]);
  });

  it("refuses a value that does not become a bound parameter", async () => {
    const sorted = precompile(db, (key: { column: string }) =>
      db
        .selectFrom("notes")
        .select("id")
        .orderBy(key.column === "id" ? "id" : "owner"),
    );
    await expect(sorted({ column: "id" })).rejects.toThrow("column is not a bound parameter");
  });
});
