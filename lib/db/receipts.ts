import "server-only";
import { db, type TxOption } from "./client";

// What a deletion removed, per table: the one place that counts it, for a conversation (a user's delete, an
// admin's, retention) and for a whole user (an admin's delete). The counts are read inside the deleting transaction,
// before the DELETE whose cascade removes the rows, so a receipt describes exactly what was removed.

/** Rows removed per table, and the attachments' stored bytes freed (a type, not an interface: it is stored as JSON). */
export type DeletedRows = {
  ChatSession: number;
  ChatMessage: number;
  MemorySnapshot: number;
  TurnContext: number;
  /** Long-term facts learned in the deleted conversations. */
  MemoryFact: number;
  Attachment: number;
  /** Bytes of the attachments' stored files freed. */
  AttachmentBytes: number;
  /** Share links of the deleted conversations. */
  Share: number;
};

export const noDeletedRows = (): DeletedRows => ({
  ChatSession: 0,
  ChatMessage: 0,
  MemorySnapshot: 0,
  TurnContext: 0,
  MemoryFact: 0,
  Attachment: 0,
  AttachmentBytes: 0,
  Share: 0,
});

/**
 * The rows that go with the conversation `sessionId`, or with every conversation of `userId`, through their
 * foreign keys (the conversations themselves are counted by the caller's DELETE or its own count).
 */
export async function countRowsOfSessions(
  scope: { sessionId: string } | { userId: string },
  { tx = db }: TxOption = {},
): Promise<Omit<DeletedRows, "ChatSession">> {
  const ofSessions =
    "sessionId" in scope ? { sessionId: scope.sessionId } : { session: { userId: scope.userId } };
  const [messages, snapshots, contexts, facts, attachments, shares] = await Promise.all([
    tx.chatMessage.count({ where: ofSessions }),
    tx.memorySnapshot.count({ where: ofSessions }),
    tx.turnContext.count({ where: ofSessions }),
    tx.memoryFact.count({
      where: "sessionId" in scope ? { sourceSessionId: scope.sessionId } : { userId: scope.userId },
    }),
    tx.attachment.aggregate({
      where: "sessionId" in scope ? { message: { sessionId: scope.sessionId } } : { userId: scope.userId },
      _count: true,
      _sum: { bytes: true },
    }),
    tx.share.count({
      where: "sessionId" in scope ? { sessionId: scope.sessionId } : { userId: scope.userId },
    }),
  ]);
  return {
    ChatMessage: messages,
    MemorySnapshot: snapshots,
    TurnContext: contexts,
    MemoryFact: facts,
    Attachment: attachments._count,
    AttachmentBytes: attachments._sum.bytes ?? 0,
    Share: shares,
  };
}
