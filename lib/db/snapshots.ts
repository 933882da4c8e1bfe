import "server-only";
import type { MemoryItem } from "@/lib/memory";
import { db, type TxOption } from "./client";
import { asJson, asNumber, queryRows } from "./sql";

// The conversation's one memory snapshot (MemorySnapshot): items as stored, the policy and the message they were
// made for, and a version that every write moves on, so a writer that read an older one can tell. Which snapshot
// can be trusted is decided by lib/memory; the turn's commit writes it fenced by the lease (leases.ts).

/** The session's one memory snapshot row, items not yet parsed. */
export async function getSnapshotBySessionId(
  { sessionId }: { sessionId: string },
  { tx = db }: TxOption = {},
) {
  // Written out (sql.ts): every turn reads it.
  const [row] = await queryRows(
    tx,
    `SELECT "items", "policy", "throughSeq", "version" FROM "MemorySnapshot" WHERE "sessionId" = ?`,
    [sessionId],
  );
  return row
    ? {
        items: asJson(row.items),
        policy: String(row.policy),
        throughSeq: asNumber(row.throughSeq),
        version: asNumber(row.version),
      }
    : null;
}

/** Writes the snapshot whatever it was (a branch switch, a memory clear): a new version, so a racing summary drops. */
export async function putSnapshot(
  {
    sessionId,
    items,
    policy,
    throughSeq,
  }: { sessionId: string; items: MemoryItem[]; policy: string; throughSeq: number },
  { tx = db }: TxOption = {},
) {
  const data = { items: items as object[], policy, throughSeq };
  await tx.memorySnapshot.upsert({
    where: { sessionId },
    create: { sessionId, ...data },
    update: { ...data, version: { increment: 1 } },
    select: { sessionId: true },
  });
}

/**
 * Replaces the snapshot's items when it is still the version they were made from (a summary written off the turn's
 * path). False when a turn committed meanwhile: the summary is dropped and made again after a later turn.
 */
export async function replaceSnapshotItems(
  {
    sessionId,
    version,
    items,
  }: {
    sessionId: string;
    version: number;
    items: MemoryItem[];
  },
  { tx = db }: TxOption = {},
): Promise<boolean> {
  const { count } = await tx.memorySnapshot.updateMany({
    where: { sessionId, version },
    data: { items: items as object[], version: { increment: 1 } },
  });
  return count === 1;
}
