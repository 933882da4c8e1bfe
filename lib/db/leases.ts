import "server-only";
import { AppError } from "@/lib/errors";
import type { MemoryItem } from "@/lib/memory";
import { db, type TxOption } from "./client";
import { isForeignKeyViolation, isRecordNotFound, isUniqueViolation } from "./errors";
import { indexMessages, type SearchDocInput } from "./search";
import { putSnapshot } from "./snapshots";
import { asJson, asNumber, execute, jsonArg, queryRows } from "./sql";
import { withTransaction } from "./transaction";

// The turn's lease on its conversation (ChatSession.leaseId/leaseUntil, docs/decisions/005): taken when a turn
// begins, kept alive by the heartbeat (heartbeats.ts), released by the commit that ends the turn. The commit and
// the salvage after a lost lease are transactions of their own — fenced by the lease, so they take no `tx`.

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");
const busy = () =>
  new AppError(
    "turn_in_progress",
    "An answer is still being written in this conversation. Wait for it or stop it.",
  );

export interface Lease {
  sessionId: string;
  leaseId: string;
  /** The session's lastSeq before this turn took the lease. */
  seqBefore: number;
  /** The conversation's stored memory settings (unparsed; null: the defaults). */
  memorySettings: unknown;
  /** Memory was cleared through this seq (0: never). */
  memoryStartSeq: number;
  /** The conversation's picked model id (null: the default). */
  model: string | null;
  /** The conversation's active leaf before this turn (null: no messages yet). */
  activeLeaf: { id: string; seq: number } | null;
}

/**
 * Takes the session's turn lease with one conditional UPDATE and reserves `seqs` message seqs. A live lease held by
 * another turn → 409; a session that is missing or not the caller's → 404. When the lease is taken over from a
 * turn that stopped renewing it (its process died), that turn's answer is marked interrupted, keeping the text it
 * had saved.
 *
 * The common case — the previous turn committed and released the lease — is one statement. Only when that finds
 * no free lease does a second UPDATE take an expired one.
 */
export async function takeLease(
  {
    sessionId,
    userId,
    leaseId,
    leaseSeconds,
    seqs,
  }: { sessionId: string; userId: string; leaseId: string; leaseSeconds: number; seqs: number },
  { tx = db }: TxOption = {},
): Promise<Lease> {
  const now = new Date();
  // Written out (sql.ts): one conditional UPDATE, on a free lease first, then on an expired one.
  const take = async (free: "IS NULL" | "< ?") => {
    const [row] = await queryRows<LeaseRow>(
      tx,
      `UPDATE "ChatSession" SET "leaseId" = ?, "leaseUntil" = ?, "lastSeq" = "lastSeq" + ?, "updatedAt" = ?
       WHERE "id" = ? AND "userId" = ? AND "leaseUntil" ${free}
       RETURNING "lastSeq", "memorySettings", "memoryStartSeq", "model", "activeLeafId", "activeLeafSeq"`,
      [
        leaseId,
        new Date(now.getTime() + leaseSeconds * 1000),
        seqs,
        now,
        sessionId,
        userId,
        ...(free === "< ?" ? [now] : []),
      ],
    );
    return (
      row && {
        lastSeq: asNumber(row.lastSeq),
        memorySettings: asJson(row.memorySettings),
        memoryStartSeq: asNumber(row.memoryStartSeq),
        model: row.model,
        activeLeafId: row.activeLeafId,
        activeLeafSeq: asNumber(row.activeLeafSeq),
      }
    );
  };
  let abandoned = false;
  let row = await take("IS NULL");
  if (!row) {
    row = await take("< ?");
    abandoned = row !== undefined;
  }
  if (!row) {
    const exists = await tx.chatSession.findFirst({ where: { id: sessionId, userId }, select: { id: true } });
    throw exists ? busy() : notFound();
  }
  const seqBefore = row.lastSeq - seqs;
  // Only a lease that was taken over can have left an answer in `streaming`: a released lease means its turn
  // committed.
  if (abandoned && seqBefore > 0) {
    await tx.chatMessage.updateMany({
      where: { sessionId, seq: seqBefore, status: "streaming" },
      data: { status: "interrupted" },
    });
  }
  return {
    sessionId,
    leaseId,
    seqBefore,
    memorySettings: row.memorySettings,
    memoryStartSeq: row.memoryStartSeq,
    model: row.model,
    activeLeaf: row.activeLeafId ? { id: row.activeLeafId, seq: row.activeLeafSeq } : null,
  };
}

interface LeaseRow extends Record<string, unknown> {
  lastSeq: unknown;
  memorySettings: unknown;
  memoryStartSeq: unknown;
  model: string | null;
  activeLeafId: string | null;
  activeLeafSeq: unknown;
}

export type TurnOutcome =
  | { status: "complete"; text: string; promptTokens?: number; completionTokens?: number }
  | { status: "failed" | "interrupted"; text: string };

/** Thrown inside the commit transaction to roll it back when the snapshot changed since the turn read it. */
class SnapshotMoved extends Error {}
/** Thrown inside the commit transaction to roll it back when the answer row is gone. */
class AnswerGone extends Error {}

export type CommitResult = "committed" | "lease_lost" | "snapshot_moved";

/**
 * Ends a turn in one transaction fenced by the lease it started with: the lease is released first, and only if it
 * is still this turn's do the answer and the replaced snapshot get written. `lease_lost`, writing nothing, when the
 * lease was taken over by a newer turn or the session was deleted meanwhile: a late commit can never overwrite a
 * newer turn, flip a status, move the snapshot back or recreate deleted data. `snapshot_moved`, writing nothing,
 * when the snapshot is no longer the version the turn started from (a summary was written meanwhile): the caller
 * folds its turn onto the new one and commits again.
 */
export async function commitTurn({
  lease,
  answerId,
  outcome,
  snapshot,
  search,
}: {
  lease: Lease;
  answerId: string;
  outcome: TurnOutcome;
  /** `baseVersion`: the snapshot version the turn's memory was read from (null: none), or "any" to replace it whatever. */
  snapshot: { items: MemoryItem[]; policy: string; throughSeq: number; baseVersion: number | null | "any" };
  /** The turn's messages to index for search, with the answer's final text; `fresh` when none was indexed yet. */
  search?: { docs: SearchDocInput[]; fresh: boolean };
}): Promise<CommitResult> {
  const { sessionId } = lease;
  try {
    return await withTransaction(async (tx) => {
      const released = await execute(
        tx,
        `UPDATE "ChatSession" SET "leaseId" = NULL, "leaseUntil" = NULL, "updatedAt" = ? WHERE "id" = ? AND "leaseId" = ?`,
        [new Date(), sessionId, lease.leaseId],
      );
      if (released === 0) return "lease_lost";
      const tokens = outcome.status === "complete";
      const updated = await execute(
        tx,
        {
          sqlite: `UPDATE "ChatMessage" SET "text" = ?, "status" = ?${tokens ? `, "promptTokens" = ?, "completionTokens" = ?` : ""} WHERE "id" = ?`,
          postgresql: `UPDATE "ChatMessage" SET "text" = $1, "status" = $2::"MessageStatus"${tokens ? `, "promptTokens" = $3, "completionTokens" = $4 WHERE "id" = $5` : ` WHERE "id" = $3`}`,
        },
        outcome.status === "complete"
          ? [
              outcome.text,
              outcome.status,
              outcome.promptTokens ?? null,
              outcome.completionTokens ?? null,
              answerId,
            ]
          : [outcome.text, outcome.status, answerId],
      );
      // The answer was deleted with its messages (a branch or the conversation) while the lease was still ours.
      if (updated === 0) throw new AnswerGone();
      const { items, policy, throughSeq, baseVersion } = snapshot;
      const data = { items: items as object[], policy, throughSeq };
      if (baseVersion === "any") {
        await putSnapshot({ sessionId, items, policy, throughSeq }, { tx });
      } else if (baseVersion === null) {
        await tx.memorySnapshot.create({ data: { sessionId, ...data }, select: { sessionId: true } });
      } else {
        const replaced = await execute(
          tx,
          {
            sqlite: `UPDATE "MemorySnapshot" SET "items" = ?, "policy" = ?, "throughSeq" = ?, "version" = "version" + 1, "updatedAt" = ? WHERE "sessionId" = ? AND "version" = ?`,
            postgresql: `UPDATE "MemorySnapshot" SET "items" = $1::jsonb, "policy" = $2, "throughSeq" = $3, "version" = "version" + 1, "updatedAt" = $4 WHERE "sessionId" = $5 AND "version" = $6`,
          },
          [jsonArg(items), policy, throughSeq, new Date(), sessionId, baseVersion],
        );
        if (replaced === 0) throw new SnapshotMoved();
      }
      if (search) await indexMessages({ docs: search.docs, fresh: search.fresh }, { tx });
      return "committed";
    });
  } catch (e) {
    if (e instanceof SnapshotMoved || isUniqueViolation(e)) return "snapshot_moved";
    if (e instanceof AnswerGone || isRecordNotFound(e) || isForeignKeyViolation(e)) return "lease_lost";
    throw e;
  }
}

/**
 * After a lost lease: keeps the text the user saw on an answer that another turn has already marked interrupted
 * (or that is still `streaming` under a lease nobody holds any more). Never touches an answer that a live turn is
 * writing again (a retry reuses the row) and never changes its status to anything but interrupted.
 */
export async function salvageAnswerText({
  lease,
  answerId,
  text,
}: {
  lease: Lease;
  answerId: string;
  text: string;
}): Promise<boolean> {
  return withTransaction(async (tx) => {
    const session = await tx.chatSession.findUnique({
      where: { id: lease.sessionId },
      select: { leaseId: true, leaseUntil: true },
    });
    if (!session) return false;
    const held =
      session.leaseUntil !== null && session.leaseUntil > new Date() && session.leaseId !== lease.leaseId;
    await tx.chatMessage.updateMany({
      where: { id: answerId, status: held ? "interrupted" : { in: ["interrupted", "streaming"] } },
      data: { text, status: "interrupted" },
    });
    return true;
  });
}
