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
