import "server-only";
import { db, type TxOption } from "./client";
import { type Cursor, keysetArgs, keysetPage } from "./cursor";

// The audit log: the entry written on its own (a summary that failed; the others are written with the change
// they record) and the log as admins read it. Entries hold ids and counts only (never message content); an entry
// outlives its actor, whose id is then null.

export interface AuditEntry {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  createdAt: Date;
  actor: { id: string; email: string; name: string } | null;
}

/** Newest first, keyset-paginated (lib/db/cursor.ts) on (createdAt, id) over the AuditLog(createdAt) index. */
export async function listAuditEntries(
  {
    cursor,
    limit,
  }: {
    cursor?: Cursor;
    limit: number;
  },
  { tx = db }: TxOption = {},
): Promise<{ entries: AuditEntry[]; nextCursor: Cursor | null }> {
  const rows = await tx.auditLog.findMany({
    ...keysetArgs({ key: "createdAt", cursor, limit }),
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
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (e) => ({ at: e.createdAt, id: e.id }) });
  return { entries: page, nextCursor };
}

/** Records that a summary could not be made (the originals were kept): ids and counts, never content. */
export async function recordSummaryFailure(
  {
    sessionId,
    status,
    messages,
  }: {
    sessionId: string;
    status: "blank" | "failed";
    messages: number;
  },
  { tx = db }: TxOption = {},
) {
  await tx.auditLog.create({
    data: {
      actorId: null,
      action: "memory.summary_failed",
      targetType: "ChatSession",
      targetId: sessionId,
      details: { status, messages },
    },
    select: { id: true },
  });
}

/** Records that the extraction after an answer failed (nothing was stored): ids and counts, never content. */
export async function recordExtractionFailure(
  { messageId, reason }: { messageId: string; reason: "model_error" | "unreadable_answer" },
  { tx = db }: TxOption = {},
) {
  await tx.auditLog.create({
    data: {
      actorId: null,
      action: "memory.extraction_failed",
      targetType: "ChatMessage",
      targetId: messageId,
      details: { reason, facts: 0 },
    },
    select: { id: true },
  });
}
