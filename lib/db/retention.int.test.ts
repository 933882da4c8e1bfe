import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EnvError, env, parseEnv } from "@/lib/env";
import { expectConsoleError } from "@/test/console";
import { type Db, databaseKind } from "./client";
import { rowsReferring, zeroEverywhere } from "./test-rows";

const noFactsOrFiles = { MemoryFact: 0, Attachment: 0, AttachmentBytes: 0, Share: 0 };

// HISTORY_RETENTION_DAYS on SQLite and PostgreSQL: conversations with the rows a turn leaves behind, some made
// idle by moving ChatSession.updatedAt back, then a retention round. The database is shared with the other
// integration files, so every assertion is about this file's own users and sessions.

const DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

const savedEnv = { ...process.env };
const opened: Db[] = [];

afterEach(async () => {
  process.env = { ...savedEnv };
  await Promise.all(opened.splice(0).map((db) => db.$disconnect()));
});

/** The app's modules loaded afresh, as a server started with `vars` in its environment would load them. */
async function loadRetention(vars: Record<string, string> = { HISTORY_RETENTION_DAYS: String(DAYS) }) {
  vi.resetModules();
  process.env = { ...savedEnv, ...vars };
  const { db } = await import("./client");
  opened.push(db);
  const retention = await import("./retention");
  const schedule = await import("@/lib/retention/schedule");
  const { env } = await import("@/lib/env");
  return { db, ...retention, ...schedule, url: env.DATABASE_URL };
}

type App = Awaited<ReturnType<typeof loadRetention>>;

/**
 * A conversation with `turns` question/answer pairs and everything a turn leaves behind (messages, one recorded
 * context per answer, the memory snapshot); `idleDays` moves its last update back that far.
 */
async function conversation(
  app: App,
  userId: string,
  { turns, idleDays }: { turns: string[]; idleDays?: number },
) {
  const updatedAt = new Date(Date.now() - (idleDays ?? 0) * DAY_MS);
  const session = await app.db.chatSession.create({
    data: { userId, title: `chat ${turns[0] ?? "empty"}`, updatedAt, lastSeq: turns.length * 2 },
  });
  const messageIds: string[] = [];
  for (const [i, content] of turns.entries()) {
    const question = await app.db.chatMessage.create({
      data: { sessionId: session.id, seq: 2 * i + 1, role: "user", text: content },
    });
    const answer = await app.db.chatMessage.create({
      data: { sessionId: session.id, seq: 2 * i + 2, role: "assistant", text: `answer: ${content}` },
    });
    await app.db.turnContext.create({
      data: {
        sessionId: session.id,
        messageId: answer.id,
        entries: [{ source: "current", role: "user", seq: question.seq, preview: content }],
        tokenEstimate: 10,
        policy: "window:20",
        model: "recall-offline",
      },
    });
    messageIds.push(question.id, answer.id);
  }
  if (turns.length > 0)
    await app.db.memorySnapshot.create({
      data: {
        sessionId: session.id,
        items: turns.map((text) => ({ role: "user", text })),
        policy: "window:20",
        throughSeq: turns.length * 2,
      },
    });
  return { sessionId: session.id, messageIds };
}

type Conversation = Awaited<ReturnType<typeof conversation>>;

async function createUser(db: Db) {
  const user = await db.user.create({
    data: { email: `u-${randomUUID()}@example.test`, name: "Tester", passwordHash: "unused" },
  });
  // Every user also has a conversation made just now, with nothing in it.
  const session = await db.chatSession.create({ data: { userId: user.id, title: "fresh and empty" } });
  return { userId: user.id, emptyFreshId: session.id };
}

const rowsForSession = async (db: Db, sessionId: string) => ({
  ChatSession: await db.chatSession.count({ where: { id: sessionId } }),
  ChatMessage: await db.chatMessage.count({ where: { sessionId } }),
  MemorySnapshot: await db.memorySnapshot.count({ where: { sessionId } }),
  TurnContext: await db.turnContext.count({ where: { sessionId } }),
});

const sessionIdsOf = async (db: Db, userId: string) =>
  (await db.chatSession.findMany({ where: { userId }, select: { id: true } })).map((s) => s.id).sort();

describe("HISTORY_RETENTION_DAYS", () => {
  it("is a positive whole number of days; unset keeps everything", () => {
    expect(parseEnv({ HISTORY_RETENTION_DAYS: "90" }).HISTORY_RETENTION_DAYS).toBe(90);
    expect(parseEnv({ HISTORY_RETENTION_DAYS: "" }).HISTORY_RETENTION_DAYS).toBeUndefined();
    expect(parseEnv({}).HISTORY_RETENTION_DAYS).toBeUndefined();
    for (const bad of ["0", "-3", "1.5", "ninety"]) {
      expect(() => parseEnv({ HISTORY_RETENTION_DAYS: bad })).toThrow(EnvError);
      expect(() => parseEnv({ HISTORY_RETENTION_DAYS: bad })).toThrow(/HISTORY_RETENTION_DAYS/);
    }
  });
});

describe("retention round", () => {
  it("deletes exactly the idle conversations of every user, each with a receipt and a system audit entry", async () => {
    const app = await loadRetention();
    const secret = `secret-${randomUUID()}`;
    const alice = await createUser(app.db);
    const bob = await createUser(app.db);
    const aliceOld = await conversation(app, alice.userId, {
      turns: [`remember ${secret}`, "and more"],
      idleDays: DAYS + 1,
    });
    const bobOld = await conversation(app, bob.userId, { turns: [`note ${secret}`], idleDays: 400 });
    const bobOldEmpty = await conversation(app, bob.userId, { turns: [], idleDays: DAYS + 2 });
    const aliceFresh = await conversation(app, alice.userId, { turns: ["still talking"] });
    // One day short of the limit: not idle yet.
    const bobRecent = await conversation(app, bob.userId, { turns: ["recent"], idleDays: DAYS - 1 });
    const idle = [aliceOld, bobOld, bobOldEmpty];
    const fresh = [aliceFresh, bobRecent];
    const before = await rowsReferring(
      app.db,
      app.url,
      idle.flatMap((c) => [c.sessionId, ...c.messageIds]),
    );
    expect(before).toMatchObject({ ChatSession: 3, ChatMessage: 6, MemorySnapshot: 2, TurnContext: 3 });

    const round = await app.runRetentionRound();

    expect(round.status).toBe("done");
    expect(round.cutoff?.getTime()).toBeLessThan(Date.now() - DAYS * DAY_MS + 60_000);
    const receiptOf = (id: string) => round.receipts.find((r) => r.sessionId === id);
    expect(receiptOf(aliceOld.sessionId)?.deleted).toEqual({
      ...noFactsOrFiles,
      ChatSession: 1,
      ChatMessage: 4,
      MemorySnapshot: 1,
      TurnContext: 2,
    });
    expect(receiptOf(bobOld.sessionId)?.deleted).toEqual({
      ...noFactsOrFiles,
      ChatSession: 1,
      ChatMessage: 2,
      MemorySnapshot: 1,
      TurnContext: 1,
    });
    expect(receiptOf(bobOldEmpty.sessionId)?.deleted).toEqual({
      ...noFactsOrFiles,
      ChatSession: 1,
      ChatMessage: 0,
      MemorySnapshot: 0,
      TurnContext: 0,
    });
    for (const kept of [...fresh.map((c) => c.sessionId), alice.emptyFreshId, bob.emptyFreshId])
      expect(receiptOf(kept)).toBeUndefined();
    // The totals are the receipts' sums.
    expect(round.deleted.ChatSession).toBe(round.receipts.length);
    expect(round.deleted.ChatMessage).toBe(round.receipts.reduce((n, r) => n + r.deleted.ChatMessage, 0));

    // What is left of the two users is exactly their fresh conversations, untouched.
    expect(await sessionIdsOf(app.db, alice.userId)).toEqual(
      [alice.emptyFreshId, aliceFresh.sessionId].sort(),
    );
    expect(await sessionIdsOf(app.db, bob.userId)).toEqual([bob.emptyFreshId, bobRecent.sessionId].sort());
    for (const { sessionId } of fresh)
      expect(await rowsForSession(app.db, sessionId)).toEqual({
        ChatSession: 1,
        ChatMessage: 2,
        MemorySnapshot: 1,
        TurnContext: 1,
      });
    const after = await rowsReferring(
      app.db,
      app.url,
      idle.flatMap((c) => [c.sessionId, ...c.messageIds]),
    );
    expect(after).toEqual(zeroEverywhere(after));

    // One audit entry per deleted session: the system as actor, the reason, the counts — no message text.
    const entries = await app.db.auditLog.findMany({
      where: { targetId: { in: idle.map((c) => c.sessionId) } },
    });
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actorId: null,
        action: "session.delete",
        targetType: "ChatSession",
        details: { ...receiptOf(entry.targetId)?.deleted, reason: "retention" },
      });
    }
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(app.describeRetentionRound(round)).toMatch(
      /^retention: deleted \d+ session\(s\) idle since before /,
    );
  });

  it("skips a conversation whose turn is in progress, and deletes it once the lease has run out", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const busy = await conversation(app, userId, { turns: ["hello"], idleDays: DAYS + 5 });
    await app.db.chatSession.update({
      where: { id: busy.sessionId },
      data: { leaseId: randomUUID(), leaseUntil: new Date(Date.now() + 60_000) },
    });

    const first = await app.runRetentionRound();
    expect(first.receipts.map((r) => r.sessionId)).not.toContain(busy.sessionId);
    expect(first.skippedLive).toBeGreaterThanOrEqual(1);
    expect(await rowsForSession(app.db, busy.sessionId)).toMatchObject({ ChatSession: 1, ChatMessage: 2 });

    await app.db.chatSession.update({
      where: { id: busy.sessionId },
      data: { leaseUntil: new Date(Date.now() - 1000) },
    });
    const second = await app.runRetentionRound();
    expect(second.receipts.map((r) => r.sessionId)).toContain(busy.sessionId);
    expect(await rowsForSession(app.db, busy.sessionId)).toMatchObject({ ChatSession: 0, ChatMessage: 0 });
  });

  it("the delete itself re-checks idleness: a conversation used since it was read is kept (not_found)", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const { unsafeDeleteSessionById } = await import("./sessions");
    const cutoff = new Date(Date.now() - DAYS * DAY_MS);
    // Read as idle, then a turn came in (it sets updatedAt) before the delete.
    const used = await conversation(app, userId, { turns: ["back again"] });
    await expect(
      unsafeDeleteSessionById({ sessionId: used.sessionId, actorId: null, onlyIfIdleBefore: cutoff }),
    ).rejects.toMatchObject({ code: "not_found" });
    // Idle but with a live lease.
    const leased = await conversation(app, userId, { turns: ["long answer"], idleDays: DAYS + 1 });
    await app.db.chatSession.update({
      where: { id: leased.sessionId },
      data: { leaseId: randomUUID(), leaseUntil: new Date(Date.now() + 60_000) },
    });
    await expect(
      unsafeDeleteSessionById({ sessionId: leased.sessionId, actorId: null, onlyIfIdleBefore: cutoff }),
    ).rejects.toMatchObject({ code: "not_found" });
    for (const { sessionId } of [used, leased]) {
      expect(await rowsForSession(app.db, sessionId)).toMatchObject({ ChatSession: 1, ChatMessage: 2 });
      expect(await app.db.auditLog.count({ where: { targetId: sessionId } })).toBe(0);
    }
    await app.db.chatSession.update({ where: { id: leased.sessionId }, data: { leaseUntil: null } });
  });

  it("is bounded per round; the next round continues, and a session deleted meanwhile is skipped quietly", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const idle: Conversation[] = [];
    for (let i = 0; i < 3; i++) idle.push(await conversation(app, userId, { turns: [], idleDays: 3000 + i }));

    const first = await app.runRetentionRound({ limit: 2 });
    expect(first.receipts).toHaveLength(2);
    expect(first.more).toBe(true);
    expect(app.describeRetentionRound(first)).toContain("the next round continues");
    let left = await sessionIdsOf(app.db, userId);
    expect(left.filter((id) => idle.some((c) => c.sessionId === id))).toHaveLength(1);

    const rest = await app.runRetentionRound();
    expect(rest.more).toBe(false);
    left = await sessionIdsOf(app.db, userId);
    expect(left.filter((id) => idle.some((c) => c.sessionId === id))).toEqual([]);
    expect(
      await app.db.auditLog.count({
        where: { targetId: { in: idle.map((c) => c.sessionId) }, actorId: null },
      }),
    ).toBe(3);
  });

  it("two rounds racing over the same sessions delete each one once, without errors", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const idle: Conversation[] = [];
    for (let i = 0; i < 8; i++) idle.push(await conversation(app, userId, { turns: [], idleDays: 2000 + i }));

    const rounds = await Promise.all([app.runRetentionRound(), app.runRetentionRound()]);

    const ids = idle.map((c) => c.sessionId);
    const deletedBy = rounds.map((r) => r.receipts.filter((x) => ids.includes(x.sessionId)).length);
    expect(deletedBy.reduce((a, b) => a + b, 0)).toBe(8);
    expect(await app.db.chatSession.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await app.db.auditLog.count({ where: { targetId: { in: ids } } })).toBe(8);
  });
});

describe.runIf(databaseKind(env.DATABASE_URL) === "postgresql")("several instances (PostgreSQL)", () => {
  it("a round while another holds the retention lock skips, deleting nothing", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const idle = await conversation(app, userId, { turns: [], idleDays: DAYS + 1 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const other = app.db.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRawUnsafe<{ ok: boolean }[]>(
          `SELECT pg_try_advisory_xact_lock(${app.RETENTION_LOCK_KEY}::bigint) AS ok`,
        );
        expect(row?.ok).toBe(true);
        locked();
        await held;
      },
      { timeout: 20_000 },
    );
    await isLocked;
    const round = await app.runRetentionRound();
    release();
    await other;

    expect(round.status).toBe("skipped");
    expect(round.receipts).toEqual([]);
    expect(app.describeRetentionRound(round)).toMatch(/skipped, another instance is running a round/);
    expect(await app.db.chatSession.count({ where: { id: idle.sessionId } })).toBe(1);

    const next = await app.runRetentionRound();
    expect(next.status).toBe("done");
    expect(next.receipts.map((r) => r.sessionId)).toContain(idle.sessionId);
  });

  it("of two rounds that overlap, one deletes and the other skips", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const idle: Conversation[] = [];
    // Older than anything else, so the first round starts with these.
    for (let i = 0; i < 3; i++) idle.push(await conversation(app, userId, { turns: [], idleDays: 9000 - i }));
    const ids = idle.map((c) => c.sessionId);

    // Hold a row lock on the oldest session, so round A blocks on its first delete while holding the round.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let rowLocked: () => void = () => {};
    const isRowLocked = new Promise<void>((resolve) => {
      rowLocked = resolve;
    });
    const blocker = app.db.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT id FROM "ChatSession" WHERE id = $1 FOR UPDATE`, ids[0]);
        rowLocked();
        await held;
      },
      { timeout: 20_000 },
    );
    await isRowLocked;
    const a = app.runRetentionRound();
    // Wait until round A holds the retention lock.
    for (let i = 0; ; i++) {
      const [row] = await app.db.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ${app.RETENTION_LOCK_KEY}`,
      );
      if (Number(row?.n) > 0) break;
      expect(i).toBeLessThan(200);
      await new Promise((r) => setTimeout(r, 25));
    }
    const b = await app.runRetentionRound();
    release();
    await blocker;
    const roundA = await a;

    expect(b.status).toBe("skipped");
    expect(b.receipts).toEqual([]);
    expect(roundA.status).toBe("done");
    expect(roundA.receipts.map((r) => r.sessionId)).toEqual(expect.arrayContaining(ids));
    expect(await app.db.auditLog.count({ where: { targetId: { in: ids } } })).toBe(3);
  });
});

describe("the schedule (instrumentation.ts)", () => {
  it("runs a round at start when HISTORY_RETENTION_DAYS is set", async () => {
    const app = await loadRetention();
    const { userId } = await createUser(app.db);
    const idle = await conversation(app, userId, { turns: ["old"], idleDays: DAYS + 1 });
    const fresh = await conversation(app, userId, { turns: ["new"] });

    const schedule = app.startRetentionSchedule();
    expect(schedule).not.toBeNull();
    await schedule?.first;
    schedule?.stop();

    expect(await app.db.chatSession.count({ where: { id: idle.sessionId } })).toBe(0);
    expect(await app.db.chatSession.count({ where: { id: fresh.sessionId } })).toBe(1);
  });

  it("instrumentation's register() starts it in the Node.js runtime", async () => {
    const app = await loadRetention({ HISTORY_RETENTION_DAYS: String(DAYS), NEXT_RUNTIME: "nodejs" });
    const { userId } = await createUser(app.db);
    const idle = await conversation(app, userId, { turns: ["old"], idleDays: DAYS + 1 });
    const { register } = await import("@/instrumentation");
    await register();
    for (let i = 0; (await app.db.chatSession.count({ where: { id: idle.sessionId } })) > 0; i++) {
      expect(i).toBeLessThan(200);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await app.db.auditLog.count({ where: { targetId: idle.sessionId, actorId: null } })).toBe(1);
  });

  it("with HISTORY_RETENTION_DAYS unset: the schedule keeps conversations, and a round deletes nothing", async () => {
    const app = await loadRetention({ HISTORY_RETENTION_DAYS: "" });
    const { userId } = await createUser(app.db);
    const ancient = await conversation(app, userId, { turns: ["very old"], idleDays: 10_000 });

    const schedule = app.startRetentionSchedule();
    await schedule.first;
    schedule.stop();
    const round = await app.runRetentionRound();
    expect(round).toMatchObject({ status: "off", cutoff: null, receipts: [] });
    expect(app.describeRetentionRound(round)).toMatch(/retention: off/);
    expect(await rowsForSession(app.db, ancient.sessionId)).toMatchObject({ ChatSession: 1, ChatMessage: 2 });

    // Clean up for the other tests of this run, whose rounds would otherwise delete it.
    await app.db.chatSession.delete({ where: { id: ancient.sessionId } });
  });

  it("logs a failed round and never throws", async () => {
    expectConsoleError(/retention: the round failed/);
    const app = await loadRetention({
      HISTORY_RETENTION_DAYS: String(DAYS),
      DATABASE_URL: `file:/nonexistent-${randomUUID()}/recall.db`,
    });
    const schedule = app.startRetentionSchedule();
    await expect(schedule?.first).resolves.toBeUndefined();
    schedule?.stop();
  });
});
