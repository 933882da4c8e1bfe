import Database from "better-sqlite3";
import pg from "pg";
import type { Role } from "@/lib/types";
import { dialectOf, sqliteFilePath } from "../lib/database-url";
import { ROOT } from "../lib/paths";

// Seeds the benchmark's history straight into the schema's tables, fast: on SQLite one transaction of prepared
// multi-row INSERTs through better-sqlite3; on PostgreSQL server-side INSERT … SELECT over generate_series.
// Every session gets gap-free seqs 1..H alternating user/assistant (all `complete`, ~200 characters each) and
// ChatSession.lastSeq = H. No MemorySnapshot rows are seeded: each session's first turn rebuilds its memory from
// an indexed read of the history tail, as it would after a policy change, and the benchmark measures that turn
// separately from the steady-state turns.

export interface SeedUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface SeedSession {
  id: string;
  /** A number unique among the plan's sessions; it makes message ids and texts. */
  n: number;
  userId: string;
  title: string;
  /** History length H. */
  messages: number;
}

export interface SeedPlan {
  passwordHash: string;
  users: SeedUser[];
  sessions: SeedSession[];
}

export interface SeedResult {
  users: number;
  sessions: number;
  messages: number;
  ms: number;
}

/** 25-character, cuid-shaped ids (lowercase letters and digits), so no route's id check can tell them apart. */
export function benchId(kind: string, n: number): string {
  return `c${kind}${n.toString(36).padStart(24 - kind.length, "0")}`;
}

export const messageId = (sessionN: number, seq: number) =>
  `cm${String(sessionN * 1_000_000 + seq).padStart(23, "0")}`;

const WORDS = (
  "the a of to and in that is for on with as it by this be are from at or an was not which have " +
  "project budget meeting notes schedule garden recipe travel invoice draft review weather library " +
  "kitchen station picture window system module question answer summary river mountain coffee " +
  "morning evening report customer release version update planning design network printer"
).split(" ");

/** 64 deterministic sentences of 185–195 characters, the bodies of seeded messages. */
export const TEXT_POOL: readonly string[] = (() => {
  let x = 2463534242;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const pool: string[] = [];
  for (let i = 0; i < 64; i++) {
    const target = 185 + Math.floor(next() * 11);
    let s = "";
    while (s.length < target) s += `${s ? " " : ""}${WORDS[Math.floor(next() * WORDS.length)]}`;
    pool.push(`${s.slice(0, target).trimEnd()}.`);
  }
  return pool;
})();

export const messageText = (sessionN: number, seq: number) =>
  `${TEXT_POOL[(sessionN + seq) % TEXT_POOL.length]} #${seq}`;

/** Seeded time line: every session starts 10 s after the previous one; messages are 1 s apart. */
const BASE_MS = Date.now() - 60 * 24 * 3600 * 1000;
const sessionStart = (n: number) => BASE_MS + n * 10_000;
const messageTime = (n: number, seq: number) => sessionStart(n) + seq * 1000;

// adapter-better-sqlite3 writes DateTime as ISO 8601 with an explicit offset; store the same format.
const sqliteTime = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

export async function seed(url: string, plan: SeedPlan): Promise<SeedResult> {
  const started = performance.now();
  const messages = dialectOf(url) === "sqlite" ? seedSqlite(url, plan) : await seedPostgres(url, plan);
  return {
    users: plan.users.length,
    sessions: plan.sessions.length,
    messages,
    ms: performance.now() - started,
  };
}

// ---------------------------------------------------------------------------------------------------- SQLite

// Linear histories: each message's parent is the one before it, the session's active leaf its last.
// A schema from before message trees (an older commit under --compare) has neither column: `tree` says which.
const messageColumns = (tree: boolean) =>
  `"id", "sessionId", "seq", ${tree ? `"parentId", ` : ""}"role", "text", "status", "model", "createdAt"`;
const sessionColumns = (tree: boolean) =>
  `"id", "userId", "title", "createdAt", "updatedAt", "lastSeq"${tree ? `, "activeLeafId", "activeLeafSeq"` : ""}`;
const ROWS_PER_INSERT = 200;

function seedSqlite(url: string, plan: SeedPlan): number {
  const conn = new Database(sqliteFilePath(url, ROOT));
  try {
    conn.pragma("busy_timeout = 5000");
    conn.pragma("journal_mode = WAL");
    conn.pragma("foreign_keys = ON");
    // This connection only: a crash mid-seed just means seeding again.
    conn.pragma("synchronous = OFF");
    const insertUser = conn.prepare(
      `INSERT INTO "User" ("id", "email", "name", "passwordHash", "role", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const tree =
      conn.prepare(`SELECT 1 FROM pragma_table_info('ChatMessage') WHERE name = 'parentId'`).get() !==
      undefined;
    const perMessage = tree ? 9 : 8;
    const insertSession = conn.prepare(
      `INSERT INTO "ChatSession" (${sessionColumns(tree)}) VALUES (?, ?, ?, ?, ?, ?${tree ? ", ?, ?" : ""})`,
    );
    const multi = new Map<number, Database.Statement>();
    const insertMessages = (rows: number) => {
      let stmt = multi.get(rows);
      if (!stmt) {
        const row = `(${Array.from({ length: perMessage }, () => "?").join(", ")})`;
        const values = Array.from({ length: rows }, () => row).join(", ");
        stmt = conn.prepare(`INSERT INTO "ChatMessage" (${messageColumns(tree)}) VALUES ${values}`);
        multi.set(rows, stmt);
      }
      return stmt;
    };

    let total = 0;
    conn.transaction(() => {
      const created = sqliteTime(BASE_MS);
      for (const u of plan.users) insertUser.run(u.id, u.email, u.name, plan.passwordHash, u.role, created);
      for (const s of plan.sessions) {
        const updated = s.messages ? messageTime(s.n, s.messages) : sessionStart(s.n);
        insertSession.run(
          s.id,
          s.userId,
          s.title,
          sqliteTime(sessionStart(s.n)),
          sqliteTime(updated),
          s.messages,
          ...(tree ? [s.messages ? messageId(s.n, s.messages) : null, s.messages] : []),
        );
      }
      let buffer: unknown[] = [];
      const flush = () => {
        if (buffer.length === 0) return;
        insertMessages(buffer.length / perMessage).run(buffer);
        buffer = [];
      };
      for (const s of plan.sessions) {
        for (let seq = 1; seq <= s.messages; seq++) {
          const user = seq % 2 === 1;
          buffer.push(
            messageId(s.n, seq),
            s.id,
            seq,
            ...(tree ? [seq > 1 ? messageId(s.n, seq - 1) : null] : []),
            user ? "user" : "assistant",
            messageText(s.n, seq),
            "complete",
            user ? null : "recall-offline",
            sqliteTime(messageTime(s.n, seq)),
          );
          if (buffer.length === ROWS_PER_INSERT * perMessage) flush();
        }
        total += s.messages;
      }
      flush();
    })();
    // Fold the WAL into the database file so the server starts on a compact file.
    conn.pragma("wal_checkpoint(TRUNCATE)");
    return total;
  } finally {
    conn.close();
  }
}

// ------------------------------------------------------------------------------------------------ PostgreSQL

const pgTime = (ms: number) => new Date(ms).toISOString();

async function seedPostgres(url: string, plan: SeedPlan): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET synchronous_commit = off");
    const tree =
      (
        await client.query(
          `SELECT 1 FROM information_schema.columns WHERE table_name = 'ChatMessage' AND column_name = 'parentId'`,
        )
      ).rowCount === 1;
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO "User" ("id", "email", "name", "passwordHash", "role", "createdAt")
       SELECT u.id, u.email, u.name, $5, u.role::"Role", $6::timestamp
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(id, email, name, role)`,
      [
        plan.users.map((u) => u.id),
        plan.users.map((u) => u.email),
        plan.users.map((u) => u.name),
        plan.users.map((u) => u.role),
        plan.passwordHash,
        pgTime(BASE_MS),
      ],
    );
    await client.query(
      `INSERT INTO "ChatSession" (${sessionColumns(tree)})
       SELECT s.id, s.user_id, s.title, s.created, s.updated, s.last_seq
              ${tree ? `, CASE WHEN s.last_seq > 0 THEN 'cm' || lpad((s.n * 1000000 + s.last_seq)::text, 23, '0') END, s.last_seq` : ""}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamp[], $5::timestamp[], $6::int[], $7::bigint[])
         AS s(id, user_id, title, created, updated, last_seq, n)`,
      [
        plan.sessions.map((s) => s.id),
        plan.sessions.map((s) => s.userId),
        plan.sessions.map((s) => s.title),
        plan.sessions.map((s) => pgTime(sessionStart(s.n))),
        plan.sessions.map((s) => pgTime(s.messages ? messageTime(s.n, s.messages) : sessionStart(s.n))),
        plan.sessions.map((s) => s.messages),
        plan.sessions.map((s) => s.n),
      ],
    );
    // One INSERT … SELECT per history length; large groups are split so no statement is unbounded.
    const groups = new Map<number, SeedSession[]>();
    for (const s of plan.sessions) {
      if (s.messages > 0) groups.set(s.messages, [...(groups.get(s.messages) ?? []), s]);
    }
    let total = 0;
    for (const [h, sessions] of groups) {
      const perStatement = Math.max(1, Math.floor(250_000 / h));
      for (let i = 0; i < sessions.length; i += perStatement) {
        const chunk = sessions.slice(i, i + perStatement);
        const result = await client.query(
          `INSERT INTO "ChatMessage" (${messageColumns(tree)})
           SELECT 'cm' || lpad((s.n * 1000000 + g.seq)::text, 23, '0'), s.id, g.seq,
                  ${tree ? `CASE WHEN g.seq > 1 THEN 'cm' || lpad((s.n * 1000000 + g.seq - 1)::text, 23, '0') END,` : ""}
                  (CASE WHEN g.seq % 2 = 1 THEN 'user' ELSE 'assistant' END)::"MessageRole",
                  ($3::text[])[1 + (s.n + g.seq) % ${TEXT_POOL.length}] || ' #' || g.seq,
                  'complete'::"MessageStatus",
                  CASE WHEN g.seq % 2 = 0 THEN 'recall-offline' END,
                  s.started + g.seq * interval '1 second'
           FROM unnest($1::text[], $2::bigint[], $5::timestamp[]) AS s(id, n, started)
           CROSS JOIN generate_series(1, $4::int) AS g(seq)
           ORDER BY s.n, g.seq`,
          [
            chunk.map((s) => s.id),
            chunk.map((s) => s.n),
            TEXT_POOL,
            h,
            chunk.map((s) => pgTime(sessionStart(s.n))),
          ],
        );
        total += result.rowCount ?? 0;
      }
    }
    await client.query("COMMIT");
    // Fresh planner statistics, as autovacuum would have them a minute later on a live server.
    await client.query("ANALYZE");
    return total;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * `count` long-term facts for one user, all learned from the first message of `session` (W1F). None shares a subject
 * with another, so all stay active.
 */
export async function seedFacts(url: string, { session, count }: { session: SeedSession; count: number }) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: benchId("f", i + 1),
    text: `My note number ${i + 1} says the ${TEXT_POOL[i % TEXT_POOL.length]?.split(" ").slice(0, 6).join(" ")}`,
    at: BASE_MS + i * 1000,
  }));
  const source = messageId(session.n, 1);
  if (dialectOf(url) === "sqlite") {
    const conn = new Database(sqliteFilePath(url, ROOT));
    try {
      conn.pragma("busy_timeout = 5000");
      const insert = conn.prepare(
        `INSERT INTO "MemoryFact" ("id", "userId", "text", "sourceSessionId", "sourceMessageId", "createdAt", "updatedAt")
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      conn.transaction(() => {
        for (const r of rows) {
          insert.run(r.id, session.userId, r.text, session.id, source, sqliteTime(r.at), sqliteTime(r.at));
        }
      })();
    } finally {
      conn.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "MemoryFact" ("id", "userId", "text", "sourceSessionId", "sourceMessageId", "createdAt", "updatedAt")
       SELECT id, $1, text, $2, $3, to_timestamp(at / 1000.0), to_timestamp(at / 1000.0)
       FROM unnest($4::text[], $5::text[], $6::bigint[]) AS t(id, text, at)`,
      [
        session.userId,
        session.id,
        source,
        rows.map((r) => r.id),
        rows.map((r) => r.text),
        rows.map((r) => r.at),
      ],
    );
  } finally {
    await client.end();
  }
}
