import "server-only";
import { takeIdleSession } from "@/lib/db/sessions";
import { newestLeafUnder, setActiveLeaf } from "@/lib/db/tree";
import { inTransaction, putSnapshot } from "@/lib/db/turns";
import { AppError } from "@/lib/errors";
import { loadMemory } from "./memory";
import { memoryConfig, storedMemorySettings } from "./memory-config";

/**
 * Moves a conversation to another branch: the active leaf becomes the newest leaf at or below
 * `messageId`, and the snapshot becomes that leaf's memory — rebuilt from a walk up its path bounded by the window
 * (2 × window + 2 rows at most), keeping only the summaries that cover this path. Refused while an answer is being
 * written; an expired lease is taken away, so a stalled turn that wakes up cannot commit onto the old branch.
 */
export async function switchBranch({
  sessionId,
  userId,
  messageId,
}: {
  sessionId: string;
  userId: string;
  messageId: string;
}): Promise<{ id: string; seq: number }> {
  return inTransaction(async (tx) => {
    const session = await takeIdleSession(tx, {
      sessionId,
      userId,
      busyMessage: "An answer is still being written. Switch versions when it is done.",
    });
    const leaf = await newestLeafUnder(tx, { sessionId, messageId });
    if (!leaf) throw new AppError("not_found", "No such message in this conversation.");
    if (leaf.id === session.activeLeafId) return leaf;
    await setActiveLeaf(tx, { sessionId, leaf });
    const config = memoryConfig(storedMemorySettings(session.memorySettings));
    const memory = await loadMemory(tx, { sessionId, leaf, startSeq: session.memoryStartSeq, config });
    if (memory.rebuilt) {
      await putSnapshot(tx, {
        sessionId,
        items: memory.items,
        policy: config.policy.id,
        throughSeq: leaf.seq,
      });
    }
    return leaf;
  });
}
