import { attachedFiles } from "@/lib/attachments/parts";
import { readParts } from "@/lib/db/parts";
import type { RecallHit } from "@/lib/db/recall";
import type { HistoryMessage, MemoryItem, RecallCandidate, RecallMessage } from "@/lib/memory";
import { withAttachedFiles } from "@/lib/memory/attachments";

// The one adapter from stored messages to memory items: lib/db returns rows, lib/memory decides on items.

export type MessageRow = {
  seq: number;
  role: MemoryItem["role"];
  text: string;
  parts: unknown;
  toolCallId: string | null;
};

/** A history message as a memory item; its attached text files become part of its text. */
export function messageToItem(row: MessageRow): MemoryItem {
  const parts = readParts(row.parts);
  const item: MemoryItem = {
    role: row.role,
    text: withAttachedFiles(row.text, attachedFiles(parts.attachments)),
    seq: row.seq,
  };
  if (parts.imageUrls.length) item.imageUrls = parts.imageUrls;
  if (parts.toolCalls.length) item.toolCalls = parts.toolCalls;
  if (row.toolCallId) item.toolCallId = row.toolCallId;
  return item;
}

/** History rows (oldest first) as memory reads them: each item with its status. */
export function historyOf(rows: readonly (MessageRow & { status: string })[]): HistoryMessage[] {
  return rows.map((row) => ({ item: messageToItem(row), status: row.status as HistoryMessage["status"] }));
}

type StoredRecallMessage = Omit<RecallHit, "partner" | "score"> & { parts?: unknown };

/** A recalled message as lib/memory sees it; its text is made as for every other item (attached files included). */
function recallMessageOf(row: StoredRecallMessage): RecallMessage {
  const text = messageToItem({
    seq: row.seq,
    role: row.role,
    text: row.text,
    parts: row.parts ?? null,
    toolCallId: null,
  }).text;
  return {
    messageId: row.messageId,
    sessionId: row.sessionId,
    sessionTitle: row.sessionTitle,
    seq: row.seq,
    role: row.role,
    createdAt: row.createdAt,
    text,
  };
}

/** The recall query's hits (best first) as recall candidates for the context. */
export function recallCandidatesOf(
  hits: readonly (StoredRecallMessage & { score: number; partner?: StoredRecallMessage })[],
): RecallCandidate[] {
  return hits.map((hit) => ({
    ...recallMessageOf(hit),
    score: hit.score,
    partner: hit.partner ? recallMessageOf(hit.partner) : undefined,
  }));
}
