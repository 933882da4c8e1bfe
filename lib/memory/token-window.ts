import { isPinned, keepSuffix } from "./items";
import { messageWindow } from "./policies";
import type { MemoryItem, MemoryPolicy, TokenCounter } from "./types";

function requireTokens(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${what} needs a non-negative integer, got ${value}`);
  }
}

function sum(items: readonly MemoryItem[], count: TokenCounter): number {
  let total = 0;
  for (const item of items) total += count(item);
  return total;
}

/**
 * The token-budget window (LangChain4j's TokenWindowChatMemory, on Recall's units): pinned items (system items,
 * summaries) are always kept and their tokens count first; then the longest suffix of whole units whose tokens
 * fit in what is left. A unit is never truncated, so a newest message that alone exceeds the budget leaves the
 * window empty of history; a tool call leaves together with its outputs; orphan tool outputs never stay.
 * When the pinned items alone exceed the budget, they are all that is kept.
 */
export function tokenWindow({ maxTokens, count }: { maxTokens: number; count: TokenCounter }): MemoryPolicy {
  requireTokens(maxTokens, "tokenWindow");
  return {
    id: `tokens:${maxTokens}`,
    apply(items) {
      let left = maxTokens - sum(items.filter(isPinned), count);
      return keepSuffix(items, (unit) => {
        const cost = sum(unit, count);
        if (cost > left) return false;
        left -= cost;
        return true;
      });
    },
  };
}

/**
 * Applies each policy to the result of the previous one; the id joins theirs with `+`, so a snapshot made by
 * another combination is seen as stale. For windows (suffixes of the same units) the order does not matter and
 * the tighter one wins.
 */
export function composePolicies(...policies: readonly MemoryPolicy[]): MemoryPolicy {
  const [first, ...rest] = policies;
  if (!first) throw new RangeError("composePolicies needs at least one policy");
  if (rest.length === 0) return first;
  return {
    id: policies.map((policy) => policy.id).join("+"),
    apply: (items) => rest.reduce((current, policy) => policy.apply(current), first.apply(items)),
  };
}

/**
 * A message window, a token window, or both (the tighter wins). Ids: `window:20`, `tokens:2000`,
 * `tokens:2000+window:20`.
 */
export function windowPolicy({
  maxMessages,
  maxTokens,
  count,
}: {
  maxMessages?: number;
  maxTokens?: number;
  count?: TokenCounter;
}): MemoryPolicy {
  const policies: MemoryPolicy[] = [];
  if (maxTokens !== undefined) {
    if (!count) throw new RangeError("a token window needs a token counter");
    policies.push(tokenWindow({ maxTokens, count }));
  }
  if (maxMessages !== undefined) policies.push(messageWindow(maxMessages));
  if (policies.length === 0) throw new RangeError("windowPolicy needs maxMessages, maxTokens or both");
  return composePolicies(...policies);
}
