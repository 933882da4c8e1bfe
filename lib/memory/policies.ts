import { cloneItem, hasToolCalls, isPinned } from "./items";
import type { MemoryItem, MemoryPolicy } from "./types";

export const DEFAULT_MAX_MESSAGES = 20;

/** Keeps everything, as copies. */
export const unbounded: MemoryPolicy = {
  id: "unbounded",
  apply: (items) => items.map(cloneItem),
};

/** Memory disabled: the model sees only system items (summaries are memory too, so they go). */
export const none: MemoryPolicy = {
  id: "none",
  apply: (items) => items.filter((item) => item.role === "system" && item.summary !== true).map(cloneItem),
};

/**
 * Splits the history (non-pinned) items into units that are kept or dropped whole, in input order.
 * A unit is a single message, or an assistant message with tool calls plus the run of tool messages right
 * after it (pinned items in between are ignored) that answer one of its calls. A tool message outside such
 * a run has no call in the input: it is an orphan and belongs to no unit.
 */
function historyUnits(items: readonly MemoryItem[]): number[][] {
  const units: number[][] = [];
  let group: { indices: number[]; callIds: Set<string> } | undefined;
  items.forEach((item, index) => {
    if (isPinned(item)) return;
    if (item.role === "tool") {
      if (group && item.toolCallId !== undefined && group.callIds.has(item.toolCallId)) {
        group.indices.push(index);
      }
      return;
    }
    group = undefined;
    if (hasToolCalls(item)) {
      group = { indices: [index], callIds: new Set(item.toolCalls?.map((call) => call.id)) };
      units.push(group.indices);
    } else {
      units.push([index]);
    }
  });
  return units;
}

/**
 * Keeps the last `n` history messages plus every pinned item, in input order. The window is a contiguous
 * suffix of whole units: a tool group that does not fit entirely is dropped with everything before it, so the
 * window may hold fewer than `n` messages (even none, when the newest group alone is larger than `n`), never
 * more, and never a tool output without its call. See docs/decisions/002-memory-policies.md.
 */
export function messageWindow(n: number): MemoryPolicy {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`messageWindow needs a positive integer, got ${n}`);
  }
  return {
    id: `window:${n}`,
    apply(items) {
      const keep = new Set<number>();
      const units = historyUnits(items);
      let count = 0;
      for (let u = units.length - 1; u >= 0; u--) {
        const unit = units[u] ?? [];
        if (count + unit.length > n) break;
        count += unit.length;
        for (const index of unit) keep.add(index);
      }
      return items.filter((item, index) => isPinned(item) || keep.has(index)).map(cloneItem);
    },
  };
}

export function policyFromConfig({
  enabled,
  maxMessages,
}: {
  enabled: boolean;
  maxMessages: number;
}): MemoryPolicy {
  return enabled ? messageWindow(maxMessages) : none;
}
