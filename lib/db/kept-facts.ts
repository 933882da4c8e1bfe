import "server-only";
import { db, type TxOption } from "./client";

/**
 * Before conversations are deleted with "keep the facts learned there" (decision 038): their facts lose their source
 * (their text, project and history stay) so the cascade passes them by, and their versions stop naming a message
 * of those conversations. Returns how many facts were kept.
 */
export async function keepFactsOfSessions(
  { userId, sessionIds }: { userId: string; sessionIds: string[] },
  { tx = db }: TxOption = {},
): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const facts = await tx.memoryFact.findMany({
    where: { userId, sourceSessionId: { in: sessionIds } },
    select: { id: true },
  });
  if (facts.length === 0) return 0;
  const ids = facts.map((f) => f.id);
  await tx.memoryFactVersion.updateMany({
    where: { factId: { in: ids }, sourceMessage: { sessionId: { in: sessionIds } } },
    data: { sourceMessageId: null },
  });
  const { count } = await tx.memoryFact.updateMany({
    where: { id: { in: ids } },
    data: { sourceSessionId: null, sourceMessageId: null },
  });
  return count;
}
