import "server-only";
import type { MemoryItem } from "@/lib/memory";
import { db, type TxOption } from "./client";
import { isUniqueViolation } from "./errors";
import { withTransaction } from "./transaction";

// The summary backlog's progress (SummaryBacklog, lib/chat/summary-backlog.ts): one row per conversation, taken
// by one job at a time with a lease like the turn's (leases.ts); every write is fenced by that lease. Internal:
// called by the background job only, never with a user's input, so not scoped by a user.

const progress = {
  startSeq: true,
  fromSeq: true,
  throughSeq: true,
  throughId: true,
  messages: true,
  text: true,
} as const;

export type BacklogProgress = {
  startSeq: number;
  fromSeq: number;
  throughSeq: number;
  throughId: string | null;
  messages: number;
  text: string;
};

/** The session as the backlog reads it (null: deleted). */
export async function getSessionForBacklog({ sessionId }: { sessionId: string }, { tx = db }: TxOption = {}) {
  return tx.chatSession.findUnique({
    where: { id: sessionId },
    select: { memorySettings: true, memoryStartSeq: true, activeLeafId: true, activeLeafSeq: true },
  });
}

/** Takes the backlog's lease (creating its row); null while another job holds a live one. */
export async function takeBacklogLease({
  sessionId,
  leaseId,
  startSeq,
  leaseSeconds,
}: {
  sessionId: string;
  leaseId: string;
  startSeq: number;
  leaseSeconds: number;
}): Promise<BacklogProgress | null> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseSeconds * 1000);
  try {
    await db.summaryBacklog.create({ data: { sessionId, startSeq }, select: { sessionId: true } });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
  const [row] = await db.summaryBacklog.updateManyAndReturn({
    where: { sessionId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseId, leaseUntil },
    select: progress,
  });
  return row ?? null;
}

/** Writes one segment's progress if the lease is still this job's and nobody advanced it meanwhile. */
export async function saveBacklogProgress({
  sessionId,
  leaseId,
  leaseSeconds,
  expectedThroughSeq,
  next,
}: {
  sessionId: string;
  leaseId: string;
  leaseSeconds: number;
  expectedThroughSeq: number;
  next: BacklogProgress;
}): Promise<boolean> {
  const { count } = await db.summaryBacklog.updateMany({
    where: { sessionId, leaseId, throughSeq: expectedThroughSeq },
    data: { ...next, leaseUntil: new Date(Date.now() + leaseSeconds * 1000) },
  });
  return count === 1;
}

/** Gives the lease back (the progress stays for the next run). */
export async function releaseBacklogLease({ sessionId, leaseId }: { sessionId: string; leaseId: string }) {
  await db.summaryBacklog.updateMany({
    where: { sessionId, leaseId },
    data: { leaseId: null, leaseUntil: null },
  });
}

/** The path messages a segment is made of, by id, oldest first. */
export async function listBacklogMessages({ sessionId, ids }: { sessionId: string; ids: string[] }) {
  // By primary key alone: given the session too, SQLite reads the whole conversation through its (sessionId, seq)
  // index for every segment (100 000 rows for 200, at 100 000 messages) rather than look the ids up.
  const rows = await db.chatMessage.findMany({
    where: { id: { in: ids } },
    select: {
      sessionId: true,
      seq: true,
      role: true,
      text: true,
      parts: true,
      toolCallId: true,
      status: true,
    },
    orderBy: { seq: "asc" },
  });
  return rows.flatMap(({ sessionId: of, ...r }) =>
    of === sessionId ? [{ ...r, role: r.role as MemoryItem["role"] }] : [],
  );
}

/**
 * Ends the backlog in one transaction: while its lease is still this job's, replaces the snapshot's items when it
 * is still `version` (null: there is none yet) and drops the backlog row. False, writing nothing, otherwise.
 */
export async function finishBacklog({
  sessionId,
  leaseId,
  version,
  snapshot,
}: {
  sessionId: string;
  leaseId: string;
  version: number | null;
  snapshot: { items: MemoryItem[]; policy: string; throughSeq: number };
}): Promise<boolean> {
  try {
    return await withTransaction(async (tx) => {
      const { count } = await tx.summaryBacklog.deleteMany({ where: { sessionId, leaseId } });
      if (count === 0) return false;
      const data = {
        items: snapshot.items as object[],
        policy: snapshot.policy,
        throughSeq: snapshot.throughSeq,
      };
      if (version === null) {
        await tx.memorySnapshot.create({ data: { sessionId, ...data }, select: { sessionId: true } });
        return true;
      }
      const replaced = await tx.memorySnapshot.updateMany({
        where: { sessionId, version },
        data: { ...data, version: { increment: 1 } },
      });
      if (replaced.count === 0) throw new Moved();
      return true;
    });
  } catch (e) {
    if (e instanceof Moved || isUniqueViolation(e)) return false;
    throw e;
  }
}

class Moved extends Error {}
