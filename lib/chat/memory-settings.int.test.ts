import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { expectConsoleWarn } from "@/test/console";
import {
  answerIdOf,
  answerOf,
  closeApps,
  contextOf,
  createUserWithSession,
  drain,
  loadApp,
} from "./test-helpers";

// Per-conversation memory settings, summaries, clearing memory and the token budget, against the real database of
// this run (SQLite or PostgreSQL) and the offline model. Each test loads the app with its own environment.

afterEach(closeApps);

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp(vars);
  const memory = await import("./memory-settings");
  const { summariesSettled } = await import("./summary-job");
  return { ...loaded, memory, summariesSettled };
}

const historySeqs = (entries: { source: string; seq?: number }[]) =>
  entries.filter((e) => e.source === "history").map((e) => e.seq);

describe("per-conversation memory settings", () => {
  it("start from the environment's defaults and change the next turn's recorded context", async () => {
    const a = await app({ MEMORY_MAX_MESSAGES: "20" });
    const { userId, sessionId } = await createUserWithSession(a.db);
    for (const text of ["one", "two", "three"]) await a.turn(sessionId, userId, text);

    const before = await a.memory.getMemoryState({ sessionId, userId });
    expect(before).toMatchObject({
      enabled: true,
      policy: "window",
      maxMessages: 20,
      custom: false,
      effective: { policyId: "window:20" },
      inMemory: { fromSeq: 1, throughSeq: 6, count: 6 },
      clearedThroughSeq: 0,
    });
    expect(before.inMemory.tokens).toBeGreaterThan(0);

    const changed = await a.memory.updateMemorySettings({ sessionId, userId, change: { maxMessages: 2 } });
    expect(changed).toMatchObject({ maxMessages: 2, custom: true, effective: { policyId: "window:2" } });
    const narrow = await a.turn(sessionId, userId, "four");
    const context = await contextOf(a.db, answerIdOf(narrow));
    expect(context.policy).toBe("window:2");
    expect(historySeqs(context.entries)).toEqual([5, 6]);

    await a.memory.updateMemorySettings({ sessionId, userId, change: { enabled: false } });
    const off = await a.turn(sessionId, userId, "five");
    expect(historySeqs((await contextOf(a.db, answerIdOf(off))).entries)).toEqual([]);
    // History is still recorded while memory is off.
    expect(await a.db.chatMessage.count({ where: { sessionId } })).toBe(10);
  });

  it("reject values out of range or unknown fields with 422, changing nothing", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    for (const change of [
      { maxMessages: 0 },
      { maxTokens: 99 },
      { policy: "everything" },
      { enabled: "yes" },
      { window: 3 },
      [1],
    ]) {
      await expect(a.memory.updateMemorySettings({ sessionId, userId, change })).rejects.toMatchObject({
        code: "validation_failed",
        status: 422,
      });
    }
    expect((await a.memory.getMemoryState({ sessionId, userId })).custom).toBe(false);
  });

  it("belong to their owner: another user gets 404", async () => {
    const a = await app();
    const owner = await createUserWithSession(a.db);
    const other = await createUserWithSession(a.db);
    const sessionId = owner.sessionId;
    for (const call of [
      () => a.memory.getMemoryState({ sessionId, userId: other.userId }),
      () => a.memory.updateMemorySettings({ sessionId, userId: other.userId, change: { maxMessages: 3 } }),
      () => a.memory.clearMemory({ sessionId, userId: other.userId }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found", status: 404 });
    }
  });

  it("the token policy keeps everything sent within maxTokens, and a question alone over it is a 422", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    const long = "lorem ipsum dolor sit amet ".repeat(12);
    for (let i = 0; i < 6; i++) await a.turn(sessionId, userId, `${i} ${long}`);
    await a.memory.updateMemorySettings({ sessionId, userId, change: { policy: "tokens", maxTokens: 400 } });
    const events = await a.turn(sessionId, userId, "short question");
    const context = await contextOf(a.db, answerIdOf(events));
    expect(context.policy).toBe("tokens:400+window:20");
    expect(context.tokenEstimate).toBeLessThanOrEqual(400);
    const history = historySeqs(context.entries);
    expect(history.length).toBeGreaterThan(0);
    expect(history.length).toBeLessThan(12);
    // The window is the newest messages, kept whole.
    expect(history.at(-1)).toBe(12);

    await expect(
      a.startTurn({ sessionId, userId, input: { content: "word ".repeat(600) } }),
    ).rejects.toMatchObject({ code: "question_too_long", status: 422 });
    // Nothing of the refused turn was written.
    expect(await a.db.chatMessage.count({ where: { sessionId } })).toBe(14);
  });
});

describe("memory settings from the environment", () => {
  it("MEMORY_POLICY=tokens with MEMORY_MAX_TOKENS bounds everything sent", async () => {
    const a = await app({ MEMORY_POLICY: "tokens", MEMORY_MAX_TOKENS: "300" });
    const { userId, sessionId } = await createUserWithSession(a.db);
    const long = "lorem ipsum dolor sit amet ".repeat(10);
    for (let i = 0; i < 5; i++) await a.turn(sessionId, userId, `${i} ${long}`);
    const events = await a.turn(sessionId, userId, "short question");
    const context = await contextOf(a.db, answerIdOf(events));
    expect(context.policy).toBe("tokens:300+window:20");
    expect(context.tokenEstimate).toBeLessThanOrEqual(300);
    expect(historySeqs(context.entries).length).toBeLessThan(10);
    expect((await a.memory.getMemoryState({ sessionId, userId })).effective.maxContextTokens).toBe(300);
  });

  it("MODEL_CONTEXT_TOKENS keeps room for the answer whatever the policy", async () => {
    // 2 000 tokens of context window minus the 1 024 kept for the answer: 976 tokens for everything sent.
    const a = await app({ MODEL_CONTEXT_TOKENS: "2000" });
    const { userId, sessionId } = await createUserWithSession(a.db);
    await expect(
      a.startTurn({ sessionId, userId, input: { content: "word ".repeat(1200) } }),
    ).rejects.toMatchObject({ code: "question_too_long", status: 422 });
    const ok = await a.turn(sessionId, userId, "hi");
    expect((await contextOf(a.db, answerIdOf(ok))).tokenEstimate).toBeLessThanOrEqual(976);
  });

  it("a changed CHAT_SYSTEM_PROMPT applies at the next turn of an existing conversation, sent once", async () => {
    const first = await app({ CHAT_SYSTEM_PROMPT: "You are Recall, version one." });
    const { userId, sessionId } = await createUserWithSession(first.db);
    await first.turn(sessionId, userId, "hello");
    const second = await app({ CHAT_SYSTEM_PROMPT: "You are Recall, version two." });
    const events = await second.turn(sessionId, userId, "again");
    const { entries } = await contextOf(second.db, answerIdOf(events));
    const system = entries.filter((e) => e.source === "system");
    expect(system.map((e) => e.preview)).toEqual(["You are Recall, version two."]);
    expect(entries.some((e) => e.preview.includes("version one"))).toBe(false);
  });
});

describe("clearing memory", () => {
  it("forgets everything before the clear, keeps the history, and no rebuild brings it back", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await a.turn(sessionId, userId, "My code word is 青云-4173");
    await a.turn(sessionId, userId, "and something else");
    const cleared = await a.memory.clearMemory({ sessionId, userId });
    expect(cleared).toMatchObject({ clearedThroughSeq: 4, inMemory: { count: 0 } });

    const asked = await a.turn(sessionId, userId, "What is my code word?");
    expect(answerOf(asked)).toMatch(/don't know/i);
    expect(historySeqs((await contextOf(a.db, answerIdOf(asked))).entries)).toEqual([]);
    // The history still shows everything.
    expect(await a.db.chatMessage.count({ where: { sessionId } })).toBe(6);

    // A rebuild from the history (snapshot row gone, or another policy) still starts after the clear.
    await a.db.memorySnapshot.delete({ where: { sessionId } });
    await a.memory.updateMemorySettings({ sessionId, userId, change: { maxMessages: 50 } });
    const again = await a.turn(sessionId, userId, "What is my code word?");
    expect(answerOf(again)).toMatch(/don't know/i);
    expect(historySeqs((await contextOf(a.db, answerIdOf(again))).entries)).toEqual([5, 6]);
  });

  it("is refused while an answer is being written", async () => {
    const a = await app({ OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: "1500" });
    const { userId, sessionId } = await createUserWithSession(a.db);
    const stream = await a.startTurn({ sessionId, userId, input: { content: "hello" } });
    await expect(a.memory.clearMemory({ sessionId, userId })).rejects.toMatchObject({
      code: "turn_in_progress",
      status: 409,
    });
    await drain(stream);
    await expect(a.memory.clearMemory({ sessionId, userId })).resolves.toMatchObject({
      clearedThroughSeq: 2,
    });
  });
});

describe("summaries", () => {
  const fact = "My code word is 青云-4173.";
  // Recall off: these are about what summaries keep (recall would bring the fact back by itself).
  async function fifteenTurns(vars: Record<string, string>) {
    const a = await app({ MEMORY_MAX_MESSAGES: "4", MEMORY_RECALL: "off", ...vars });
    const { userId, sessionId } = await createUserWithSession(a.db);
    await a.turn(sessionId, userId, fact);
    for (let i = 2; i < 15; i++) {
      await a.turn(sessionId, userId, `filler number ${i}`);
      await a.summariesSettled();
    }
    const last = await a.turn(sessionId, userId, "What is my code word?");
    return { a, userId, sessionId, last };
  }

  it("recall a fact from turn 1 at turn 15 with a window of 4, and trace what they cover", async () => {
    const { a, userId, sessionId, last } = await fifteenTurns({ MEMORY_POLICY: "summary" });
    expect(answerOf(last)).toContain("青云-4173");
    const context = await contextOf(a.db, answerIdOf(last));
    const summary = context.entries.find((e) => e.source === "summary") as
      | { summary?: Record<string, unknown> }
      | undefined;
    expect(summary?.summary).toMatchObject({ fromSeq: 1, model: "recall-offline" });
    const meta = summary?.summary as {
      fromSeq: number;
      throughSeq: number;
      messages: number;
      version: number;
    };
    expect(meta.throughSeq).toBeGreaterThan(8);
    expect(meta.messages).toBe(meta.throughSeq - meta.fromSeq + 1);
    expect(meta.version).toBeGreaterThanOrEqual(2);
    // Only the recent window is sent besides the summary.
    expect(historySeqs(context.entries).length).toBeLessThanOrEqual(8);
    expect(historySeqs(context.entries)).not.toContain(1);

    await a.summariesSettled();
    const state = await a.memory.getMemoryState({ sessionId, userId });
    expect(state.summary?.fromSeq).toBe(1);
    expect(state.summary?.version).toBeGreaterThanOrEqual(meta.version);
  });

  it("without summaries the same conversation has forgotten it", async () => {
    const { last } = await fifteenTurns({ MEMORY_POLICY: "window" });
    expect(answerOf(last)).toMatch(/don't know/i);
  });

  it("without summaries but with recall (the default) the fact comes back as a recalled message", async () => {
    const { a, last } = await fifteenTurns({ MEMORY_POLICY: "window", MEMORY_RECALL: "conversation" });
    expect(answerOf(last)).toContain("青云-4173");
    const recalled = (await contextOf(a.db, answerIdOf(last))).entries.filter((e) => e.source === "recalled");
    expect(recalled.map((e) => e.seq)).toContain(1);
  });

  it("a summary written while an answer streams is kept: the turn folds itself onto it", async () => {
    const a = await app({
      MEMORY_POLICY: "summary",
      MEMORY_MAX_MESSAGES: "4",
      OFFLINE_MODEL_TOKEN_DELAY_MS: "40",
    });
    const { replaceSnapshotItems } = await import("@/lib/db/snapshots");
    const { userId, sessionId } = await createUserWithSession(a.db);
    for (const text of ["one", "two"]) await a.turn(sessionId, userId, text);
    const stream = await a.startTurn({ sessionId, userId, input: { content: "three" } });
    // While the answer streams, a summary of #1–#2 replaces the snapshot the turn started from.
    const before = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const items = before.items as { seq?: number }[];
    const summary = {
      role: "system",
      text: "User: one",
      summary: true,
      summaryMeta: {
        fromSeq: 1,
        throughSeq: 2,
        messages: 2,
        version: 1,
        model: "m",
        createdAt: new Date().toISOString(),
      },
    };
    expect(
      await replaceSnapshotItems({
        sessionId,
        version: before.version,
        items: [summary, ...items.filter((i) => (i.seq ?? 0) > 2)] as never,
      }),
    ).toBe(true);
    const events = await drain(stream);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const after = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const kept = after.items as { seq?: number; summary?: boolean }[];
    expect(kept[0]).toMatchObject({ summary: true, text: "User: one" });
    expect(kept.slice(1).map((i) => i.seq)).toEqual([3, 4, 5, 6]);
    expect(after.version).toBe(before.version + 2);
  });

  it("a blank summary keeps the original messages and is recorded", async () => {
    expectConsoleWarn(/summary of session .* was blank/);
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`${chunk({ content: "  " }, null)}${chunk({}, "stop")}data: [DONE]\n\n`);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const a = await app({
        MEMORY_POLICY: "summary",
        MEMORY_MAX_MESSAGES: "2",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: base,
      });
      const { userId, sessionId } = await createUserWithSession(a.db);
      for (const text of ["one", "two"]) await a.turn(sessionId, userId, text);
      await a.summariesSettled();
      const snap = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
      const items = snap.items as { seq?: number; summary?: boolean }[];
      expect(items.some((i) => i.summary)).toBe(false);
      expect(items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
      const audit = await a.db.auditLog.findFirst({
        where: { targetId: sessionId, action: "memory.summary_failed" },
      });
      expect(audit?.details).toMatchObject({ status: "blank" });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
