import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { expect } from "vitest";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/generated/sqlite/client";
import { type Db, databaseKind, sqlitePath } from "./client";

// Shared by integration tests: proving a deletion left nothing behind, and seeing the statements a query sends.

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

/** A client of the test database (`url`) that reports every SQL statement it sends, with its parameters. */
export function loggingClient(url: string) {
  const log = [{ emit: "event" as const, level: "query" as const }];
  const client =
    databaseKind(url) === "sqlite"
      ? new SqlitePrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqlitePath(url) }), log })
      : (new PostgresPrismaClient({
          adapter: new PrismaPg({ connectionString: url }),
          log,
        }) as unknown as SqlitePrismaClient<"query">);
  const statements: { query: string; params: unknown[] }[] = [];
  client.$on("query", (e) => statements.push({ query: e.query, params: JSON.parse(e.params) as unknown[] }));
  return { client, statements };
}
