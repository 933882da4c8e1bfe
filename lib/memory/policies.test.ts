import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_MESSAGES, messageWindow, none, unbounded } from "./policies";
import { conversation, deepFreeze, labels } from "./test-fixtures";
import type { MemoryItem, MemoryPolicy } from "./types";

describe("messageWindow", () => {
  it.each([
    // plain messages, counting messages rather than pairs
    { name: "n = 1 keeps only the last message", n: 1, input: "u1 a2 u3", want: "u3" },
    { name: "n = history length keeps everything", n: 3, input: "u1 a2 u3", want: "u1 a2 u3" },
    { name: "n larger than history keeps everything", n: 50, input: "u1 a2 u3", want: "u1 a2 u3" },
    { name: "n = history length - 1 drops the oldest", n: 2, input: "u1 a2 u3", want: "a2 u3" },
    { name: "counts messages, not pairs", n: 3, input: "u1 a2 u3 a4", want: "a2 u3 a4" },
    { name: "window may start on an assistant message", n: 1, input: "u1 a2", want: "a2" },
    { name: "empty history", n: 3, input: "", want: "" },
    // pinned items
    { name: "only system items", n: 1, input: "S1 S2", want: "S1 S2" },
    { name: "system items do not count toward n", n: 2, input: "S1 u1 a2 S2 u3 a4", want: "S1 S2 u3 a4" },
    { name: "system item in the middle keeps its place", n: 2, input: "u1 S a2 u3", want: "S a2 u3" },
    { name: "system item inside the kept window", n: 3, input: "u1 a2 S u3 a4", want: "a2 S u3 a4" },
    { name: "summary items are kept and not counted", n: 1, input: "Σ1 u1 a2 Σ2 u3", want: "Σ1 Σ2 u3" },
    { name: "summaries and system with empty history", n: 4, input: "S Σ", want: "S Σ" },
    // tool groups
    { name: "group inside the window is kept whole", n: 3, input: "u1 c2:x t3:x a4", want: "c2:x t3:x a4" },
    { name: "cut inside a group drops the whole group", n: 2, input: "u1 c2:x t3:x a4", want: "a4" },
    { name: "group exactly at the window edge", n: 4, input: "u1 c2:x t3:x a4", want: "u1 c2:x t3:x a4" },
    { name: "group at the end that fits", n: 2, input: "u1 a2 c3:x t4:x", want: "c3:x t4:x" },
    { name: "group at the end larger than n", n: 2, input: "u1 a2 c3:x,y t4:x t5:y", want: "" },
    { name: "group larger than n keeps pinned", n: 2, input: "S u1 c2:x,y t3:x t4:y", want: "S" },
    { name: "group larger than n = 1", n: 1, input: "u1 c2:x t3:x", want: "" },
    {
      name: "multiple outputs per call, window fits",
      n: 4,
      input: "u1 c2:x,y t3:x t4:y a5",
      want: "c2:x,y t3:x t4:y a5",
    },
    {
      name: "multiple outputs per call, cut between outputs",
      n: 2,
      input: "u1 c2:x,y t3:x t4:y a5",
      want: "a5",
    },
    { name: "multiple outputs per call, cut after call", n: 3, input: "u1 c2:x,y t3:x t4:y a5", want: "a5" },
    {
      name: "a dropped group ends the window even if older messages would fit",
      n: 3,
      input: "u1 u2 c3:x,y t4:x t5:y a6",
      want: "a6",
    },
    {
      name: "consecutive groups, cut in the older one",
      n: 3,
      input: "c1:x t2:x c3:y t4:y",
      want: "c3:y t4:y",
    },
    { name: "consecutive groups both fit", n: 4, input: "c1:x t2:x c3:y t4:y", want: "c1:x t2:x c3:y t4:y" },
    { name: "call without outputs is a group of one", n: 1, input: "u1 c2:x", want: "c2:x" },
    { name: "system between call and output", n: 3, input: "c1:x S t2:x u3", want: "c1:x S t2:x u3" },
    { name: "system between call and output, group cut", n: 2, input: "c1:x S t2:x u3", want: "S u3" },
    // orphans
    { name: "orphan tool output at the start is dropped", n: 3, input: "t1:x u2 a3", want: "u2 a3" },
    { name: "orphan at the start with a large window", n: 50, input: "t1:x t2:y u3 a4", want: "u3 a4" },
    { name: "orphans do not count toward n", n: 2, input: "u1 t2:z a3", want: "u1 a3" },
    { name: "output not answering the call is an orphan", n: 5, input: "c1:x t2:y", want: "c1:x" },
    {
      name: "output for an earlier call after a user message is an orphan",
      n: 10,
      input: "u1 c2:x t3:x u4 t5:x a6",
      want: "u1 c2:x t3:x u4 a6",
    },
    { name: "only orphans", n: 5, input: "t1:x t2:y", want: "" },
  ])("$name", ({ n, input, want }) => {
    expect(labels(messageWindow(n).apply(conversation(input)))).toBe(want);
  });

  it("treats an assistant with an empty toolCalls list as a plain message", () => {
    const items: MemoryItem[] = [
      { role: "user", text: "q", seq: 1 },
      { role: "assistant", text: "a", seq: 2, toolCalls: [] },
    ];
    expect(messageWindow(1).apply(items)).toEqual([items[1]]);
  });

  it("treats a summary with a non-system role as pinned", () => {
    const items: MemoryItem[] = [
      { role: "assistant", text: "so far", summary: true },
      ...conversation("u1 a2 u3"),
    ];
    expect(labels(messageWindow(1).apply(items))).toBe("so far u3");
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0.5])("throws RangeError for n = %s", (n) => {
    expect(() => messageWindow(n)).toThrow(RangeError);
  });

  it.each([1, 2, 20, 10_000])("has id window:%i", (n) => {
    expect(messageWindow(n).id).toBe(`window:${n}`);
  });

  it("is deterministic: two policies with the same n give the same result", () => {
    const items = conversation("S u1 c2:x t3:x a4 u5 a6");
    expect(messageWindow(3).apply(items)).toEqual(messageWindow(3).apply(items));
  });

  it("is idempotent", () => {
    const policy = messageWindow(3);
    const once = policy.apply(conversation("t0:z S u1 c2:x,y t3:x t4:y a5 u6 a7"));
    expect(policy.apply(once)).toEqual(once);
  });

  it("default window size is 20", () => {
    expect(DEFAULT_MAX_MESSAGES).toBe(20);
  });
});

describe("unbounded", () => {
  it("has id unbounded and keeps everything, orphans included", () => {
    const items = conversation("t0:z S u1 c2:x t3:x Σ a4");
    expect(unbounded.id).toBe("unbounded");
    expect(unbounded.apply(items)).toEqual(items);
  });

  it("keeps an empty list empty", () => {
    expect(unbounded.apply([])).toEqual([]);
  });
});

describe("none", () => {
  it.each([
    { input: "S u1 a2 S2", want: "S S2" },
    { input: "u1 a2", want: "" },
    { input: "Σ S u1", want: "S" },
    { input: "c1:x t2:x", want: "" },
    { input: "", want: "" },
  ])("$input → '$want'", ({ input, want }) => {
    expect(none.id).toBe("none");
    expect(labels(none.apply(conversation(input)))).toBe(want);
  });
});

describe("policies are pure", () => {
  const policies: MemoryPolicy[] = [unbounded, none, messageWindow(1), messageWindow(3), messageWindow(100)];
  const input = (): MemoryItem[] => [
    { role: "system", text: "S" },
    { role: "user", text: "look", seq: 1, imageUrls: ["https://example.test/a.png"] },
    { role: "assistant", text: "", seq: 2, toolCalls: [{ id: "x", name: "f", arguments: "{}" }] },
    { role: "tool", text: "out", seq: 3, toolCallId: "x" },
    { role: "assistant", text: "done", seq: 4 },
  ];

  it.each(policies.map((policy) => [policy.id, policy] as const))(
    "%s does not mutate its input",
    (_, policy) => {
      const items = deepFreeze(input());
      expect(() => policy.apply(items)).not.toThrow();
      expect(items).toEqual(input());
    },
  );

  it.each(policies.map((policy) => [policy.id, policy] as const))("%s returns fresh copies", (_, policy) => {
    const items = input();
    const result = policy.apply(items);
    expect(result).not.toBe(items);
    for (const kept of result) {
      expect(items).not.toContain(kept);
      const original = items.find((i) => i.text === kept.text && i.seq === kept.seq);
      expect(original).toEqual(kept);
      if (kept.toolCalls) expect(kept.toolCalls).not.toBe(original?.toolCalls);
      if (kept.imageUrls) expect(kept.imageUrls).not.toBe(original?.imageUrls);
    }
    result.length = 0;
    expect(policy.apply(items)).not.toHaveLength(0);
  });
});
