import { describe, expect, it } from "vitest";
import { isPinned } from "./items";
import { messageWindow } from "./policies";
import { randomHistory, rng } from "./test-fixtures";
import type { MemoryItem } from "./types";

/** Input positions of the result (texts are unique), or -1 for an item not in the input. */
function positions(input: readonly MemoryItem[], output: readonly MemoryItem[]): number[] {
  return output.map((o) => input.findIndex((i) => i.text === o.text));
}

/** Tool outputs that belong to the assistant call at `index`: the following run of answering tool items. */
function groupOutputs(items: readonly MemoryItem[], index: number): number[] {
  const ids = new Set(items[index]?.toolCalls?.map((c) => c.id));
  const out: number[] = [];
  for (let j = index + 1; j < items.length; j++) {
    const next = items[j];
    if (!next || isPinned(next)) continue;
    if (next.role !== "tool" || !ids.has(next.toolCallId ?? "")) break;
    out.push(j);
  }
  return out;
}

const historyCount = (items: readonly MemoryItem[]) => items.filter((i) => !isPinned(i)).length;

describe("messageWindow invariants over random histories", () => {
  const random = rng(20240611);
  const cases = Array.from({ length: 500 }, () => ({
    items: randomHistory(random),
    n: 1 + Math.floor(random() * 12),
  }));

  it("generates varied cases", () => {
    expect(cases.some(({ items }) => items.some((i) => i.toolCalls))).toBe(true);
    expect(cases.some(({ items }) => items.length === 0)).toBe(true);
  });

  it("holds every invariant", () => {
    for (const { items, n } of cases) {
      const result = messageWindow(n).apply(items);
      const at = positions(items, result);
      const context = { n, input: items.map((i) => i.text), result: result.map((i) => i.text) };

      // A subsequence of the input, with equal items, in order.
      expect(at, JSON.stringify(context)).not.toContain(-1);
      expect(
        at.every((p, k) => k === 0 || p > (at[k - 1] ?? -1)),
        JSON.stringify(context),
      ).toBe(true);
      result.forEach((r, k) => {
        expect(r).toEqual(items[at[k] ?? -1]);
      });

      // Never more than n history messages; every pinned item kept.
      expect(historyCount(result)).toBeLessThanOrEqual(n);
      expect(result.filter(isPinned)).toHaveLength(items.filter(isPinned).length);

      // No orphan tool output: each one answers a kept call of its own group.
      const kept = new Set(at);
      result.forEach((r, k) => {
        if (r.role !== "tool") return;
        const owner = at.findIndex((p, idx) => idx < k && groupOutputs(items, p).includes(at[k] ?? -1));
        expect(owner, JSON.stringify(context)).toBeGreaterThanOrEqual(0);
      });

      // No split group: a kept call keeps all its outputs.
      for (const p of at) {
        if (items[p]?.toolCalls?.length) {
          for (const o of groupOutputs(items, p)) expect(kept.has(o), JSON.stringify(context)).toBe(true);
        }
      }

      // Contiguous: after the oldest kept history item, every non-orphan history item is kept.
      const inGroup = new Set(
        items.flatMap((_, p) => (items[p]?.toolCalls?.length ? groupOutputs(items, p) : [])),
      );
      const firstKept = at.find((p) => !isPinned(items[p] as MemoryItem));
      if (firstKept !== undefined) {
        items.forEach((i, p) => {
          if (p > firstKept && !isPinned(i) && (i.role !== "tool" || inGroup.has(p))) {
            expect(kept.has(p), JSON.stringify(context)).toBe(true);
          }
        });
      }

      // The newest plain message always survives.
      const last = items.at(-1);
      if (last && !isPinned(last) && last.role !== "tool" && !last.toolCalls?.length) {
        expect(result.at(-1)).toEqual(last);
      }

      // A larger window never holds less history, and idempotence.
      const larger = messageWindow(n + 1).apply(items);
      expect(historyCount(larger)).toBeGreaterThanOrEqual(historyCount(result));
      for (const r of result) expect(larger).toContainEqual(r);
      expect(messageWindow(n).apply(result)).toEqual(result);
    }
  });
});
