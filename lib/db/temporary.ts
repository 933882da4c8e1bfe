import "server-only";
import { isAppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { type DeletedRows, noDeletedRows } from "./receipts";
import { unsafeDeleteSessionById } from "./sessions";
import { asBoolean, queryRows } from "./sql";

// Temporary chats (issue 25): the browser deletes one when the user leaves it; what it could not delete (a closed
// laptop, a crash) goes a day after it was started, with the same cascade and audit entry as any deletion.

const TEMPORARY_CHAT_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/** Whether the conversation is a temporary chat (false for a missing one). */
export async function isTemporarySession(
  { sessionId }: { sessionId: string },
  { tx = db }: TxOption = {},
): Promise<boolean> {
  // Written out (sql.ts): read before every turn and every extraction.
  const [row] = await queryRows(tx, `SELECT "temporary" FROM "ChatSession" WHERE "id" = ?`, [sessionId]);
  return row ? asBoolean(row.temporary) : false;
}

/**
 * Deletes the temporary chats started more than a day before `now` that no turn is writing (at most `limit` per
 * call); returns how many and the rows removed.
 */
export async function deleteStaleTemporarySessions({
  now = new Date(),
  limit = BATCH,
}: {
  now?: Date;
  limit?: number;
} = {}): Promise<{ sessions: number; deleted: DeletedRows }> {
  const cutoff = new Date(now.getTime() - TEMPORARY_CHAT_MS);
  const stale = await db.chatSession.findMany({
    where: {
      temporary: true,
      createdAt: { lt: cutoff },
      OR: [{ leaseUntil: null }, { leaseUntil: { lte: now } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true },
  });
  const deleted = noDeletedRows();
  let sessions = 0;
  for (const { id } of stale) {
    try {
      const receipt = await unsafeDeleteSessionById({ sessionId: id, actorId: null, reason: "temporary" });
      sessions++;
      for (const table of Object.keys(deleted) as (keyof DeletedRows)[])
        deleted[table] += receipt.deleted[table];
    } catch (e) {
      if (!(isAppError(e) && e.code === "not_found")) throw e;
    }
  }
  return { sessions, deleted };
}
