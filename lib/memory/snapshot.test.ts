import { describe, expect, it } from "vitest";
import { MemoryFormatError } from "./errors";
import { messageWindow, none, unbounded } from "./policies";
import { fold, restore, snapshot } from "./snapshot";
import { conversation, deepFreeze, labels } from "./test-fixtures";
import type { MemoryItem } from "./types";

const rich = (): MemoryItem[] => [
  { role: "system", text: "You are Recall." },
  { role: "system", text: "Earlier we spoke about tea.", summary: true },
  { role: "user", text: "Look at this", seq: 1, imageUrls: ["https://example.test/a.png"] },
  { role: "assistant", text: "", seq: 2, toolCalls: [{ id: "c1", name: "describe", arguments: '{"n":1}' }] },
  { role: "tool", text: "a cat", seq: 3, toolCallId: "c1" },
  { role: "assistant", text: "It is a cat. ünïcødé 🐈", seq: 4 },
];

describe("snapshot", () => {
  it("is a deep copy equal to its input", () => {
    const items = rich();
    const copy = snapshot(items);
    expect(copy).toStrictEqual(items);
    expect(copy).not.toBe(items);
    copy.forEach((item, i) => {
      expect(item).not.toBe(items[i]);
    });
    expect(copy[2]?.imageUrls).not.toBe(items[2]?.imageUrls);
    expect(copy[3]?.toolCalls).not.toBe(items[3]?.toolCalls);
    expect(copy[3]?.toolCalls?.[0]).not.toBe(items[3]?.toolCalls?.[0]);
  });

  it("survives JSON unchanged", () => {
    const copy = snapshot(rich());
    expect(JSON.parse(JSON.stringify(copy))).toStrictEqual(copy);
  });

  it("omits absent optional fields and unknown keys", () => {
    const withExtras = { role: "user", text: "q", seq: undefined, extra: 1 } as unknown as MemoryItem;
    expect(snapshot([withExtras])).toStrictEqual([{ role: "user", text: "q" }]);
  });

  it("does not mutate frozen input", () => {
    expect(snapshot(deepFreeze(rich()))).toStrictEqual(rich());
  });

  it("snapshots an empty list", () => {
    expect(snapshot([])).toEqual([]);
  });
});

describe("restore", () => {
  it("round-trips a snapshot through JSON", () => {
    const stored = JSON.stringify(snapshot(rich()));
    expect(restore(JSON.parse(stored))).toStrictEqual(rich());
  });

  it("restores an empty list", () => {
    expect(restore([])).toEqual([]);
  });

  it("returns copies, not the input objects", () => {
    const raw = rich();
    const restored = restore(raw);
    expect(restored[2]).not.toBe(raw[2]);
    restored[2]?.imageUrls?.push("mutated");
    expect(raw[2]?.imageUrls).toEqual(["https://example.test/a.png"]);
  });

  it("drops unknown keys", () => {
    expect(restore([{ role: "user", text: "q", seq: 0, future: { x: 1 } }])).toStrictEqual([
      { role: "user", text: "q", seq: 0 },
    ]);
  });

  it.each([
    { name: "null", value: null, path: "items" },
    { name: "an object", value: { items: [] }, path: "items" },
    { name: "a string", value: "[]", path: "items" },
    { name: "a number", value: 1, path: "items" },
    { name: "a null item", value: [null], path: "items[0]" },
    { name: "an array item", value: [[]], path: "items[0]" },
    { name: "a string item", value: ["hi"], path: "items[0]" },
    { name: "a missing role", value: [{ text: "q" }], path: "items[0].role" },
    { name: "an unknown role", value: [{ role: "developer", text: "q" }], path: "items[0].role" },
    { name: "a missing text", value: [{ role: "user" }], path: "items[0].text" },
    { name: "a numeric text", value: [{ role: "user", text: 5 }], path: "items[0].text" },
    { name: "null text", value: [{ role: "user", text: null }], path: "items[0].text" },
    {
      name: "imageUrls not an array",
      value: [{ role: "user", text: "q", imageUrls: "u" }],
      path: "items[0].imageUrls",
    },
    {
      name: "a non-string image url",
      value: [{ role: "user", text: "q", imageUrls: ["u", 3] }],
      path: "items[0].imageUrls[1]",
    },
    {
      name: "toolCalls not an array",
      value: [{ role: "assistant", text: "", toolCalls: {} }],
      path: "items[0].toolCalls",
    },
    {
      name: "toolCalls on a user item",
      value: [{ role: "user", text: "", toolCalls: [] }],
      path: "items[0].toolCalls",
    },
    {
      name: "a tool call without id",
      value: [{ role: "assistant", text: "", toolCalls: [{ name: "f", arguments: "{}" }] }],
      path: "items[0].toolCalls[0].id",
    },
    {
      name: "tool call arguments as an object",
      value: [{ role: "assistant", text: "", toolCalls: [{ id: "c", name: "f", arguments: {} }] }],
      path: "items[0].toolCalls[0].arguments",
    },
    {
      name: "a null tool call",
      value: [{ role: "assistant", text: "", toolCalls: [null] }],
      path: "items[0].toolCalls[0]",
    },
    {
      name: "toolCallId on a user item",
      value: [{ role: "user", text: "q", toolCallId: "c" }],
      path: "items[0].toolCallId",
    },
    {
      name: "a tool item without toolCallId",
      value: [{ role: "tool", text: "r" }],
      path: "items[0].toolCallId",
    },
    {
      name: "a tool item with empty toolCallId",
      value: [{ role: "tool", text: "r", toolCallId: "" }],
      path: "items[0].toolCallId",
    },
    {
      name: "a numeric toolCallId",
      value: [{ role: "tool", text: "r", toolCallId: 7 }],
      path: "items[0].toolCallId",
    },
    {
      name: "a non-boolean summary",
      value: [{ role: "system", text: "s", summary: "yes" }],
      path: "items[0].summary",
    },
    { name: "a negative seq", value: [{ role: "user", text: "q", seq: -1 }], path: "items[0].seq" },
    { name: "a fractional seq", value: [{ role: "user", text: "q", seq: 1.5 }], path: "items[0].seq" },
    { name: "a string seq", value: [{ role: "user", text: "q", seq: "3" }], path: "items[0].seq" },
    { name: "a null optional field", value: [{ role: "user", text: "q", seq: null }], path: "items[0].seq" },
    {
      name: "a bad item after good ones",
      value: [
        { role: "user", text: "q" },
        { role: "assistant", text: "a" },
        { role: "assistant", text: 1 },
      ],
      path: "items[2].text",
    },
  ])("rejects $name", ({ value, path }) => {
    let error: unknown;
    try {
      restore(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MemoryFormatError);
    expect(error).toBeInstanceOf(Error);
    expect((error as MemoryFormatError).name).toBe("MemoryFormatError");
    expect((error as MemoryFormatError).path).toBe(path);
    expect((error as MemoryFormatError).message).toContain(path);
  });
});

describe("fold", () => {
  it("applies the policy to the previous items plus the new ones", () => {
    const result = fold({
      items: conversation("S u1 a2 u3 a4"),
      policy: messageWindow(3),
      add: conversation("u5 a6"),
    });
    expect(labels(result)).toBe("S a4 u5 a6");
  });

  it("is policy.apply of the concatenation", () => {
    const items = conversation("u1 c2:x t3:x a4");
    const add = conversation("u5 a6");
    for (const policy of [unbounded, none, messageWindow(1), messageWindow(4)]) {
      expect(fold({ items, policy, add })).toEqual(policy.apply([...items, ...add]));
    }
  });

  it("keeps a tool group added in one turn whole", () => {
    const result = fold({
      items: conversation("u1 a2"),
      policy: messageWindow(4),
      add: conversation("u3 c4:x t5:x a6"),
    });
    expect(labels(result)).toBe("u3 c4:x t5:x a6");
  });

  it("replaces on each write: folding turn by turn equals one fold over everything", () => {
    const policy = messageWindow(4);
    const turns = ["u1 a2", "u3 c4:x t5:x a6", "u7 a8", "u9 a10"].map(conversation);
    let memory: MemoryItem[] = [];
    for (const add of turns) memory = fold({ items: memory, policy, add });
    expect(memory).toEqual(policy.apply(turns.flat()));
    expect(labels(memory)).toBe("u7 a8 u9 a10");
  });

  it("does not mutate its inputs", () => {
    const items = deepFreeze(conversation("u1 a2"));
    const add = deepFreeze(conversation("u3"));
    const result = fold({ items, policy: unbounded, add });
    expect(labels(result)).toBe("u1 a2 u3");
    expect(items).toHaveLength(2);
    expect(result[0]).not.toBe(items[0]);
  });
});

describe("summary provenance (summaryMeta)", () => {
  const meta = {
    fromSeq: 1,
    throughSeq: 40,
    messages: 40,
    version: 3,
    model: "gpt-4o-mini",
    createdAt: "2025-01-02T03:04:05.000Z",
  };
  const summary: MemoryItem = { role: "system", text: "facts", summary: true, summaryMeta: meta };

  it("survives snapshot, JSON and restore, as a copy", () => {
    const copy = snapshot([summary]);
    expect(copy).toStrictEqual([summary]);
    expect(copy[0]?.summaryMeta).not.toBe(meta);
    expect(restore(JSON.parse(JSON.stringify(copy)))).toStrictEqual([summary]);
  });

  it("drops unknown keys inside it", () => {
    const stored = [{ ...summary, summaryMeta: { ...meta, extra: true } }];
    expect(restore(stored)).toStrictEqual([summary]);
    expect(snapshot(stored as MemoryItem[])).toStrictEqual([summary]);
  });

  it.each([
    [{ ...summary, summary: undefined }, "items[0].summaryMeta"],
    [{ ...summary, summaryMeta: null }, "items[0].summaryMeta"],
    [{ ...summary, summaryMeta: { ...meta, fromSeq: -1 } }, "items[0].summaryMeta.fromSeq"],
    [{ ...summary, summaryMeta: { ...meta, throughSeq: 0 } }, "items[0].summaryMeta.throughSeq"],
    [{ ...summary, summaryMeta: { ...meta, messages: 1.5 } }, "items[0].summaryMeta.messages"],
    [{ ...summary, summaryMeta: { ...meta, version: 0 } }, "items[0].summaryMeta.version"],
    [{ ...summary, summaryMeta: { ...meta, model: 1 } }, "items[0].summaryMeta.model"],
    [{ ...summary, summaryMeta: { ...meta, createdAt: "yesterday" } }, "items[0].summaryMeta.createdAt"],
  ])("rejects %j at %s", (value, path) => {
    expect(() => restore([value])).toThrow(MemoryFormatError);
    try {
      restore([value]);
    } catch (error) {
      expect((error as MemoryFormatError).path).toBe(path);
    }
  });
});
