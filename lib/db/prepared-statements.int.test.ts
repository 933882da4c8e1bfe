import { afterEach, describe, expect, it } from "vitest";
import { closeApps, createUserWithSession, loadApp } from "@/lib/chat/test-helpers";
import { databaseKind } from "./client";

// DATABASE_PREPARED_STATEMENTS (PostgreSQL): a statement is prepared once per pooled connection under a name, and
// not at all when the setting is off (behind a pooler that cannot keep prepared statements).

afterEach(closeApps);

const postgres = databaseKind(process.env.DATABASE_URL ?? "") !== "sqlite";

/** The statements prepared on the connection of one transaction, after it ran a turn's kind of query twice. */
async function preparedAfterTwoQueries(setting: string) {
  const app = await loadApp({ DATABASE_PREPARED_STATEMENTS: setting });
  const { sessionId } = await createUserWithSession(app.db);
  const { queryRows } = await import("./sql");
  const { withTransaction } = await import("./transaction");
  const text = `SELECT "title" FROM "ChatSession" WHERE "id" = ?`;
  return withTransaction(async (tx) => {
    for (let i = 0; i < 2; i++) {
      const rows = await queryRows<{ title: string }>(tx, text, [sessionId]);
      expect(rows).toEqual([{ title: "test" }]);
    }
    const prepared = await queryRows<{ name: string; statement: string }>(
      tx,
      `SELECT "name", "statement" FROM pg_prepared_statements WHERE "statement" LIKE ?`,
      ['SELECT "title" FROM "ChatSession"%'],
    );
    return prepared;
  });
}

describe.skipIf(!postgres)("prepared statements on PostgreSQL", () => {
  it("on (the default): the statement is prepared once on the connection, under a name", async () => {
    const prepared = await preparedAfterTwoQueries("true");
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^recall_/);
    expect(prepared[0]?.statement).toBe(`SELECT "title" FROM "ChatSession" WHERE "id" = $1`);
  });

  it("off: nothing is left prepared on the connection", async () => {
    expect(await preparedAfterTwoQueries("false")).toEqual([]);
  });
});

describe("statement names", () => {
  it("one name per distinct text, the same every time; texts past the bound go unnamed", async () => {
    const { statementNames } = await import("./client");
    const name = statementNames(2);
    const a = name({ sql: "SELECT 1" });
    const b = name({ sql: "SELECT 2" });
    expect(a).toMatch(/^recall_/);
    expect(b).not.toBe(a);
    expect(name({ sql: "SELECT 1" })).toBe(a);
    expect(name({ sql: "SELECT 3" })).toBe("");
    expect(name({ sql: "SELECT 2" })).toBe(b);
  });
});
