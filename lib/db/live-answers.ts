import "server-only";
import { db, type TxOption } from "./client";

// The reads of a live answer (docs/decisions/033-live-answers.md): an answer of one of the user's conversations,
// with what is stored of it so far. Ownership is part of the query: someone else's answer reads as missing.

export interface StoredAnswer {
  id: string;
  sessionId: string;
  status: "complete" | "streaming" | "interrupted" | "failed";
  text: string;
  promptTokens: number | null;
  completionTokens: number | null;
  /** The registry id of the model writing it. */
  model: string | null;
  /** The session's lease is held: somebody is still writing a `streaming` answer. */
  leaseHeld: boolean;
}

export async function getAnswerForUser(
  { sessionId, messageId, userId }: { sessionId: string; messageId: string; userId: string },
  { tx = db }: TxOption = {},
): Promise<StoredAnswer | null> {
  const row = await tx.chatMessage.findFirst({
    where: { id: messageId, sessionId, role: "assistant", session: { userId } },
    select: {
      id: true,
      sessionId: true,
      status: true,
      text: true,
      promptTokens: true,
      completionTokens: true,
      model: true,
      session: { select: { leaseUntil: true } },
    },
  });
  if (!row) return null;
  const { session, ...answer } = row;
  return { ...answer, leaseHeld: session.leaseUntil !== null && session.leaseUntil > new Date() };
}

/** Asks whoever writes the answer to stop: marks it, if it is still being written. Returns whether it was. */
export async function requestAnswerStop(
  { sessionId, messageId, userId }: { sessionId: string; messageId: string; userId: string },
  { tx = db }: TxOption = {},
): Promise<boolean> {
  const { count } = await tx.chatMessage.updateMany({
    where: { id: messageId, sessionId, status: "streaming", session: { userId } },
    data: { stopRequestedAt: new Date() },
  });
  return count > 0;
}

/** Of the answers `ids` running here, those asked to stop after they started (one statement for them all). */
export async function listStopRequests(
  { ids }: { ids: readonly string[] },
  { tx = db }: TxOption = {},
): Promise<{ id: string; stopRequestedAt: Date }[]> {
  const rows = await tx.chatMessage.findMany({
    where: { id: { in: [...ids] }, stopRequestedAt: { not: null } },
    select: { id: true, stopRequestedAt: true },
  });
  return rows.flatMap((r) => (r.stopRequestedAt ? [{ id: r.id, stopRequestedAt: r.stopRequestedAt }] : []));
}
