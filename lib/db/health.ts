import "server-only";
import { env } from "@/lib/env";
import { databaseKind, db } from "./client";

/**
 * Whether the database answers and accepts writes, as users will meet it: a read, then (SQLite) a write
 * transaction that takes the write lock and is rolled back, so a locked or read-only file reports degraded.
 * PostgreSQL: the read, and a check that the server accepts writes (not a read-only standby).
 */
export async function checkDatabase(): Promise<{ ok: boolean; kind: string; latencyMs: number }> {
  const started = performance.now();
  const kind = databaseKind(env.DATABASE_URL);
  try {
    await db.$queryRawUnsafe("SELECT 1");
    if (kind === "sqlite") {
      // BEGIN IMMEDIATE would be ideal; an UPDATE that matches nothing takes the same write lock.
      await db.$executeRawUnsafe(`UPDATE "User" SET "tokenVersion" = "tokenVersion" WHERE 0`);
    } else {
      const rows = await db.$queryRawUnsafe<{ transaction_read_only: string }[]>(
        "SHOW transaction_read_only",
      );
      if (rows[0]?.transaction_read_only === "on") throw new Error("the PostgreSQL server is read-only");
    }
    return { ok: true, kind, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (e) {
    console.error("[health] database unavailable", e instanceof Error ? e.message : e);
    return { ok: false, kind, latencyMs: Math.round(performance.now() - started) };
  }
}
