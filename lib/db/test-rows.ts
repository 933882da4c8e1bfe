import { expect } from "vitest";
import { type Db, databaseKind } from "./client";

// Shared by integration tests that prove a deletion left nothing behind (the same check as admin.int.test.ts).

/**
 * Rows in every table of the database (whatever tables later migrations add) with any column whose text
 * contains one of `ids`. AuditLog.targetId is left out: the audit entry names what was deleted, by design.
 */
export async function rowsReferring(db: Db, url: string, ids: string[]): Promise<Record<string, number>> {
  // Ids are interpolated into LIKE patterns: only cuid/UUID characters.
  for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/i);
  const columns =
    databaseKind(url) === "sqlite"
      ? await db.$queryRawUnsafe<{ table: string; column: string }[]>(
          `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) p
           WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_prisma_migrations'`,
        )
      : await db.$queryRawUnsafe<{ table: string; column: string }[]>(
          `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`,
        );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) {
    if (table === "AuditLog" && column === "targetId") continue;
    byTable.set(table, [...(byTable.get(table) ?? []), column]);
  }
  expect([...byTable.keys()]).toEqual(
    expect.arrayContaining([
      "User",
      "ChatSession",
      "ChatMessage",
      "MemorySnapshot",
      "TurnContext",
      "AuditLog",
    ]),
  );
  const out: Record<string, number> = {};
  for (const [table, cols] of byTable) {
    const match = cols.flatMap((c) => ids.map((id) => `CAST("${c}" AS TEXT) LIKE '%${id}%'`)).join(" OR ");
    const [row] = await db.$queryRawUnsafe<{ n: bigint | number }[]>(
      `SELECT COUNT(*) AS n FROM "${table}" WHERE ${match}`,
    );
    out[table] = Number(row?.n);
  }
  return out;
}

export const zeroEverywhere = (counts: Record<string, number>) =>
  Object.fromEntries(Object.keys(counts).map((table) => [table, 0]));
