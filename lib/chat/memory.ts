import "server-only";
import type { Db, Tx } from "@/lib/db/client";
import { getSnapshotBySessionId } from "@/lib/db/snapshots";
import { getPathTail } from "@/lib/db/tree";
import {
  isSnapshotCurrent,
  MemoryFormatError,
  type MemoryItem,
  rebuildFromTail,
  restore,
  summariesOnPath,
} from "@/lib/memory";
import { historyOf } from "./items";
import type { MemoryConfig } from "./memory-config";

type SnapshotRow = Awaited<ReturnType<typeof getSnapshotBySessionId>>;

/**
 * The memory a turn starts from, for a history whose path ends at `leaf` (the new question's parent; null: the
 * question is a root): the one snapshot row when the policy in force made it for exactly that message, otherwise a
 * rebuild from an indexed walk up that path after the memory start boundary (never the whole conversation),
 * keeping the summaries of the old snapshot that cover this path too. A snapshot that does not parse is rebuilt:
 * history is the source of truth. Turns, branch switches and the admin's "next turn" view all decide through
 * here. Pass `snapshot` when the row has been read already.
 */
export async function loadMemory(
  client: Tx | Db,
  {
    sessionId,
    leaf,
    startSeq,
    config,
    snapshot,
  }: {
    sessionId: string;
    leaf: { id: string; seq: number } | null;
    startSeq: number;
    config: MemoryConfig;
    snapshot?: SnapshotRow;
  },
): Promise<{ items: MemoryItem[]; rebuilt: boolean; version: number | null }> {
  const snap =
    snapshot === undefined ? await getSnapshotBySessionId({ sessionId }, { tx: client }) : snapshot;
  const throughSeq = leaf?.seq ?? 0;
  let stored: MemoryItem[] = [];
  if (snap) {
    try {
      stored = restore(snap.items);
      if (isSnapshotCurrent(snap, { policyId: config.policy.id, throughSeq })) {
        return { items: stored, rebuilt: false, version: snap.version };
      }
    } catch (e) {
      if (!(e instanceof MemoryFormatError)) throw e;
      console.warn(`[memory] snapshot of session ${sessionId} does not parse, rebuilding: ${e.message}`);
    }
  }
  const tail = leaf
    ? historyOf(
        await getPathTail(
          { sessionId, leafId: leaf.id, afterSeq: startSeq, take: config.tailRows },
          { tx: client },
        ),
      )
    : [];
  const carried = snap ? summariesOnPath(stored, { snapshotThroughSeq: snap.throughSeq, tail }) : [];
  const items = rebuildFromTail(tail, config.policy, { startSeq, carried });
  return { items, rebuilt: true, version: snap?.version ?? null };
}
