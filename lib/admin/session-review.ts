import "server-only";
import { loadMemory } from "@/lib/chat/memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "@/lib/chat/memory-config";
import { getSessionReviewPage } from "@/lib/db/admin-review";
import { db } from "@/lib/db/client";
import { isSnapshotCurrent, MemoryFormatError, type MemoryItem, restore } from "@/lib/memory";

export interface AdminSnapshot {
  items: MemoryItem[];
  policy: string;
  throughSeq: number;
  version: number;
  updatedAt: Date;
  /**
   * Whether the next turn uses these items as they are: made by the policy in force and covering the whole
   * history. Otherwise the next turn rebuilds memory from the history tail (and `nextContextSeqs` says how).
   */
  current: boolean;
  /** Set when the stored items do not parse; the next turn rebuilds from the history instead. */
  error?: string;
}

/**
 * One page of a session's history — every branch, each message marked with its place in the tree (active path,
 * parent, branch point; lib/db/admin-review.ts) — beside its memory: the stored snapshot, the conversation's memory
 * settings, and the history seqs the model would be sent on the next turn — decided by `loadMemory`, exactly as a
 * turn decides. `pathFrom` is the previous page's `pathNext`. `config` overrides the conversation's own settings
 * (tests).
 */
export async function getSessionReview({
  sessionId,
  beforeSeq,
  limit,
  pathFrom,
  config: override,
}: {
  sessionId: string;
  beforeSeq?: number;
  limit: number;
  pathFrom?: string | null;
  config?: Pick<MemoryConfig, "policy" | "tailRows">;
}) {
  const review = await getSessionReviewPage({ sessionId, beforeSeq, limit, pathFrom });
  const resolved = memoryConfig(storedMemorySettings(review.memorySettings));
  const config = { ...resolved, ...override };
  // Memory follows the active path: the snapshot is the active leaf's.
  const leaf = review.session.activeLeaf;
  const throughSeq = leaf?.seq ?? 0;
  let snapshot: AdminSnapshot | null = null;
  if (review.snapshot) {
    const { items, ...header } = review.snapshot;
    snapshot = { ...header, items: [], current: false };
    try {
      snapshot.items = restore(items);
      snapshot.current = isSnapshotCurrent(header, { policyId: config.policy.id, throughSeq });
    } catch (e) {
      if (!(e instanceof MemoryFormatError)) throw e;
      snapshot.error = e.message;
    }
  }
  const memory = await loadMemory(db, {
    sessionId,
    leaf,
    startSeq: review.memoryStartSeq,
    config: config as MemoryConfig,
    snapshot: review.snapshot,
  });
  return {
    session: review.session,
    messages: review.messages,
    hasMore: review.hasMore,
    pathNext: review.pathNext,
    snapshot,
    policy: config.policy.id,
    settings: resolved.settings,
    memoryStartSeq: review.memoryStartSeq,
    nextContextSeqs: memory.items.flatMap((item) => (item.seq === undefined ? [] : [item.seq])),
  };
}
