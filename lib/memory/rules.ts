import { fold } from "./snapshot";
import type { MemoryItem, MemoryPolicy } from "./types";

// The rules that decide what memory is, shared by the turn pipeline and the admin view. Storage hands these
// functions rows; it decides nothing about memory itself.

export type HistoryStatus = "complete" | "streaming" | "interrupted" | "failed";

/** A stored history message as memory sees it: the item and how its writing ended. */
export interface HistoryMessage {
  item: MemoryItem;
  status: HistoryStatus;
}

/** What users said always counts; an answer counts only once it completed. Unfinished answers are history only. */
export function isMemoryMessage({ item, status }: HistoryMessage): boolean {
  return item.role === "user" || status === "complete";
}

/**
 * How many history rows a rebuild reads for a window of `maxMessages`: room for an unanswered message beside every
 * windowed one, so a rebuild still fills the window. Zero when memory is off.
 */
export function tailRowsFor({ enabled, maxMessages }: { enabled: boolean; maxMessages: number }): number {
  return enabled ? maxMessages * 2 + 2 : 0;
}

/**
 * A stored snapshot serves a turn as it is only when the policy in force made it and it ends exactly where the
 * turn's history ends (right before the question). Anything else — missing, behind, ahead (a retry: the snapshot
 * already holds the question), another policy — is rebuilt from the history tail.
 */
export function isSnapshotCurrent(
  snapshot: { policy: string; throughSeq: number } | null,
  { policyId, throughSeq }: { policyId: string; throughSeq: number },
): boolean {
  return snapshot !== null && snapshot.policy === policyId && snapshot.throughSeq === throughSeq;
}

/**
 * Memory rebuilt from the newest history rows (oldest first): unfinished answers left out, nothing from before
 * the memory was cleared (`startSeq`), and the summaries of the snapshot being replaced carried over (`carried`,
 * when they are not from before the clear) together with only the messages they do not cover. Then the policy.
 */
export function rebuildFromTail(
  tail: readonly HistoryMessage[],
  policy: MemoryPolicy,
  { startSeq = 0, carried = [] }: { startSeq?: number; carried?: readonly MemoryItem[] } = {},
): MemoryItem[] {
  const summaries = carried.filter(
    (item) => item.summary === true && item.summaryMeta !== undefined && item.summaryMeta.fromSeq > startSeq,
  );
  const covered = Math.max(startSeq, ...summaries.map((item) => item.summaryMeta?.throughSeq ?? 0));
  const messages = tail.filter(
    (message) => isMemoryMessage(message) && (message.item.seq === undefined || message.item.seq > covered),
  );
  return policy.apply([...summaries, ...messages.map((message) => message.item)]);
}

/**
 * The summaries of a snapshot that still hold for another path of the conversation. Seqs grow along
 * every path, so two paths share exactly the ancestors of any message they share: a summary holds when it ends at
 * or before the newest message that the snapshot's path and the new path's tail have in common (the snapshot's own
 * leaf, one of its verbatim messages, or where one of its summaries begins or ends). None when the tail shows no common message — the summary is then made
 * again for this path, never borrowed from another.
 */
export function summariesOnPath(
  items: readonly MemoryItem[],
  { snapshotThroughSeq, tail }: { snapshotThroughSeq: number; tail: readonly HistoryMessage[] },
): MemoryItem[] {
  const onPath = new Set(tail.map((m) => m.item.seq));
  let shared = onPath.has(snapshotThroughSeq) ? snapshotThroughSeq : 0;
  // Every seq the snapshot names is a message of its path: its verbatim messages and where its summaries begin
  // and end.
  for (const item of items) {
    const named = item.summaryMeta ? [item.summaryMeta.fromSeq, item.summaryMeta.throughSeq] : [item.seq];
    for (const seq of named) if (seq !== undefined && onPath.has(seq)) shared = Math.max(shared, seq);
  }
  return items.filter(
    (item) =>
      item.summary === true && item.summaryMeta !== undefined && item.summaryMeta.throughSeq <= shared,
  );
}

/**
 * The snapshot a turn leaves behind: the policy applied to the memory it started from, its question, and its
 * answer when the answer completed (a failed or interrupted answer never enters memory; its question does).
 */
export function memoryAfterTurn({
  memory,
  question,
  steps = [],
  answer,
  policy,
}: {
  memory: readonly MemoryItem[];
  question: MemoryItem;
  /** The turn's tool steps between question and answer: assistant calls and their results, in order. */
  steps?: readonly MemoryItem[];
  answer: MemoryItem | null;
  policy: MemoryPolicy;
}): MemoryItem[] {
  const before = question.seq === undefined ? memory : memory.filter((item) => item.seq !== question.seq);
  return fold({ items: before, policy, add: [question, ...steps, ...(answer ? [answer] : [])] });
}

/**
 * Why an answer cannot be retried, or null when it can: only the newest message of the conversation, an
 * assistant answer that failed or was interrupted, right after the user question it answers — or after the tool
 * steps (`steps` messages: calls and their results) it made for that question, which the retry keeps.
 */
export function retryRefusal({
  answer,
  question,
  lastSeq,
  steps = 0,
}: {
  answer: { seq: number; role: string; status: HistoryStatus } | null;
  question: { seq: number; role: string } | null;
  lastSeq: number;
  steps?: number;
}): string | null {
  if (answer?.role !== "assistant") return "There is no such answer in this conversation.";
  if (answer.seq !== lastSeq) return "Only the latest answer can be retried.";
  if (answer.status !== "failed" && answer.status !== "interrupted") {
    return "Only a failed or interrupted answer can be retried.";
  }
  if (question?.role !== "user" || question.seq !== answer.seq - 1 - steps) {
    return "This answer has no question to answer again.";
  }
  return null;
}
