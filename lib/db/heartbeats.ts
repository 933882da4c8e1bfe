import "server-only";
import { Prisma } from "@/lib/generated/sqlite/client";
import { db, type TxOption } from "./client";

// The writes of the streaming answers' heartbeat (lib/chat/heartbeats.ts), batched: every answer streaming in this
// process is kept alive by the same two statements per beat, whatever their number — not two statements each.

export interface HeldLease {
  sessionId: string;
  leaseId: string;
}

/** Rows per statement: far below SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export const leaseKey = (lease: HeldLease) => `${lease.sessionId} ${lease.leaseId}`;

/**
 * Extends every lease in `leases` that is still held by the turn that took it, to now + `leaseSeconds`, in one
 * UPDATE (per 500). Returns the keys (`leaseKey`) of the leases renewed; a lease missing from it was taken over or
 * its session deleted. Lease ids are random per turn, so a session matched by id whose lease id is in the list
 * holds its own turn's lease: the pairs read back say which.
 */
export async function renewLeases(
  { leases, leaseSeconds }: { leases: readonly HeldLease[]; leaseSeconds: number },
  { tx = db }: TxOption = {},
): Promise<Set<string>> {
  const renewed = new Set<string>();
  const until = new Date(Date.now() + leaseSeconds * 1000);
  for (const part of chunks(leases)) {
    const rows = await tx.chatSession.updateManyAndReturn({
      where: { id: { in: part.map((l) => l.sessionId) }, leaseId: { in: part.map((l) => l.leaseId) } },
      data: { leaseUntil: until },
      select: { id: true, leaseId: true },
    });
    for (const row of rows)
      if (row.leaseId) renewed.add(leaseKey({ sessionId: row.id, leaseId: row.leaseId }));
  }
  return renewed;
}

/**
 * Saves the text written so far of answers that are still streaming, in one UPDATE (per 500): a crash keeps what
 * the users already saw. An answer that was committed meanwhile is left alone.
 */
export async function saveAnswerDrafts(
  { drafts }: { drafts: readonly { answerId: string; text: string }[] },
  { tx = db }: TxOption = {},
): Promise<void> {
  for (const part of chunks(drafts)) {
    const texts = part.map((d) => Prisma.sql`WHEN ${d.answerId} THEN ${d.text}`);
    const ids = part.map((d) => d.answerId);
    await tx.$executeRaw`
      UPDATE "ChatMessage" SET "text" = CASE "id" ${Prisma.join(texts, " ")} END
      WHERE "id" IN (${Prisma.join(ids)}) AND "status" = 'streaming'`;
  }
}
