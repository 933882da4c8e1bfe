import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getMessagesBySessionId, unsafeDeleteSessionById } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { answerOf, contextOf, createUserWithSession, drain, rowsForSession } from "./test-helpers";
import { startTurn } from "./turn";

// The turn pipeline against the real database of this project run (SQLite or PostgreSQL) and the offline model.

afterAll(async () => {
  await db.$disconnect();
});

async function turn(sessionId: string, userId: string, content: string) {
  return drain(await startTurn({ sessionId, userId, input: { content } }));
}

describe("turn pipeline", () => {
  it("recalls across two turns and records what each turn sent", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const first = await turn(
      sessionId,
      userId,
      "Memory check: remember the phrase 青云-4173 and reply only 'noted'",
    );
    expect(answerOf(first)).toBe("noted");
    expect(first.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const second = await turn(sessionId, userId, "What was the phrase?");
    expect(answerOf(second)).toContain("青云-4173");

    const meta = second.find((e) => e.type === "meta");
    if (meta?.type !== "meta") throw new Error("no meta event");
    const context = await contextOf(db, meta.assistantMessage.id);
    expect(context.entries.map((e) => [e.source, e.seq ?? null])).toEqual([
      ["system", null],
      ["history", 1],
      ["history", 2],
      ["current", 3],
    ]);
    expect(context.policy).toBe(`window:${env.MEMORY_MAX_MESSAGES}`);
  });

  it("writes the reply's text before the commit: a reply read in one go does not wait for the commit's statements", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const stream = await startTurn({ sessionId, userId, input: { content: "Hello, how are you?" } });
    // The offline model sends its whole reply at once: one read of its stream, then the commit.
    const events: string[][] = [];
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      events.push([...decoder.decode(r.value).matchAll(/^event: (\w+)$/gm)].map((m) => m[1] ?? ""));
    }
    const delta = events.findIndex((e) => e.includes("delta"));
    const done = events.findIndex((e) => e.includes("done"));
    expect(delta).toBeGreaterThan(-1);
    expect(done).toBeGreaterThan(delta);
  });

  it("keeps exactly one snapshot row holding at most the window, with gap-free seqs, after many turns", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const turns = env.MEMORY_MAX_MESSAGES / 2 + 3;
    for (let i = 0; i < turns; i++) await turn(sessionId, userId, `message number ${i}`);

    expect(await db.memorySnapshot.count({ where: { sessionId } })).toBe(1);
    const snap = await db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const items = snap.items as Array<{ seq: number }>;
    expect(items).toHaveLength(env.MEMORY_MAX_MESSAGES);
    expect(items.at(-1)?.seq).toBe(turns * 2);
    expect(snap.throughSeq).toBe(turns * 2);
    expect(snap.version).toBe(turns);

    const { messages } = await getMessagesBySessionId({ sessionId, limit: 500 });
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: turns * 2 }, (_, i) => i + 1));
    expect(messages.every((m) => m.status === "complete")).toBe(true);
    const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.lastSeq).toBe(turns * 2);
    expect(session.leaseId).toBeNull();
  });

  it("sends the current question exactly once, and the window never exceeds the configured size", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    for (let i = 0; i < env.MEMORY_MAX_MESSAGES; i++) await turn(sessionId, userId, `filler ${i}`);
    const events = await turn(sessionId, userId, "the very last question");
    const meta = events.find((e) => e.type === "meta");
    if (meta?.type !== "meta") throw new Error("no meta event");
    const { entries } = await contextOf(db, meta.assistantMessage.id);
    const current = entries.filter((e) => e.source === "current");
    expect(current).toHaveLength(1);
    expect(current[0]?.seq).toBe(meta.userMessage.seq);
    expect(entries.filter((e) => e.preview === "the very last question")).toHaveLength(1);
    expect(entries.at(-1)?.source).toBe("current");
    expect(entries.filter((e) => e.source === "history")).toHaveLength(env.MEMORY_MAX_MESSAGES);
    expect(entries.some((e) => e.source === "history" && e.seq === meta.userMessage.seq)).toBe(false);
  });

  // Concurrent turns: turn-recovery.int.test.ts holds the first turn's lease with a delayed model, so the second
  // certainly meets it (two turns started together may not overlap at all on a fast database).

  it("answers 404 for a session that is not the caller's, writing nothing", async () => {
    const owner = await createUserWithSession(db);
    const other = await createUserWithSession(db);
    await expect(
      startTurn({ sessionId: owner.sessionId, userId: other.userId, input: { content: "hi" } }),
    ).rejects.toMatchObject({ code: "not_found", status: 404 });
    expect(await rowsForSession(db, owner.sessionId)).toEqual({
      ChatSession: 1,
      ChatMessage: 0,
      MemorySnapshot: 0,
      TurnContext: 0,
      MemoryFact: 0,
      Attachment: 0,
    });
  });

  it("rebuilds a missing snapshot from the history tail", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, "remember the phrase amber-77");
    await turn(sessionId, userId, "hello");
    await db.memorySnapshot.delete({ where: { sessionId } });
    const events = await turn(sessionId, userId, "What phrase did I ask you to remember?");
    expect(answerOf(events)).toContain("amber-77");
    expect(await db.memorySnapshot.count({ where: { sessionId } })).toBe(1);
  });

  it("stops cleanly when the client stops: the user message stays, the answer is interrupted, retry does not duplicate", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const controller = new AbortController();
    controller.abort();
    const events = await drain(
      await startTurn({
        sessionId,
        userId,
        input: { content: "tell me something" },
        signal: controller.signal,
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: "done", status: "interrupted" });
    let { messages } = await getMessagesBySessionId({ sessionId, limit: 10 });
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "interrupted"],
    ]);
    const failed = messages[1];
    if (!failed) throw new Error("no assistant message");

    const retried = await drain(await startTurn({ sessionId, userId, input: { retryMessageId: failed.id } }));
    expect(retried.at(-1)).toMatchObject({ type: "done", status: "complete" });
    ({ messages } = await getMessagesBySessionId({ sessionId, limit: 10 }));
    expect(messages.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    expect(messages[1]?.text).toContain("tell me something");
    const context = await contextOf(db, failed.id);
    expect(context.entries.filter((e) => e.source === "current")).toHaveLength(1);
    expect(context.entries.filter((e) => e.source === "history")).toHaveLength(0);
    expect(await db.turnContext.count({ where: { sessionId } })).toBe(1);

    // Only the latest failed/interrupted answer may be retried.
    await expect(
      startTurn({ sessionId, userId, input: { retryMessageId: failed.id } }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("deletes a session with everything derived from it and returns a receipt", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, "one");
    await turn(sessionId, userId, "two");
    const receipt = await unsafeDeleteSessionById({ sessionId, actorId: userId });
    expect(receipt.deleted).toEqual({
      ChatSession: 1,
      ChatMessage: 4,
      MemorySnapshot: 1,
      TurnContext: 2,
      MemoryFact: 0,
      Attachment: 0,
      AttachmentBytes: 0,
      Share: 0,
    });
    expect(await rowsForSession(db, sessionId)).toEqual({
      ChatSession: 0,
      ChatMessage: 0,
      MemorySnapshot: 0,
      TurnContext: 0,
      MemoryFact: 0,
      Attachment: 0,
    });
  });
});
