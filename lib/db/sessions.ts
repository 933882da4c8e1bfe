import "server-only";
import { AppError } from "@/lib/errors";
import { db } from "./client";
import { isRecordNotFound } from "./errors";

export const sessionSelect = {
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
  lastSeq: true,
} as const;

export const messageSelect = {
  id: true,
  seq: true,
  role: true,
  text: true,
  parts: true,
  toolCallId: true,
  status: true,
  model: true,
  promptTokens: true,
  completionTokens: true,
  createdAt: true,
} as const;

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");

export async function createSession({ userId, title }: { userId: string; title: string }) {
  return db.chatSession.create({ data: { userId, title }, select: sessionSelect });
}

/** Newest first, keyset-paginated on (updatedAt, id) so a page costs the same however many sessions exist. */
export async function listSessionsByUserId({
  userId,
  cursor,
  limit,
}: {
  userId: string;
  cursor?: { updatedAt: Date; id: string };
  limit: number;
}) {
  const rows = await db.chatSession.findMany({
    where: {
      userId,
      ...(cursor
        ? {
            OR: [
              { updatedAt: { lt: cursor.updatedAt } },
              { updatedAt: cursor.updatedAt, id: { lt: cursor.id } },
            ],
          }
        : {}),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: sessionSelect,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    sessions: page,
    nextCursor: rows.length > limit && last ? { updatedAt: last.updatedAt, id: last.id } : null,
  };
}

/** Ownership is part of the query: someone else's session is indistinguishable from a missing one. */
export async function getSessionForUserOrThrow({ sessionId, userId }: { sessionId: string; userId: string }) {
  const session = await db.chatSession.findFirst({ where: { id: sessionId, userId }, select: sessionSelect });
  if (!session) throw notFound();
  return session;
}

/** One page of history, newest page first by default, returned in ascending seq order. */
export async function getMessagesBySessionId({
  sessionId,
  beforeSeq,
  limit,
}: {
  sessionId: string;
  beforeSeq?: number;
  limit: number;
}) {
  const rows = await db.chatMessage.findMany({
    where: { sessionId, ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}) },
    orderBy: { seq: "desc" },
    take: limit + 1,
    select: messageSelect,
  });
  const page = rows.slice(0, limit).reverse();
  return { messages: page, hasMore: rows.length > limit };
}

export async function renameSessionForUser({
  sessionId,
  userId,
  title,
}: {
  sessionId: string;
  userId: string;
  title: string;
}) {
  try {
    return await db.chatSession.update({
      where: { id: sessionId, userId },
      data: { title },
      select: sessionSelect,
    });
  } catch (e) {
    if (isRecordNotFound(e)) throw notFound();
    throw e;
  }
}

export interface DeletionReceipt {
  sessionId: string;
  deleted: { ChatSession: number; ChatMessage: number; MemorySnapshot: number; TurnContext: number };
}

/**
 * Deletes a session and, through its foreign keys, everything derived from it, in one transaction.
 * The counts are taken inside the same transaction, so the receipt describes exactly what was removed.
 */
export async function unsafeDeleteSessionById({
  sessionId,
  actorId,
}: {
  sessionId: string;
  actorId: string;
}): Promise<DeletionReceipt> {
  return db.$transaction(async (tx) => {
    const [messages, snapshots, contexts] = await Promise.all([
      tx.chatMessage.count({ where: { sessionId } }),
      tx.memorySnapshot.count({ where: { sessionId } }),
      tx.turnContext.count({ where: { sessionId } }),
    ]);
    const { count } = await tx.chatSession.deleteMany({ where: { id: sessionId } });
    if (count === 0) throw notFound();
    const deleted = {
      ChatSession: count,
      ChatMessage: messages,
      MemorySnapshot: snapshots,
      TurnContext: contexts,
    };
    await tx.auditLog.create({
      data: {
        actorId,
        action: "session.delete",
        targetType: "ChatSession",
        targetId: sessionId,
        details: deleted,
      },
    });
    return { sessionId, deleted };
  });
}

export async function deleteSessionForUser({ sessionId, userId }: { sessionId: string; userId: string }) {
  await getSessionForUserOrThrow({ sessionId, userId });
  return unsafeDeleteSessionById({ sessionId, actorId: userId });
}
