import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { closeApps, createUserWithSession, loadApp } from "./test-helpers";

// The summary backlog (issue 24) against the real database of this run: an imported 500-message conversation
// switched to the summary policy is summarized from its start, in bounded, resumable segments, one job at a time.

afterEach(closeApps);
vi.setConfig({ testTimeout: 90_000 });

const H = 500;

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp({
    MEMORY_MAX_MESSAGES: "20",
    SUMMARY_BACKLOG_SEGMENT_MESSAGES: "100",
    ...vars,
  });
  const { runSummaryBacklog, summaryBacklogsSettled } = await import("./summary-backlog");
  const backlog = { runSummaryBacklog, summaryBacklogsSettled };
  const memory = await import("./memory-settings");
  return { ...loaded, backlog, memory };
}

/** A 500-message conversation written as an export file and imported (the lib function POST /api/import calls). */
async function imported(db: Db) {
  const { userId, sessionId } = await createUserWithSession(db, "original");
  const ids = Array.from({ length: H }, () => randomUUID());
  await db.chatMessage.createMany({
    data: ids.map((id, i) => {
      const seq = i + 1;
      const user = seq % 2 === 1;
      return {
        id,
        sessionId,
        seq,
        parentId: ids[i - 1] ?? null,
        role: user ? ("user" as const) : ("assistant" as const),
        text: user ? `My locker number ${seq} is ${seq * 7}.` : `Noted, locker ${seq - 1}.`,
      };
    }),
  });
  const parentId = ids.at(-1) as string;
  await db.chatSession.update({
    where: { id: sessionId },
    data: { lastSeq: H, activeLeafId: parentId, activeLeafSeq: H },
  });
  const { exportConversationForUser } = await import("@/lib/export/read");
  const { importExportFile } = await import("@/lib/export/import");
  const file = await exportConversationForUser({
    userId,
    sessionId,
    branches: "tree",
    attachments: "reference",
  });
  const result = await importExportFile({ userId, bytes: new TextEncoder().encode(JSON.stringify(file)) });
  const copy = result.conversations[0]?.id ?? "";
  expect(await db.chatMessage.count({ where: { sessionId: copy } })).toBe(H);
  // The import schedules a backlog run (idle under the window policy); let it finish before the test drives runs.
  const { summaryBacklogsSettled } = await import("./summary-backlog");
  await summaryBacklogsSettled();
  return { userId, sessionId: copy };
}

const useSummary = (db: Db, sessionId: string) =>
  db.chatSession.update({ where: { id: sessionId }, data: { memorySettings: { policy: "summary" } } });

describe("the summary backlog", () => {
  it("summarizes an imported conversation switched to summary from #1 up to the window", async () => {
    const a = await app();
    const { userId, sessionId } = await imported(a.db);
    const before = await a.memory.getMemoryState({ sessionId, userId });
    expect(before.summary).toBeUndefined();
    await a.memory.updateMemorySettings({ sessionId, userId, change: { policy: "summary" } });
    await a.backlog.summaryBacklogsSettled();
    const after = await a.memory.getMemoryState({ sessionId, userId });
    const windowStart = after.inMemory.fromSeq as number;
    expect(windowStart).toBeGreaterThan(400);
    expect(after.summary).toMatchObject({
      fromSeq: 1,
      throughSeq: windowStart - 1,
      messages: windowStart - 1,
    });
    const snapshot = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const summary = (snapshot.items as { summary?: boolean; text: string }[]).find((i) => i.summary);
    // The offline summarizer keeps the newest statements it was sent: the last segment's, not invented ones.
    const lastUser = (windowStart - 1) % 2 === 1 ? windowStart - 1 : windowStart - 2;
    expect(summary?.text).toContain(`locker number ${lastUser} is ${lastUser * 7}.`);
    expect(summary?.text).not.toContain(`locker number ${windowStart} `);
    expect(await a.db.summaryBacklog.count({ where: { sessionId } })).toBe(0);
  });

  it("does bounded work per segment and resumes where an interrupted run stopped", async () => {
    const a = await app({ SUMMARY_BACKLOG_SEGMENT_MESSAGES: "60" });
    const { userId, sessionId } = await imported(a.db);
    await useSummary(a.db, sessionId);
    const first = await a.backlog.runSummaryBacklog({ sessionId, maxSegments: 1 });
    expect(first).toEqual({ status: "partial", segments: 1, throughSeq: 60 });
    expect(await a.db.summaryBacklog.findUniqueOrThrow({ where: { sessionId } })).toMatchObject({
      fromSeq: 1,
      throughSeq: 60,
      messages: 60,
      leaseId: null,
    });
    // Not written to the snapshot until it reaches the window.
    expect((await a.memory.getMemoryState({ sessionId, userId })).summary).toBeUndefined();
    const second = await a.backlog.runSummaryBacklog({ sessionId, maxSegments: 1 });
    expect(second).toEqual({ status: "partial", segments: 1, throughSeq: 120 });
    const rest = await a.backlog.runSummaryBacklog({ sessionId });
    expect(rest.status).toBe("done");
    const state = await a.memory.getMemoryState({ sessionId, userId });
    expect(state.summary).toMatchObject({ fromSeq: 1, throughSeq: (state.inMemory.fromSeq as number) - 1 });
    // A token bound cuts a segment shorter than its message bound.
    const tight = await app({
      SUMMARY_BACKLOG_SEGMENT_MESSAGES: "60",
      SUMMARY_BACKLOG_SEGMENT_TOKENS: "500",
    });
    const other = await imported(tight.db);
    await useSummary(tight.db, other.sessionId);
    const cut = await tight.backlog.runSummaryBacklog({ sessionId: other.sessionId, maxSegments: 1 });
    expect(cut.throughSeq).toBeGreaterThan(0);
    expect(cut.throughSeq).toBeLessThan(60);
  });

  it("runs one job at a time: of two concurrent runs only one writes", async () => {
    const a = await app();
    const { userId, sessionId } = await imported(a.db);
    await useSummary(a.db, sessionId);
    const runs = await Promise.all([
      a.backlog.runSummaryBacklog({ sessionId }),
      a.backlog.runSummaryBacklog({ sessionId }),
    ]);
    expect(runs.map((r) => r.status).sort()).toEqual(["busy", "done"]);
    expect(runs.find((r) => r.status === "busy")?.segments).toBe(0);
    const state = await a.memory.getMemoryState({ sessionId, userId });
    expect(state.summary).toMatchObject({ fromSeq: 1, throughSeq: (state.inMemory.fromSeq as number) - 1 });
  });

  it("lets the server handle other work between segments (SQLite's synchronous driver never would)", async () => {
    const a = await app({ SUMMARY_BACKLOG_SEGMENT_MESSAGES: "20" });
    const { sessionId } = await imported(a.db);
    await useSummary(a.db, sessionId);
    const order: string[] = [];
    const run = a.backlog.runSummaryBacklog({ sessionId }).then((r) => {
      order.push("backlog done");
      return r;
    });
    setImmediate(() => order.push("other work"));
    const result = await run;
    expect(result).toMatchObject({ status: "done" });
    expect(result.segments).toBeGreaterThan(10);
    expect(order).toEqual(["other work", "backlog done"]);
  });

  it("keeps to the clear-memory boundary: a newer clear makes earlier progress stale", async () => {
    const a = await app();
    const { userId, sessionId } = await imported(a.db);
    await useSummary(a.db, sessionId);
    await a.backlog.runSummaryBacklog({ sessionId, maxSegments: 1 });
    await a.db.chatSession.update({ where: { id: sessionId }, data: { memoryStartSeq: 250 } });
    const run = await a.backlog.runSummaryBacklog({ sessionId });
    expect(run.status).toBe("done");
    const state = await a.memory.getMemoryState({ sessionId, userId });
    expect(state.summary).toMatchObject({ fromSeq: 251, throughSeq: (state.inMemory.fromSeq as number) - 1 });
    expect(state.summary?.messages).toBe((state.inMemory.fromSeq as number) - 251);
  });

  it("starts again when the active path no longer passes through the last message it covered", async () => {
    const a = await app();
    const { userId, sessionId } = await imported(a.db);
    await useSummary(a.db, sessionId);
    await a.backlog.runSummaryBacklog({ sessionId, maxSegments: 1 });
    // A branch from message #50: a version of #51 and its own continuation to the end of the path.
    const base = await a.db.chatMessage.findFirstOrThrow({
      where: { sessionId, seq: 50 },
      select: { id: true },
    });
    const ids = Array.from({ length: 60 }, () => randomUUID());
    await a.db.chatMessage.createMany({
      data: ids.map((id, i) => ({
        id,
        sessionId,
        seq: H + 1 + i,
        parentId: i === 0 ? base.id : (ids[i - 1] as string),
        role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
        text: i % 2 === 0 ? `On this branch my bike number ${i} is ${i * 3}.` : "Noted.",
      })),
    });
    await a.db.chatSession.update({
      where: { id: sessionId },
      data: { lastSeq: H + 60, activeLeafId: ids.at(-1) as string, activeLeafSeq: H + 60 },
    });
    expect((await a.backlog.runSummaryBacklog({ sessionId })).status).toBe("done");
    const state = await a.memory.getMemoryState({ sessionId, userId });
    // The new path is #1–#50 then #501–#560; its window reaches back into #1–#50, so the summary is made again
    // for what is before it, with nothing of the first run's #51–#100 that left the path.
    const windowStart = state.inMemory.fromSeq as number;
    expect(windowStart).toBeLessThan(50);
    expect(state.summary).toMatchObject({
      fromSeq: 1,
      throughSeq: windowStart - 1,
      messages: windowStart - 1,
    });
    const snapshot = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const text = (snapshot.items as { summary?: boolean; text: string }[]).find((i) => i.summary)?.text ?? "";
    expect(text).toContain("locker number 1 ");
    expect(text).not.toMatch(/locker number ([5-9]\d|\d{3})\b/);
  });
});
