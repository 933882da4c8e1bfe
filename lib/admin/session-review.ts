import "server-only";
import { loadMemory } from "@/lib/chat/memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "@/lib/chat/memory-config";
import { getSessionReviewForAdmin } from "@/lib/db/admin";
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
 * One page of a session's history beside its memory: the stored snapshot, the conversation's memory settings, and
 * the history seqs the model would be sent on the next turn — decided by `loadMemory`, exactly as a turn decides.
 * `config` overrides the conversation's own settings (tests).
 */
export async function getSessionReview({
  sessionId,
  beforeSeq,
  limit,
  config: override,
}: {
  sessionId: string;
  beforeSeq?: number;
  limit: number;
  config?: Pick<MemoryConfig, "policy" | "tailRows">;
}) {
  const review = await getSessionReviewForAdmin({ sessionId, beforeSeq, limit });
  const resolved = memoryConfig(storedMemorySettings(review.memorySettings));
  const config = { ...resolved, ...override };
  const throughSeq = review.session.messageCount;
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
    throughSeq,
    startSeq: review.memoryStartSeq,
    config: config as MemoryConfig,
    snapshot: review.snapshot,
  });
  return {
    session: review.session,
    messages: review.messages,
    hasMore: review.hasMore,
    snapshot,
    policy: config.policy.id,
    settings: resolved.settings,
    memoryStartSeq: review.memoryStartSeq,
    nextContextSeqs: memory.items.flatMap((item) => (item.seq === undefined ? [] : [item.seq])),
  };
}
