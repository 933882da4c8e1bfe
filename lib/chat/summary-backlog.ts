import "server-only";
import { randomUUID } from "node:crypto";
import { setImmediate as nextLoopTurn } from "node:timers/promises";
import { recordSummaryFailure } from "@/lib/db/admin-audit";
import { db } from "@/lib/db/client";
import {
  type BacklogProgress,
  finishBacklog,
  getSessionForBacklog,
  listBacklogMessages,
  releaseBacklogLease,
  saveBacklogProgress,
  takeBacklogLease,
} from "@/lib/db/summary-backlog";
import { type TreeNode, walkUp } from "@/lib/db/tree";
import { env } from "@/lib/env";
import { getModel } from "@/lib/llm";
import { summarizeWithModel } from "@/lib/llm/summarize";
import type { MemoryItem, SummaryMeta } from "@/lib/memory";
import { historyOf } from "./items";
import { loadMemory } from "./memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "./memory-config";
import { errorText } from "./stream-answer";

// The summary backlog (issue 24): under the summary policy, the history before the window that no summary covers
// (an imported or long conversation switched to summary) is summarized from its start, off any turn's path, one
// bounded segment at a time — the previous rolling summary plus the next messages of the active path after the
// clear-memory boundary. Progress is a row of its own (SummaryBacklog) under a lease, so a run resumes where the
// last one stopped and two never write at once. Only when it reaches the window does it replace the snapshot's
// summaries, fenced by the snapshot's version; a newer clear or a path that no longer passes through its last
// message makes the progress stale, and it starts again.

export type BacklogStatus = "done" | "idle" | "busy" | "partial" | "failed";

export interface BacklogRun {
  status: BacklogStatus;
  segments: number;
  /** The last message the rolling summary covers (0: none yet). */
  throughSeq: number;
}

const LEASE_SECONDS = 120;
const FRESH: Omit<BacklogProgress, "startSeq"> = {
  fromSeq: 0,
  throughSeq: 0,
  throughId: null,
  messages: 0,
  text: "",
};

const isSummary = (item: MemoryItem) => item.summary === true;

/** Whether a turn's memory shows history older than the window that no summary reaches (cheap, no read). */
function backlogLags(items: readonly MemoryItem[], startSeq: number): boolean {
  const summaries = items.filter((item) => isSummary(item) && item.summaryMeta);
  if (summaries.length > 0)
    return Math.min(...summaries.map((s) => s.summaryMeta?.fromSeq ?? 0)) > startSeq + 1;
  const seqs = items.flatMap((item) => (item.seq === undefined ? [] : [item.seq]));
  return seqs.length > 0 && Math.min(...seqs) > startSeq + 1;
}

const running = new Map<string, Promise<void>>();

/**
 * Starts the backlog of a conversation in the background unless one runs here already; after a turn, only when
 * its memory shows a lag (`items` and `startSeq` given) and the policy summarizes.
 */
export function scheduleSummaryBacklog({
  sessionId,
  lag,
  config,
}: {
  sessionId: string;
  lag?: { items: readonly MemoryItem[]; startSeq: number };
  config?: MemoryConfig;
}): void {
  if (config && (!config.settings.enabled || config.settings.policy !== "summary")) return;
  if (lag && !backlogLags(lag.items, lag.startSeq)) return;
  if (running.has(sessionId)) return;
  const job = runSummaryBacklog({ sessionId })
    .then(() => undefined)
    .catch((e: unknown) => console.error(`[memory] summary backlog of ${sessionId} failed: ${errorText(e)}`))
    .finally(() => running.delete(sessionId));
  running.set(sessionId, job);
}

/** Resolves once every backlog this process started has finished (tests, graceful shutdown). */
export async function summaryBacklogsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

/**
 * Runs the backlog of one conversation: segments of at most `segmentMessages` messages and `segmentTokens`
 * tokens, `maxSegments` at most (a run may be cut short and resumed), then the snapshot's summary is replaced by
 * one covering everything from the first message after the clear boundary up to the window.
 */
export async function runSummaryBacklog({
  sessionId,
  maxSegments = Number.POSITIVE_INFINITY,
  segmentMessages = env.SUMMARY_BACKLOG_SEGMENT_MESSAGES,
  segmentTokens = env.SUMMARY_BACKLOG_SEGMENT_TOKENS,
}: {
  sessionId: string;
  maxSegments?: number;
  segmentMessages?: number;
  segmentTokens?: number;
}): Promise<BacklogRun> {
  const first = await getSessionForBacklog({ sessionId });
  if (!first?.activeLeafId) return { status: "idle", segments: 0, throughSeq: 0 };
  const firstConfig = memoryConfig(storedMemorySettings(first.memorySettings));
  if (!firstConfig.settings.enabled || firstConfig.settings.policy !== "summary")
    return { status: "idle", segments: 0, throughSeq: 0 };
  const leaseId = randomUUID();
  const taken = await takeBacklogLease({
    sessionId,
    leaseId,
    startSeq: first.memoryStartSeq,
    leaseSeconds: LEASE_SECONDS,
  });
  if (!taken) return { status: "busy", segments: 0, throughSeq: 0 };
  let state: BacklogProgress = taken;
  let segments = 0;
  let known: Known | null = null;
  const model = getModel();
  const save = async (next: BacklogProgress) => {
    const ok = await saveBacklogProgress({
      sessionId,
      leaseId,
      leaseSeconds: LEASE_SECONDS,
      expectedThroughSeq: state.throughSeq,
      next,
    });
    if (ok) state = next;
    return ok;
  };
  try {
    for (let round = 0; round < 10_000; round++) {
      // SQLite's driver is synchronous and the demo model answers at once: without this, a 100 000-message
      // backlog is one unbroken chain of promises that keeps the server from reading any request until it ends.
      if (round > 0) await nextLoopTurn();
      const session = await getSessionForBacklog({ sessionId });
      if (!session?.activeLeafId) return { status: "idle", segments, throughSeq: state.throughSeq };
      const config = memoryConfig(storedMemorySettings(session.memorySettings));
      if (!config.settings.enabled || config.settings.policy !== "summary")
        return { status: "idle", segments, throughSeq: state.throughSeq };
      const startSeq = session.memoryStartSeq;
      const leaf = { id: session.activeLeafId, seq: session.activeLeafSeq };
      if (state.startSeq !== startSeq && !(await save({ startSeq, ...FRESH })))
        return { status: "busy", segments, throughSeq: state.throughSeq };
      let nodes = await uncovered(sessionId, leaf, Math.max(startSeq, state.throughSeq), known);
      // The path no longer passes through the last message covered (an edit, a branch switch): start again.
      if (state.throughId !== null && (nodes[0]?.parentId ?? leaf.id) !== state.throughId) {
        if (!(await save({ startSeq, ...FRESH }))) return { status: "busy", segments, throughSeq: 0 };
        nodes = await pathAfter(sessionId, leaf, startSeq);
      }
      known = { leaf, nodes };
      const memory = await loadMemory(db, { sessionId, leaf, startSeq, config });
      const seqs = memory.items.flatMap((item) =>
        isSummary(item) || item.seq === undefined ? [] : [item.seq],
      );
      const windowStart = seqs.length > 0 ? Math.min(...seqs) : leaf.seq + 1;
      const pending = nodes.slice(0, countBelow(nodes, windowStart));
      if (state.throughId === null && coveredAlready(memory.items, pending))
        return finishWithout(sessionId, leaseId, segments);
      if (pending.length === 0) {
        if (state.throughId === null) return finishWithout(sessionId, leaseId, segments);
        const items = [
          summaryItem(state, memory.items, model.model),
          ...memory.items.filter((i) => !isSummary(i)),
        ];
        const written = await finishBacklog({
          sessionId,
          leaseId,
          version: memory.version,
          snapshot: { items, policy: config.policy.id, throughSeq: leaf.seq },
        });
        if (written) return { status: "done", segments, throughSeq: state.throughSeq };
        continue; // a turn or a summary moved the snapshot meanwhile: look again
      }
      if (segments >= maxSegments) return { status: "partial", segments, throughSeq: state.throughSeq };
      const segment = await segmentOf(sessionId, pending, config, segmentMessages, segmentTokens);
      let text = "";
      try {
        text = await summarizeWithModel(
          state.text ? { previous: state.text, messages: segment.items } : { messages: segment.items },
          undefined,
          model,
        );
      } catch (e) {
        console.warn(`[memory] summary backlog segment of ${sessionId} failed: ${errorText(e)}`);
      }
      if (text.trim() === "") {
        await recordSummaryFailure({ sessionId, status: "failed", messages: segment.items.length });
        return { status: "failed", segments, throughSeq: state.throughSeq };
      }
      const last = segment.nodes.at(-1) as TreeNode;
      const next: BacklogProgress = {
        startSeq,
        fromSeq: state.throughId === null ? (segment.nodes[0] as TreeNode).seq : state.fromSeq,
        throughSeq: last.seq,
        throughId: last.id,
        messages: state.messages + segment.nodes.length,
        text: text.trim(),
      };
      if (!(await save(next))) return { status: "busy", segments, throughSeq: state.throughSeq };
      segments++;
    }
    return { status: "partial", segments, throughSeq: state.throughSeq };
  } finally {
    await releaseBacklogLease({ sessionId, leaseId });
  }
}

/** The active path after `afterSeq`, oldest first (ids only: one recursive walk up from the leaf). */
async function pathAfter(sessionId: string, leaf: { id: string; seq: number }, afterSeq: number) {
  const nodes = await walkUp({
    sessionId,
    fromId: leaf.id,
    afterSeq,
    take: Math.max(0, leaf.seq - afterSeq),
  });
  return nodes.reverse();
}

interface Known {
  leaf: { id: string; seq: number };
  /** The path after the covered end up to `leaf`, oldest first. */
  nodes: TreeNode[];
}

/**
 * The path after `afterSeq`, reusing what the previous round walked: only the messages added below its leaf are
 * read when the path still runs through it, so a run walks the conversation once, not once per segment.
 */
async function uncovered(
  sessionId: string,
  leaf: { id: string; seq: number },
  afterSeq: number,
  known: Known | null,
): Promise<TreeNode[]> {
  if (!known) return pathAfter(sessionId, leaf, afterSeq);
  const rest = known.nodes.slice(countBelow(known.nodes, afterSeq + 1));
  if (leaf.id === known.leaf.id) return rest;
  const added = await pathAfter(sessionId, leaf, known.leaf.seq);
  if ((added[0]?.parentId ?? null) !== known.leaf.id) return pathAfter(sessionId, leaf, afterSeq);
  return [...rest, ...added];
}

/**
 * How many of `nodes` (a path, oldest first, so seqs rise) come before `seq`: a binary search, where a filter on
 * every segment would make a 100 000-message backlog quadratic.
 */
function countBelow(nodes: readonly TreeNode[], seq: number): number {
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((nodes[mid] as TreeNode).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the snapshot's summaries already reach from the first pending message to the window. */
function coveredAlready(items: readonly MemoryItem[], pending: readonly TreeNode[]): boolean {
  const first = pending[0];
  const last = pending.at(-1);
  if (!first || !last) return true;
  return items.some(
    (item) =>
      item.summaryMeta !== undefined &&
      item.summaryMeta.fromSeq <= first.seq &&
      item.summaryMeta.throughSeq >= last.seq,
  );
}

async function finishWithout(sessionId: string, leaseId: string, segments: number): Promise<BacklogRun> {
  await releaseBacklogLease({ sessionId, leaseId });
  return { status: "done", segments, throughSeq: 0 };
}

/** The rolling summary as the snapshot's one summary item, with its covered range. */
function summaryItem(state: BacklogProgress, items: readonly MemoryItem[], model: string): MemoryItem {
  const versions = items.flatMap((item) => (item.summaryMeta ? [item.summaryMeta.version] : []));
  const meta: SummaryMeta = {
    fromSeq: state.fromSeq,
    throughSeq: state.throughSeq,
    messages: state.messages,
    version: Math.max(0, ...versions) + 1,
    model,
    createdAt: new Date().toISOString(),
  };
  return { role: "system", text: state.text, summary: true, summaryMeta: meta };
}

/** The next segment: the oldest pending messages, at most `maxMessages` and `maxTokens` (one at least). */
async function segmentOf(
  sessionId: string,
  pending: readonly TreeNode[],
  config: MemoryConfig,
  maxMessages: number,
  maxTokens: number,
) {
  const head = pending.slice(0, maxMessages);
  const rows = await listBacklogMessages({ sessionId, ids: head.map((node) => node.id) });
  const items: MemoryItem[] = [];
  let tokens = 0;
  for (const { item } of historyOf(rows)) {
    const cost = config.tokenizer.countItem(item);
    if (items.length > 0 && tokens + cost > maxTokens) break;
    items.push(item);
    tokens += cost;
  }
  return { items, nodes: head.slice(0, items.length) };
}
