import "server-only";
import { takeIdleSession } from "@/lib/db/sessions";
import { putSnapshot } from "@/lib/db/snapshots";
import { withTransaction } from "@/lib/db/transaction";
import { newestLeafUnder, setActiveLeaf } from "@/lib/db/tree";
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
  return withTransaction(async (tx) => {
    const session = await takeIdleSession(
      {
        sessionId,
        userId,
        busyMessage: "An answer is still being written. Switch versions when it is done.",
      },
      { tx },
    );
    const leaf = await newestLeafUnder({ sessionId, messageId }, { tx });
    if (!leaf) throw new AppError("not_found", "No such message in this conversation.");
    if (leaf.id === session.activeLeafId) return leaf;
    await setActiveLeaf({ sessionId, leaf }, { tx });
    const config = memoryConfig(storedMemorySettings(session.memorySettings));
    const memory = await loadMemory(tx, { sessionId, leaf, startSeq: session.memoryStartSeq, config });
    if (memory.rebuilt) {
      await putSnapshot(
        { sessionId, items: memory.items, policy: config.policy.id, throughSeq: leaf.seq },
        { tx },
      );
    }
    return leaf;
  });
}
