import "server-only";
import type { Db, Tx } from "@/lib/db/client";
import { getHistoryTail, getSnapshotBySessionId } from "@/lib/db/turns";
import {
  isSnapshotCurrent,
  MemoryFormatError,
  type MemoryItem,
  rebuildFromTail,
  restore,
} from "@/lib/memory";
import type { MemoryConfig } from "./memory-config";

type SnapshotRow = Awaited<ReturnType<typeof getSnapshotBySessionId>>;

/**
 * The memory a turn starts from, for a history that ends at `throughSeq`: the one snapshot row when the policy in
 * force made it through exactly that seq, otherwise a rebuild from an indexed read of the history tail after the
 * memory start boundary (never the whole history), keeping the summaries the old snapshot had. A snapshot that
 * does not parse is rebuilt too: history is the source of truth. Turns and the admin's "next turn" view both
 * decide through here. Pass `snapshot` when the row has been read already.
 */
export async function loadMemory(
  client: Tx | Db,
  {
    sessionId,
    throughSeq,
    startSeq,
    config,
    snapshot,
  }: {
    sessionId: string;
    throughSeq: number;
    startSeq: number;
    config: MemoryConfig;
    snapshot?: SnapshotRow;
  },
): Promise<{ items: MemoryItem[]; rebuilt: boolean; version: number | null }> {
  const snap = snapshot === undefined ? await getSnapshotBySessionId(client, { sessionId }) : snapshot;
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
  const tail = await getHistoryTail(client, {
    sessionId,
    throughSeq,
    afterSeq: startSeq,
    take: config.tailRows,
  });
  const items = rebuildFromTail(tail, config.policy, { startSeq, carried: stored });
  return { items, rebuilt: true, version: snap?.version ?? null };
}
