import { describe, expect, it } from "vitest";
import { messageWindow, none } from "./policies";
import {
  type HistoryMessage,
  type HistoryStatus,
  isMemoryMessage,
  isSnapshotCurrent,
  memoryAfterTurn,
  rebuildFromTail,
  retryRefusal,
  summariesOnPath,
  tailRowsFor,
} from "./rules";
import type { MemoryItem } from "./types";

const msg = (seq: number, role: MemoryItem["role"], status: HistoryStatus = "complete"): HistoryMessage => ({
  item: { role, text: `${role} ${seq}`, seq },
  status,
});

/** A linear conversation of `turns` user/assistant pairs, all complete. */
const conversation = (turns: number) =>
  Array.from({ length: turns * 2 }, (_, i) => msg(i + 1, i % 2 === 0 ? "user" : "assistant"));

describe("isMemoryMessage", () => {
  it("counts every user message and only completed answers", () => {
    expect(isMemoryMessage(msg(1, "user", "complete"))).toBe(true);
    expect(isMemoryMessage(msg(1, "user", "failed"))).toBe(true);
    expect(isMemoryMessage(msg(2, "assistant", "complete"))).toBe(true);
    for (const status of ["streaming", "interrupted", "failed"] as const) {
      expect(isMemoryMessage(msg(2, "assistant", status))).toBe(false);
    }
    expect(isMemoryMessage(msg(3, "tool", "complete"))).toBe(true);
  });
});

describe("isSnapshotCurrent", () => {
  const snap = { policy: "window:20", throughSeq: 8 };
  it("trusts a snapshot of the same policy ending right before the question", () => {
    expect(isSnapshotCurrent(snap, { policyId: "window:20", throughSeq: 8 })).toBe(true);
  });
  it("rebuilds when missing, behind, ahead (a retry) or made by another policy", () => {
    expect(isSnapshotCurrent(null, { policyId: "window:20", throughSeq: 8 })).toBe(false);
    expect(isSnapshotCurrent(snap, { policyId: "window:20", throughSeq: 10 })).toBe(false);
    expect(isSnapshotCurrent(snap, { policyId: "window:20", throughSeq: 6 })).toBe(false);
    expect(isSnapshotCurrent(snap, { policyId: "window:2", throughSeq: 8 })).toBe(false);
  });
});

describe("tailRowsFor", () => {
  it("reads twice the window plus two, or nothing when memory is off", () => {
    expect(tailRowsFor({ enabled: true, maxMessages: 20 })).toBe(42);
    expect(tailRowsFor({ enabled: true, maxMessages: 1 })).toBe(4);
    expect(tailRowsFor({ enabled: false, maxMessages: 20 })).toBe(0);
  });
});

describe("rebuildFromTail", () => {
  it("applies the policy to the tail, leaving unfinished answers out", () => {
    const tail = [
      msg(1, "user"),
      msg(2, "assistant", "failed"),
      msg(3, "user"),
      msg(4, "assistant", "interrupted"),
      msg(5, "user"),
      msg(6, "assistant"),
    ];
    expect(rebuildFromTail(tail, messageWindow(20)).map((i) => i.seq)).toEqual([1, 3, 5, 6]);
    expect(rebuildFromTail(tail, messageWindow(2)).map((i) => i.seq)).toEqual([5, 6]);
    expect(rebuildFromTail(tail, none)).toEqual([]);
  });

  it("still fills the window when every other answer failed, given tailRowsFor rows", () => {
    const n = 4;
    const history = Array.from({ length: 40 }, (_, i) =>
      msg(i + 1, i % 2 === 0 ? "user" : "assistant", i % 4 === 1 ? "failed" : "complete"),
    );
    const tail = history.slice(-tailRowsFor({ enabled: true, maxMessages: n }));
    expect(rebuildFromTail(tail, messageWindow(n))).toHaveLength(n);
  });

  it("returns copies, never the stored items", () => {
    const tail = [msg(1, "user")];
    const [item] = rebuildFromTail(tail, messageWindow(20));
    expect(item).toEqual(tail[0]?.item);
    expect(item).not.toBe(tail[0]?.item);
  });
});

describe("memoryAfterTurn", () => {
  const policy = messageWindow(20);
  const memory = conversation(10).map((m) => m.item);
  const question: MemoryItem = { role: "user", text: "q", seq: 21 };
  const answer: MemoryItem = { role: "assistant", text: "a", seq: 22 };

  it("adds the question and a completed answer, then applies the window", () => {
    const after = memoryAfterTurn({ memory, question, answer, policy });
    expect(after).toHaveLength(20);
    expect(after.slice(-2)).toEqual([question, answer]);
    expect(after[0]?.seq).toBe(3);
  });

  it("keeps the question but never a failed or interrupted answer", () => {
    const after = memoryAfterTurn({ memory, question, answer: null, policy });
    expect(after.at(-1)).toEqual(question);
    expect(after.some((i) => i.role === "assistant" && i.seq === 22)).toBe(false);
  });

  it("never holds the question twice when memory already had it (a retry)", () => {
    const withQuestion = [...memory.slice(1), question];
    const after = memoryAfterTurn({ memory: withQuestion, question, answer, policy });
    expect(after.filter((i) => i.seq === 21)).toHaveLength(1);
  });

  it("a retry that starts from the memory before its question keeps a full window of history", () => {
    // The memory before the question holds 20 history messages; the retried answer's context sends them all.
    expect(memory).toHaveLength(20);
    const after = memoryAfterTurn({ memory, question, answer, policy });
    expect(after.map((i) => i.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
  });
});

describe("retryRefusal", () => {
  const question = { seq: 5, role: "user" };
  it("allows the newest failed or interrupted answer right after its question", () => {
    for (const status of ["failed", "interrupted"] as const) {
      expect(
        retryRefusal({ answer: { seq: 6, role: "assistant", status }, question, lastSeq: 6 }),
      ).toBeNull();
    }
  });
  it("refuses a complete or still-streaming answer", () => {
    for (const status of ["complete", "streaming"] as const) {
      expect(retryRefusal({ answer: { seq: 6, role: "assistant", status }, question, lastSeq: 6 })).toMatch(
        /failed or interrupted/,
      );
    }
  });
  it("refuses an answer that is not the newest message", () => {
    expect(
      retryRefusal({ answer: { seq: 6, role: "assistant", status: "failed" }, question, lastSeq: 8 }),
    ).toMatch(/latest/);
  });
  it("allows an answer after its tool steps, when the steps fill exactly the gap to its question", () => {
    const answer = { seq: 8, role: "assistant", status: "interrupted" as const };
    expect(retryRefusal({ answer, question, lastSeq: 8, steps: 2 })).toBeNull();
    expect(retryRefusal({ answer, question, lastSeq: 8, steps: 1 })).toMatch(/no question/);
    expect(retryRefusal({ answer, question, lastSeq: 8 })).toMatch(/no question/);
  });
  it("refuses what is not an answer, or has no question before it", () => {
    expect(retryRefusal({ answer: null, question, lastSeq: 6 })).toMatch(/no such answer/);
    expect(
      retryRefusal({ answer: { seq: 5, role: "user", status: "complete" }, question: null, lastSeq: 5 }),
    ).toMatch(/no such answer/);
    expect(
      retryRefusal({
        answer: { seq: 6, role: "assistant", status: "failed" },
        question: { seq: 5, role: "assistant" },
        lastSeq: 6,
      }),
    ).toMatch(/no question/);
    expect(
      retryRefusal({ answer: { seq: 6, role: "assistant", status: "failed" }, question: null, lastSeq: 6 }),
    ).toMatch(/no question/);
  });
});

describe("rebuildFromTail after a clear and with summaries", () => {
  const summary = (fromSeq: number, throughSeq: number): MemoryItem => ({
    role: "system",
    text: `summary of ${fromSeq}-${throughSeq}`,
    summary: true,
    summaryMeta: {
      fromSeq,
      throughSeq,
      messages: throughSeq - fromSeq + 1,
      version: 1,
      model: "m",
      createdAt: "2026-01-01T00:00:00.000Z",
    },
  });

  it("never brings back what was before the memory start boundary", () => {
    const rebuilt = rebuildFromTail(conversation(5), messageWindow(20), { startSeq: 6 });
    expect(rebuilt.map((i) => i.seq)).toEqual([7, 8, 9, 10]);
  });

  it("carries the old snapshot's summary and only the messages after it", () => {
    const rebuilt = rebuildFromTail(conversation(5), messageWindow(20), { carried: [summary(1, 6)] });
    expect(rebuilt.map((i) => i.seq ?? i.text)).toEqual(["summary of 1-6", 7, 8, 9, 10]);
  });

  it("drops a summary of messages from before the boundary", () => {
    const rebuilt = rebuildFromTail(conversation(5), messageWindow(20), {
      startSeq: 6,
      carried: [summary(1, 6), { role: "user", text: "not a summary", seq: 3 }],
    });
    expect(rebuilt.map((i) => i.seq)).toEqual([7, 8, 9, 10]);
  });
});

describe("summariesOnPath", () => {
  const summary = (fromSeq: number, throughSeq: number): MemoryItem => ({
    role: "system",
    text: `summary ${fromSeq}-${throughSeq}`,
    summary: true,
    summaryMeta: {
      fromSeq,
      throughSeq,
      messages: throughSeq - fromSeq + 1,
      version: 1,
      model: "m",
      createdAt: "2026-12-01T00:00:00.000Z",
    },
  });
  // The old snapshot: a summary of 1–10 and the verbatim messages 11–14 of its path.
  const items = [
    summary(1, 10),
    ...[11, 12, 13, 14].map((seq) => msg(seq, seq % 2 ? "user" : "assistant").item),
  ];

  it("keeps every summary when the new path continues the snapshot's leaf", () => {
    const tail = [11, 12, 13, 14, 15, 16].map((seq) => msg(seq, "user"));
    expect(summariesOnPath(items, { snapshotThroughSeq: 14, tail })).toEqual([items[0]]);
  });

  it("keeps the summaries before the fork when the paths share a verbatim message (an edit, a regenerate)", () => {
    // Forked after 12: the new path is …, 11, 12, 20, 21.
    const tail = [11, 12, 20, 21].map((seq) => msg(seq, "user"));
    expect(summariesOnPath(items, { snapshotThroughSeq: 14, tail })).toEqual([items[0]]);
  });

  it("drops a summary that reaches past the shared part of the paths", () => {
    const late = [summary(1, 10), summary(11, 13), msg(14, "assistant").item];
    // Shares only 11 and 12 with the old path: the summary of 11–13 covers 13, which is not on this path.
    const tail = [11, 12, 30, 31].map((seq) => msg(seq, "user"));
    expect(summariesOnPath(late, { snapshotThroughSeq: 14, tail })).toEqual([late[0]]);
  });

  it("borrows nothing from another branch when the tail shows no common message", () => {
    const tail = [40, 41, 42].map((seq) => msg(seq, "user"));
    expect(summariesOnPath(items, { snapshotThroughSeq: 14, tail })).toEqual([]);
  });
});
