import type { MemoryItem } from "./types";

/** A deep copy holding only the known fields, with absent optionals omitted (so it survives JSON unchanged). */
export function cloneItem(item: MemoryItem): MemoryItem {
  const copy: MemoryItem = { role: item.role, text: item.text };
  if (item.imageUrls !== undefined) copy.imageUrls = [...item.imageUrls];
  if (item.toolCalls !== undefined) {
    copy.toolCalls = item.toolCalls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
    }));
  }
  if (item.toolCallId !== undefined) copy.toolCallId = item.toolCallId;
  if (item.summary !== undefined) copy.summary = item.summary;
  if (item.summaryMeta !== undefined) {
    const meta = item.summaryMeta;
    copy.summaryMeta = {
      fromSeq: meta.fromSeq,
      throughSeq: meta.throughSeq,
      messages: meta.messages,
      version: meta.version,
      model: meta.model,
      createdAt: meta.createdAt,
    };
  }
  if (item.seq !== undefined) copy.seq = item.seq;
  return copy;
}

/** System items and summaries are pinned: every policy except `none` keeps them and they never count as history. */
export function isPinned(item: MemoryItem): boolean {
  return item.role === "system" || item.summary === true;
}

export function hasToolCalls(item: MemoryItem): boolean {
  return item.role === "assistant" && (item.toolCalls?.length ?? 0) > 0;
}

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
 * Positions of the longest suffix of whole history units that `fits`. `fits` is asked about each unit from
 * the newest back and the first refusal ends the window: skipping a unit to reach older ones would show the
 * model a conversation that never happened.
 */
export function suffixIndices(
  items: readonly MemoryItem[],
  fits: (unit: readonly MemoryItem[]) => boolean,
): Set<number> {
  const keep = new Set<number>();
  const units = historyUnits(items);
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u] ?? [];
    if (!fits(unit.map((index) => items[index] as MemoryItem))) break;
    for (const index of unit) keep.add(index);
  }
  return keep;
}

/** The pinned items plus the suffix chosen by `suffixIndices`, in input order, as copies. */
export function keepSuffix(
  items: readonly MemoryItem[],
  fits: (unit: readonly MemoryItem[]) => boolean,
): MemoryItem[] {
  const keep = suffixIndices(items, fits);
  return items.filter((item, index) => isPinned(item) || keep.has(index)).map(cloneItem);
}

/** Fits for a message window of `n`: a stateful check, one per pass. */
export function withinMessages(n: number): (unit: readonly MemoryItem[]) => boolean {
  let count = 0;
  return (unit) => {
    if (count + unit.length > n) return false;
    count += unit.length;
    return true;
  };
}
