import "server-only";
import { db } from "./client";
import type { Cursor } from "./cursor";

// The audit log as admins read it. Entries hold ids and counts only (never message content); an entry outlives
// its actor, whose id is then null.

export interface AuditEntry {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  createdAt: Date;
  actor: { id: string; email: string; name: string } | null;
}

/**
 * Newest first, keyset-paginated on (createdAt, id) over the AuditLog(createdAt) index. The cursor type is shared
 * with the session lists; its `updatedAt` holds the entry's createdAt.
 */
export async function listAuditEntries({
  cursor,
  limit,
}: {
  cursor?: Cursor;
  limit: number;
}): Promise<{ entries: AuditEntry[]; nextCursor: Cursor | null }> {
  const rows = await db.auditLog.findMany({
    where: cursor
      ? {
          AND: [
            { createdAt: { lte: cursor.updatedAt } },
            { OR: [{ createdAt: { lt: cursor.updatedAt } }, { id: { lt: cursor.id } }] },
          ],
        }
      : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      action: true,
      targetType: true,
      targetId: true,
      details: true,
      createdAt: true,
      actor: { select: { id: true, email: true, name: true } },
    },
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page,
    nextCursor: rows.length > limit && last ? { updatedAt: last.createdAt, id: last.id } : null,
  };
}
