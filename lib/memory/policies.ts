import { cloneItem, keepSuffix, withinMessages } from "./items";
import type { MemoryPolicy } from "./types";

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
    apply: (items) => keepSuffix(items, withinMessages(n)),
  };
}
