import "server-only";
import { AppError } from "@/lib/errors";
import type { FactChange, FactChangeBy } from "@/lib/memory/fact-history";
import { checkpointed } from "./checkpoint";
import { db, type Tx, type TxOption } from "./client";
import { withTransaction } from "./transaction";

// Versions of long-term facts (MemoryFactVersion) and their expiry. Each change to a fact is a version row written in
// the transaction that changes the fact; the history goes with the fact (ON DELETE CASCADE).

export interface FactVersionInput {
  factId: string;
  /** The fact's text after the change (for `replaced`: the text of the fact that replaced it). */
  text: string;
  change: FactChange;
  by: FactChangeBy;
  /** The message the change came from; null for a change made on /memory. */
  sourceMessageId: string | null;
  changedAt?: Date;
}

/** Stores one version of a fact. Call it inside the transaction that makes the change. */
export async function recordFactVersion(tx: Tx, version: FactVersionInput): Promise<void> {
  await tx.memoryFactVersion.create({
    data: {
      factId: version.factId,
      text: version.text,
      change: version.change,
      by: version.by,
      sourceMessageId: version.sourceMessageId,
      changedAt: version.changedAt ?? new Date(),
    },
  });
}

/** Not expired at `now`: the condition every read of active facts adds. */
export const notExpired = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

const factNotFound = () => new AppError("not_found", "This memory does not exist or is not yours.");

export interface FactVersion {
  text: string;
  changedAt: Date;
  change: FactChange;
  by: FactChangeBy;
  sourceMessageId: string | null;
}

/** One of the user's facts with its history, oldest version first; someone else's fact is a 404. */
export async function getFactWithHistoryForUser(
  { userId, factId }: { userId: string; factId: string },
  { tx = db }: TxOption = {},
) {
  const row = await tx.memoryFact.findFirst({
    where: { id: factId, userId },
    select: {
      id: true,
      text: true,
      sourceSessionId: true,
      sourceMessageId: true,
      supersededById: true,
      createdAt: true,
      updatedAt: true,
      expiresAt: true,
      sourceSession: { select: { title: true } },
      versions: {
        orderBy: [{ changedAt: "asc" }, { id: "asc" }],
        select: { text: true, changedAt: true, change: true, by: true, sourceMessageId: true },
      },
    },
  });
  if (!row) throw factNotFound();
  const { sourceSession, versions, ...fact } = row;
  return {
    ...fact,
    sourceSessionTitle: sourceSession?.title ?? null,
    history: versions as FactVersion[],
  };
}

/**
 * The retention job's part: deletes every fact expired at `now` (its history with it), at most `limit`, with one
 * audit entry per user and the count (never the text).
 */
export async function deleteExpiredFacts({
  now = new Date(),
  limit = 1000,
}: {
  now?: Date;
  limit?: number;
} = {}) {
  const result = await withTransaction(async (tx) => {
    const expired = await tx.memoryFact.findMany({
      where: { expiresAt: { lte: now } },
      select: { id: true, userId: true },
      take: limit,
    });
    if (expired.length === 0) return { deleted: 0 };
    // A fact it had replaced comes back into use only if it has not expired itself (SET NULL on supersededById).
    const { count } = await tx.memoryFact.deleteMany({ where: { id: { in: expired.map((f) => f.id) } } });
    const perUser = new Map<string, number>();
    for (const f of expired) perUser.set(f.userId, (perUser.get(f.userId) ?? 0) + 1);
    for (const [userId, n] of perUser) {
      await tx.auditLog.create({
        data: {
          actorId: null,
          action: "memory.expire",
          targetType: "User",
          targetId: userId,
          details: { MemoryFact: n },
        },
      });
    }
    return { deleted: count };
  });
  return checkpointed(result);
}
