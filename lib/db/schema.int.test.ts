import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { migrateDatabase } from "../../scripts/lib/migrate";
import { databaseKind, db } from "./client";

// Runs once per integration project (SQLite, and PostgreSQL when available) against the database the global
// setup created and migrated for this run. Every test makes its own rows; none assumes empty tables.

const kind = databaseKind(env.DATABASE_URL);
const MODELS = ["User", "ChatSession", "ChatMessage", "MemorySnapshot", "TurnContext", "AuditLog"];

afterAll(async () => {
  await db.$disconnect();
});

const email = () => `user-${randomUUID()}@example.test`;

/** A user with `sessions` sessions, each holding a user + assistant turn, a snapshot and a turn context. */
async function seedUser(sessions = 2) {
  const user = await db.user.create({ data: { email: email(), name: "Test", passwordHash: "x" } });
  const sessionIds: string[] = [];
  const messageIds: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const session = await db.chatSession.create({ data: { userId: user.id, title: `s${i}`, lastSeq: 2 } });
    sessionIds.push(session.id);
    const question = await db.chatMessage.create({
      data: {
        sessionId: session.id,
        seq: 1,
        role: "user",
        text: "remember: blue",
        parts: [{ type: "text" }],
      },
    });
    const answer = await db.chatMessage.create({
      data: { sessionId: session.id, seq: 2, role: "assistant", text: "noted", status: "complete" },
    });
    messageIds.push(question.id, answer.id);
    await db.memorySnapshot.create({
      data: {
        sessionId: session.id,
        items: [{ role: "user", text: "remember: blue" }],
        policy: "window",
        throughSeq: 2,
      },
    });
    await db.turnContext.create({
      data: {
        sessionId: session.id,
        messageId: answer.id,
        entries: [{ source: "current", role: "user" }],
        tokenEstimate: 3,
        policy: "window",
        model: "recall-offline",
      },
    });
  }
  const audit = await db.auditLog.create({
    data: {
      actorId: user.id,
      action: "session.create",
      targetType: "session",
      targetId: sessionIds[0] ?? "",
      details: { n: 1 },
    },
  });
  return { user, sessionIds, messageIds, auditId: audit.id };
}

async function rowsOf(sessionIds: string[], messageIds: string[]) {
  const bySession = { sessionId: { in: sessionIds } };
  return {
    sessions: await db.chatSession.count({ where: { id: { in: sessionIds } } }),
    messages: await db.chatMessage.count({ where: { OR: [bySession, { id: { in: messageIds } }] } }),
    snapshots: await db.memorySnapshot.count({ where: bySession }),
    contexts: await db.turnContext.count({ where: { OR: [bySession, { messageId: { in: messageIds } }] } }),
  };
}

/** Rows anywhere in the database whose parent is gone (there must never be any). */
async function orphans(): Promise<Record<string, number>> {
  const checks: Record<string, string> = {
    ChatSession: `SELECT COUNT(*) AS n FROM "ChatSession" c LEFT JOIN "User" u ON u.id = c."userId" WHERE u.id IS NULL`,
    ChatMessage: `SELECT COUNT(*) AS n FROM "ChatMessage" m LEFT JOIN "ChatSession" s ON s.id = m."sessionId" WHERE s.id IS NULL`,
    MemorySnapshot: `SELECT COUNT(*) AS n FROM "MemorySnapshot" m LEFT JOIN "ChatSession" s ON s.id = m."sessionId" WHERE s.id IS NULL`,
    TurnContextSession: `SELECT COUNT(*) AS n FROM "TurnContext" t LEFT JOIN "ChatSession" s ON s.id = t."sessionId" WHERE s.id IS NULL`,
    TurnContextMessage: `SELECT COUNT(*) AS n FROM "TurnContext" t LEFT JOIN "ChatMessage" m ON m.id = t."messageId" WHERE m.id IS NULL`,
    AuditLog: `SELECT COUNT(*) AS n FROM "AuditLog" a LEFT JOIN "User" u ON u.id = a."actorId" WHERE a."actorId" IS NOT NULL AND u.id IS NULL`,
  };
  const out: Record<string, number> = {};
  for (const [name, sql] of Object.entries(checks)) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint | number }[]>(sql);
    out[name] = Number(row?.n);
  }
  return out;
}

const NO_ORPHANS = {
  ChatSession: 0,
  ChatMessage: 0,
  MemorySnapshot: 0,
  TurnContextSession: 0,
  TurnContextMessage: 0,
  AuditLog: 0,
};

describe(`database schema (${kind})`, () => {
  it("has every table and a finished _prisma_migrations row per migration", async () => {
    const tables =
      kind === "sqlite"
        ? await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        : await db.$queryRawUnsafe<{ name: string }[]>(
            `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
          );
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining([...MODELS, "_prisma_migrations"]));

    const dir = path.resolve(
      __dirname,
      "../../prisma",
      kind === "sqlite" ? "migrations" : "postgresql/migrations",
    );
    const onDisk = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(onDisk.length).toBeGreaterThan(0);
    const applied = await db.$queryRawUnsafe<
      { migration_name: string; finished_at: unknown; rolled_back_at: unknown; checksum: string }[]
    >(
      `SELECT migration_name, finished_at, rolled_back_at, checksum FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(applied.map((m) => m.migration_name)).toEqual(onDisk);
    for (const m of applied) {
      expect(m.finished_at).not.toBeNull();
      expect(m.rolled_back_at).toBeNull();
      expect(m.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("migrating again applies nothing", async () => {
    // The SQLite schema engine locks the file exclusively: no other connection may be open meanwhile.
    await db.$disconnect();
    expect(await migrateDatabase(env.DATABASE_URL)).toEqual([]);
    expect(await db.user.count()).toBeGreaterThanOrEqual(0); // reconnects
  });

  it("round-trips enums and Json", async () => {
    const { sessionIds } = await seedUser(1);
    const message = await db.chatMessage.findFirstOrThrow({ where: { sessionId: sessionIds[0], seq: 1 } });
    expect(message.role).toBe("user");
    expect(message.status).toBe("complete");
    expect(message.parts).toEqual([{ type: "text" }]);
    const snapshot = await db.memorySnapshot.findUniqueOrThrow({ where: { sessionId: sessionIds[0] } });
    expect(snapshot.items).toEqual([{ role: "user", text: "remember: blue" }]);
  });

  it("deleting a user removes its sessions and everything in them, and keeps its audit log anonymously", async () => {
    const { user, sessionIds, messageIds, auditId } = await seedUser(2);
    const other = await seedUser(1);
    expect(await rowsOf(sessionIds, messageIds)).toEqual({
      sessions: 2,
      messages: 4,
      snapshots: 2,
      contexts: 2,
    });

    await db.user.delete({ where: { id: user.id } });

    expect(await rowsOf(sessionIds, messageIds)).toEqual({
      sessions: 0,
      messages: 0,
      snapshots: 0,
      contexts: 0,
    });
    const audit = await db.auditLog.findUniqueOrThrow({ where: { id: auditId } });
    expect(audit.actorId).toBeNull();
    expect(await orphans()).toEqual(NO_ORPHANS);
    // Someone else's data is untouched.
    expect(await rowsOf(other.sessionIds, other.messageIds)).toEqual({
      sessions: 1,
      messages: 2,
      snapshots: 1,
      contexts: 1,
    });
  });

  it("deleting a session removes its messages, snapshot and turn contexts only", async () => {
    const { user, sessionIds, messageIds } = await seedUser(2);
    const [gone, kept] = sessionIds as [string, string];

    await db.chatSession.delete({ where: { id: gone } });

    expect(await rowsOf([gone], messageIds.slice(0, 2))).toEqual({
      sessions: 0,
      messages: 0,
      snapshots: 0,
      contexts: 0,
    });
    expect(await rowsOf([kept], messageIds.slice(2))).toEqual({
      sessions: 1,
      messages: 2,
      snapshots: 1,
      contexts: 1,
    });
    expect(await db.user.count({ where: { id: user.id } })).toBe(1);
    expect(await orphans()).toEqual(NO_ORPHANS);
  });

  it("enforces unique email, (sessionId, seq) and one turn context per message", async () => {
    const { user, sessionIds, messageIds } = await seedUser(1);
    const sessionId = sessionIds[0] as string;

    await expect(
      db.user.create({ data: { email: user.email, name: "Dup", passwordHash: "x" } }),
    ).rejects.toMatchObject({ code: "P2002" });
    await expect(
      db.chatMessage.create({ data: { sessionId, seq: 1, role: "user", text: "dup" } }),
    ).rejects.toMatchObject({ code: "P2002" });
    await expect(
      db.turnContext.create({
        data: {
          sessionId,
          messageId: messageIds[1] as string,
          entries: [],
          tokenEstimate: 0,
          policy: "window",
          model: "m",
        },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    // The same seq in another session is fine.
    const other = await db.chatSession.create({ data: { userId: user.id, title: "other" } });
    await expect(
      db.chatMessage.create({ data: { sessionId: other.id, seq: 1, role: "user", text: "ok" } }),
    ).resolves.toMatchObject({ seq: 1 });
  });

  it("rejects rows whose parent does not exist", async () => {
    await expect(
      db.chatMessage.create({
        data: { sessionId: `missing-${randomUUID()}`, seq: 1, role: "user", text: "x" },
      }),
    ).rejects.toMatchObject({ code: "P2003" });
    await expect(
      db.$executeRawUnsafe(
        `INSERT INTO "ChatSession" (id, "userId", title, "lastSeq") VALUES ('${randomUUID()}', 'missing-user', 't', 0)`,
      ),
    ).rejects.toThrow();
  });

  it.runIf(kind === "sqlite")(
    "switches SQLite foreign keys on (and WAL, busy timeout, synchronous)",
    async () => {
      const pragma = async (name: string) => {
        const [row] = await db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
        return row ? Object.values(row)[0] : undefined;
      };
      expect(Number(await pragma("foreign_keys"))).toBe(1);
      expect(await pragma("journal_mode")).toBe("wal");
      expect(Number(await pragma("busy_timeout"))).toBe(5000);
      expect(Number(await pragma("synchronous"))).toBe(1); // NORMAL
      // Also inside a transaction (same connection, but make sure).
      const inTx = await db.$transaction(async (tx) =>
        tx.$queryRawUnsafe<Record<string, unknown>[]>("PRAGMA foreign_keys"),
      );
      expect(Number(Object.values(inTx[0] ?? {})[0])).toBe(1);
    },
  );
});
