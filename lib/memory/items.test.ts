import { describe, expect, it } from "vitest";
import { cloneItem, hasToolCalls, isPinned } from "./items";
import type { MemoryItem } from "./types";

describe("cloneItem", () => {
  it("copies every field deeply", () => {
    const item: MemoryItem = {
      role: "assistant",
      text: "t",
      seq: 0,
      imageUrls: ["u"],
      toolCalls: [{ id: "c", name: "f", arguments: "{}" }],
      summary: false,
    };
    const copy = cloneItem(item);
    expect(copy).toStrictEqual(item);
    expect(copy.imageUrls).not.toBe(item.imageUrls);
    expect(copy.toolCalls?.[0]).not.toBe(item.toolCalls?.[0]);
  });

  it("keeps a tool item's toolCallId and omits absent fields", () => {
    expect(cloneItem({ role: "tool", text: "r", toolCallId: "c" })).toStrictEqual({
      role: "tool",
      text: "r",
      toolCallId: "c",
    });
  });
});

describe("isPinned / hasToolCalls", () => {
  it.each<[MemoryItem, boolean, boolean]>([
    [{ role: "system", text: "s" }, true, false],
    [{ role: "system", text: "s", summary: true }, true, false],
    [{ role: "assistant", text: "s", summary: true }, true, false],
    [{ role: "user", text: "q" }, false, false],
    [{ role: "user", text: "q", summary: false }, false, false],
    [{ role: "assistant", text: "a" }, false, false],
    [{ role: "assistant", text: "a", toolCalls: [] }, false, false],
    [{ role: "assistant", text: "", toolCalls: [{ id: "c", name: "f", arguments: "{}" }] }, false, true],
    [{ role: "tool", text: "r", toolCallId: "c" }, false, false],
  ])("%j → pinned %s, calls %s", (item, pinned, calls) => {
    expect(isPinned(item)).toBe(pinned);
    expect(hasToolCalls(item)).toBe(calls);
  });
});
