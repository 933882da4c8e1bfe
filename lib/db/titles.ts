import "server-only";
import { db, type TxOption } from "./client";

/**
 * Sets a conversation's automatic title unless its user has renamed it: one conditional update, so a
 * rename that lands while the title is being written always wins. Resolves whether the title was written (false:
 * renamed by the user, or the conversation is gone).
 */
export async function setAutoTitle(
  {
    sessionId,
    title,
  }: {
    sessionId: string;
    title: string;
  },
  { tx = db }: TxOption = {},
): Promise<boolean> {
  const { count } = await tx.chatSession.updateMany({
    where: { id: sessionId, titleByUser: false },
    data: { title },
  });
  return count > 0;
}
