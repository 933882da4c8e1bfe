import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { cacheStatements } from "./client";

// The SQLite statement cache of lib/db/client.ts, on an in-memory database, used exactly as the Prisma adapter
// uses a connection: prepare(sql).bind(args), then run(), or reader / columns() / raw().all().

function conn() {
  const db = new Database(":memory:");
  db.defaultSafeIntegers(true);
  db.exec(`CREATE TABLE t ("id" TEXT PRIMARY KEY, "n" INTEGER)`);
  const prepare = vi.spyOn(db, "prepare");
  cacheStatements(db, 2);
  return { db, prepared: () => prepare.mock.calls.length };
}

const insert = `INSERT INTO t ("id", "n") VALUES (?, ?)`;
const select = `SELECT "id", "n" FROM t WHERE "n" >= ? ORDER BY "id"`;

describe("cacheStatements", () => {
  it("prepares a SQL text once and runs it with each call's own arguments", () => {
    const { db, prepared } = conn();
    for (const [id, n] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const) {
      expect(db.prepare(insert).bind([id, n]).run().changes).toBe(1);
    }
    const read = (min: number) => {
      const stmt = db.prepare(select).bind([min]);
      expect(stmt.reader).toBe(true);
      return { columns: stmt.columns().map((c) => c.name), rows: stmt.raw().all() };
    };
    expect(read(2)).toEqual({
      columns: ["id", "n"],
      rows: [
        ["b", 2n],
        ["c", 3n],
      ],
    });
    expect(read(3).rows).toEqual([["c", 3n]]);
    expect(prepared()).toBe(2);
  });

  it("drops the least recently used statement beyond its size, and prepares it again when asked", () => {
    const { db, prepared } = conn();
    db.prepare(insert).bind(["a", 1]).run();
    db.prepare(select).bind([0]).raw().all();
    db.prepare(insert).bind(["b", 2]).run(); // insert is now the most recent
    db.prepare(`DELETE FROM t WHERE "id" = ?`).bind(["b"]).run(); // evicts select
    expect(prepared()).toBe(3);
    db.prepare(insert).bind(["c", 3]).run();
    expect(prepared()).toBe(3);
    expect(db.prepare(select).bind([0]).raw().all()).toEqual([
      ["a", 1n],
      ["c", 3n],
    ]);
    expect(prepared()).toBe(4);
  });

  it("a cached statement follows a schema change, and fails as a fresh one would when its table is gone", () => {
    const { db } = conn();
    db.prepare(insert).bind(["a", 1]).run();
    expect(db.prepare(select).bind([0]).raw().all()).toEqual([["a", 1n]]);
    db.exec(`ALTER TABLE t RENAME TO away`);
    expect(() => db.prepare(select).bind([0]).raw().all()).toThrow(/no such table/);
    db.exec(`ALTER TABLE away RENAME TO t`);
    db.exec(`ALTER TABLE t ADD COLUMN "extra" TEXT`);
    expect(db.prepare(select).bind([0]).raw().all()).toEqual([["a", 1n]]);
  });

  it("errors reach the caller as before: a constraint violation is thrown by run()", () => {
    const { db } = conn();
    db.prepare(insert).bind(["a", 1]).run();
    expect(() => db.prepare(insert).bind(["a", 2]).run()).toThrow(/UNIQUE constraint failed/);
    expect(db.prepare(insert).bind(["b", 2]).run().changes).toBe(1);
  });
});
