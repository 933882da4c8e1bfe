import { describe, expect, it } from "vitest";
import { isPinned } from "./items";
import { messageWindow } from "./policies";
import { randomHistory, rng } from "./test-fixtures";
import { tokenWindow, windowPolicy } from "./token-window";
import type { MemoryItem, TokenCounter } from "./types";

/** A deterministic cost per item (texts are unique `#n`), between 1 and 40. */
const count: TokenCounter = (item) => 1 + ((Number(item.text.slice(1)) * 7919) % 40);
const sum = (items: readonly MemoryItem[]) => items.reduce((total, item) => total + count(item), 0);
const history = (items: readonly MemoryItem[]) => items.filter((i) => !isPinned(i));
const texts = (items: readonly MemoryItem[]) => items.map((i) => i.text);

/** Whether `small` is a suffix of `large` (as history text lists). */
function isSuffix(small: readonly string[], large: readonly string[]): boolean {
  return small.every((text, k) => large[large.length - small.length + k] === text);
}

describe("tokenWindow invariants over random histories", () => {
  const random = rng(20250101);
  const cases = Array.from({ length: 500 }, () => ({
    items: randomHistory(random),
    maxTokens: Math.floor(random() * 300),
    maxMessages: 1 + Math.floor(random() * 12),
  }));

  it("holds every invariant", () => {
    for (const { items, maxTokens, maxMessages } of cases) {
      const context = JSON.stringify({ maxTokens, maxMessages, input: texts(items) });
      const result = tokenWindow({ maxTokens, count }).apply(items);

      // A subsequence of the input, every pinned item kept.
      const at = result.map((r) => items.findIndex((i) => i.text === r.text));
      expect(at, context).not.toContain(-1);
      expect(
        at.every((p, k) => k === 0 || p > (at[k - 1] ?? -1)),
        context,
      ).toBe(true);
      expect(result.filter(isPinned)).toHaveLength(items.filter(isPinned).length);

      // Within budget unless the pinned items alone exceed it (then no history at all).
      const pinnedCost = sum(items.filter(isPinned));
      if (pinnedCost > maxTokens) expect(history(result), context).toEqual([]);
      else expect(sum(result), context).toBeLessThanOrEqual(maxTokens);

      // The same units as a message window keeps: its history is a suffix of the unbounded window's.
      const everything = messageWindow(10_000).apply(items);
      expect(isSuffix(texts(history(result)), texts(history(everything))), context).toBe(true);

      // No tool output without its call right before it (pinned in between allowed).
      const kept = history(result);
      kept.forEach((item, k) => {
        if (item.role !== "tool") return;
        const owner = kept.slice(0, k).findLast((i) => i.role !== "tool");
        expect(
          owner?.toolCalls?.some((c) => c.id === item.toolCallId),
          context,
        ).toBe(true);
      });

      // Idempotent and monotonic in the budget.
      expect(tokenWindow({ maxTokens, count }).apply(result)).toEqual(result);
      const larger = tokenWindow({ maxTokens: maxTokens + 1 + Math.floor(random() * 50), count }).apply(
        items,
      );
      expect(history(larger).length).toBeGreaterThanOrEqual(history(result).length);

      // Composed with a message window: the tighter wins (the shorter of the two suffixes), and idempotent.
      const composed = windowPolicy({ maxMessages, maxTokens, count }).apply(items);
      const byMessages = history(messageWindow(maxMessages).apply(items));
      const shorter = byMessages.length < history(result).length ? byMessages : history(result);
      expect(texts(history(composed)), context).toEqual(texts(shorter));
      expect(composed.filter(isPinned)).toHaveLength(items.filter(isPinned).length);
      expect(windowPolicy({ maxMessages, maxTokens, count }).apply(composed)).toEqual(composed);
    }
  });

  it("generates cases that cut and cases that keep everything", () => {
    const cut = cases.filter(
      ({ items, maxTokens }) =>
        history(tokenWindow({ maxTokens, count }).apply(items)).length <
        history(messageWindow(10_000).apply(items)).length,
    );
    expect(cut.length).toBeGreaterThan(50);
    expect(cut.length).toBeLessThan(cases.length - 50);
  });
});
