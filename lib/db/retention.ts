import "server-only";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { databaseKind, db } from "./client";
import { deleteExpiredFacts } from "./fact-history";
import { type DeletedRows, noDeletedRows } from "./receipts";
import { type DeletionReceipt, unsafeDeleteSessionById } from "./sessions";
import { withTransaction } from "./transaction";

// HISTORY_RETENTION_DAYS: conversations idle longer than that are deleted exactly like a manual delete (cascade,
// receipt, audit entry), with the system as actor. See docs/decisions/012-retention.md.

/** Most sessions one round deletes; the next round continues where it stopped. */
const RETENTION_BATCH = 500;
/**
 * The PostgreSQL advisory lock key of a retention round (any constant no other feature uses).
 * @public (the retention tests hold it to simulate another instance)
 */
export const RETENTION_LOCK_KEY = 1_012_026;
const PAGE_SIZE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
// The PostgreSQL round holds its lock in a transaction that stays open (idle, no row locks) while the deletes run
// in their own transactions. Past this, Prisma ends that transaction and its lock; another instance may then start
// a round, which is harmless: each delete is conditional and a session already gone is skipped.
const ROUND_TIMEOUT_MS = 30 * 60 * 1000;

export interface RetentionRound {
  /** off: no HISTORY_RETENTION_DAYS; skipped: another instance is running a round; done: this one ran it. */
  status: "off" | "skipped" | "done";
  /** Sessions last updated before this were idle. */
  cutoff: Date | null;
  receipts: DeletionReceipt[];
  /** Rows removed per table, summed over the receipts. */
  deleted: DeletedRows;
  /** Idle, but a turn holds a live lease: left for a later round. */
  skippedLive: number;
  /** Deleted by someone else, or used again, between the read and the delete. */
  skippedGone: number;
  /** The round stopped at RETENTION_BATCH; more idle sessions may remain. */
  more: boolean;
  /** Long-term facts past their expiresAt, deleted with their history. */
  expiredFacts: number;
}

/**
 * One retention round: pages through the sessions last updated before now − `days` on the (updatedAt, id)
 * index, oldest first, and deletes them one transaction each (at most `limit`). On PostgreSQL only one instance
 * runs a round at a time; the others return `skipped`.
 */
export async function runRetentionRound({
  days = env.HISTORY_RETENTION_DAYS,
  now = new Date(),
  limit = RETENTION_BATCH,
}: {
  days?: number;
  now?: Date;
  limit?: number;
} = {}): Promise<RetentionRound> {
  const round: RetentionRound = {
    status: "off",
    cutoff: null,
    receipts: [],
    deleted: noDeletedRows(),
    skippedLive: 0,
    skippedGone: 0,
    more: false,
    expiredFacts: 0,
  };
  if (days === undefined) return round;
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const ran = await oneInstanceAtATime(async () => {
    round.expiredFacts = (await deleteExpiredFacts({ now })).deleted;
    await deleteIdleSessions({ round, cutoff, limit });
  });
  return ran ? { ...round, status: "done", cutoff } : { ...round, status: "skipped", cutoff };
}

async function oneInstanceAtATime(work: () => Promise<void>): Promise<boolean> {
  // SQLite is one machine: its write lock serializes the deletes, and a session already gone is skipped.
  if (databaseKind(env.DATABASE_URL) === "sqlite") {
    await work();
    return true;
  }
  return withTransaction(
    async (tx) => {
      // This transaction only holds the lock while the round works on other connections: idle by design.
      await tx.$executeRaw`SET LOCAL idle_in_transaction_session_timeout = 0`;
      const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}::bigint) AS locked`;
      if (!row?.locked) return false;
      await work();
      return true;
    },
    { timeout: ROUND_TIMEOUT_MS, maxWait: 10_000 },
  );
}

async function deleteIdleSessions({
  round,
  cutoff,
  limit,
}: {
  round: RetentionRound;
  cutoff: Date;
  limit: number;
}): Promise<void> {
  let after: { updatedAt: Date; id: string } | undefined;
  let attempts = 0;
  for (;;) {
    // Oldest first on the (updatedAt, id) index; `after` skips what this round already passed over (live leases).
    const page = await db.chatSession.findMany({
      where: {
        updatedAt: { lt: cutoff },
        ...(after && {
          AND: [
            { updatedAt: { gte: after.updatedAt } },
            { OR: [{ updatedAt: { gt: after.updatedAt } }, { id: { gt: after.id } }] },
          ],
        }),
      },
      orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
      take: PAGE_SIZE,
      select: { id: true, updatedAt: true, leaseUntil: true },
    });
    for (const session of page) {
      after = session;
      if (session.leaseUntil && session.leaseUntil > new Date()) {
        round.skippedLive++;
        continue;
      }
      if (attempts === limit) {
        round.more = true;
        return;
      }
      attempts++;
      try {
        const receipt = await unsafeDeleteSessionById({
          sessionId: session.id,
          actorId: null,
          reason: "retention",
          onlyIfIdleBefore: cutoff,
        });
        round.receipts.push(receipt);
        for (const table of Object.keys(round.deleted) as (keyof DeletedRows)[])
          round.deleted[table] += receipt.deleted[table];
      } catch (e) {
        if (!(isAppError(e) && e.code === "not_found")) throw e;
        round.skippedGone++;
      }
    }
    if (page.length < PAGE_SIZE) return;
  }
}

/** The one log line of a round: what it removed and what it left. */
export function describeRetentionRound(round: RetentionRound): string {
  if (round.status === "off") return "retention: off (HISTORY_RETENTION_DAYS is not set); nothing deleted";
  const since = round.cutoff?.toISOString();
  if (round.status === "skipped")
    return `retention: skipped, another instance is running a round (idle before ${since})`;
  const d = round.deleted;
  return (
    `retention: deleted ${d.ChatSession} session(s) idle since before ${since} ` +
    `(ChatMessage ${d.ChatMessage}, MemorySnapshot ${d.MemorySnapshot}, TurnContext ${d.TurnContext}); ` +
    `skipped ${round.skippedLive} with a turn in progress, ${round.skippedGone} gone or used meanwhile; ` +
    `${round.expiredFacts} expired memories deleted` +
    (round.more ? "; stopped at the per-round limit, the next round continues" : "")
  );
}
