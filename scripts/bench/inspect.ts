import Database from "better-sqlite3";
import pg from "pg";
import { dialectOf, sqliteFilePath } from "../lib/database-url";
import { ROOT } from "../lib/paths";

// A direct connection for the benchmark's own checks (rows left after a delete, gap-free seqs, PostgreSQL's
// statistics), outside the app and its Prisma client. SQL is written with `?` placeholders for both dialects.

export interface Inspector {
  dialect: "sqlite" | "postgresql";
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function openInspector(url: string): Promise<Inspector> {
  if (dialectOf(url) === "sqlite") {
    const conn = new Database(sqliteFilePath(url, ROOT), { fileMustExist: true });
    conn.pragma("busy_timeout = 5000");
    conn.defaultSafeIntegers(false);
    return {
      dialect: "sqlite",
      all: async <T>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as T[],
      close: async () => {
        conn.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    dialect: "postgresql",
    all: async <T>(sql: string, params: unknown[] = []) => {
      let i = 0;
      const text = sql.replace(/\?/g, () => `$${++i}`);
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}

/** Rows referring to a session, per table (the tables that cascade from ChatSession). */
export async function rowsForSession(
  inspector: Inspector,
  sessionId: string,
): Promise<Record<string, number>> {
  const [row] = await inspector.all<Record<string, number | string>>(
    `SELECT
       (SELECT COUNT(*) FROM "ChatSession" WHERE "id" = ?) AS "ChatSession",
       (SELECT COUNT(*) FROM "ChatMessage" WHERE "sessionId" = ?) AS "ChatMessage",
       (SELECT COUNT(*) FROM "MemorySnapshot" WHERE "sessionId" = ?) AS "MemorySnapshot",
       (SELECT COUNT(*) FROM "TurnContext" WHERE "sessionId" = ?) AS "TurnContext"`,
    [sessionId, sessionId, sessionId, sessionId],
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}

/** seq is 1..lastSeq without gaps or duplicates, and there is exactly one snapshot row. */
export async function checkSessionIntegrity(inspector: Inspector, sessionId: string): Promise<string | null> {
  const [row] = await inspector.all<Record<string, number | string | null>>(
    `SELECT s."lastSeq" AS "lastSeq",
       (SELECT COUNT(*) FROM "ChatMessage" m WHERE m."sessionId" = s."id") AS "count",
       (SELECT COUNT(DISTINCT m."seq") FROM "ChatMessage" m WHERE m."sessionId" = s."id") AS "distinctSeqs",
       (SELECT MIN(m."seq") FROM "ChatMessage" m WHERE m."sessionId" = s."id") AS "minSeq",
       (SELECT MAX(m."seq") FROM "ChatMessage" m WHERE m."sessionId" = s."id") AS "maxSeq",
       (SELECT COUNT(*) FROM "MemorySnapshot" x WHERE x."sessionId" = s."id") AS "snapshots"
     FROM "ChatSession" s WHERE s."id" = ?`,
    [sessionId],
  );
  if (!row) return `session ${sessionId} is missing`;
  const n = (k: string) => Number(row[k]);
  const last = n("lastSeq");
  if (
    n("count") !== last ||
    n("distinctSeqs") !== last ||
    n("maxSeq") !== last ||
    (last > 0 && n("minSeq") !== 1)
  ) {
    return `session ${sessionId}: seq not gap-free (${JSON.stringify(row)})`;
  }
  if (n("snapshots") !== 1) return `session ${sessionId}: ${n("snapshots")} memory snapshot rows, expected 1`;
  return null;
}

export interface TableActivity {
  seqScans: number;
  seqRowsRead: number;
  indexScans: number;
  indexRowsFetched: number;
}

/**
 * PostgreSQL's cumulative statistics for a table. Server backends report them when they go idle (at most about a
 * second later), so the caller waits before reading a delta.
 */
export async function tableActivity(inspector: Inspector, table: string): Promise<TableActivity> {
  await inspector.all("SELECT pg_stat_clear_snapshot()");
  const [row] = await inspector.all<Record<string, string | number | null>>(
    `SELECT seq_scan, seq_tup_read, idx_scan, idx_tup_fetch FROM pg_stat_user_tables WHERE relname = ?`,
    [table],
  );
  return {
    seqScans: Number(row?.seq_scan ?? 0),
    seqRowsRead: Number(row?.seq_tup_read ?? 0),
    indexScans: Number(row?.idx_scan ?? 0),
    indexRowsFetched: Number(row?.idx_tup_fetch ?? 0),
  };
}
