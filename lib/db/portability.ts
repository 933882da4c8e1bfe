import "server-only";
import { Prisma } from "@/lib/generated/sqlite/client";
import { type AttachmentKind, type AttachmentRow, attachmentSelect } from "./attachments";
import { checkpointed } from "./checkpoint";
import { db, type Tx, type TxOption } from "./client";
import { factSelect } from "./memories";
import { indexMessages } from "./search";
import { messageSelect } from "./sessions";

// Data access of export and import (docs/decisions/018-export-import.md; the format and its checks are
// lib/export's). Every query names the user: an export reads only what the user owns, an import writes only rows
// owned by the importing user.

/** The audit action of an import; its entries also count imports for the hourly limit. */
const IMPORT_AUDIT_ACTION = "data.import";

// ------------------------------------------------------------------------------------------------------ Export

const exportSessionSelect = {
  id: true,
  title: true,
  titleByUser: true,
  createdAt: true,
  updatedAt: true,
  memorySettings: true,
  memoryStartSeq: true,
  activeLeafId: true,
  leaseUntil: true,
  systemPrompt: true,
  projectId: true,
  pinnedAt: true,
  archivedAt: true,
} as const;

/** A conversation of `userId` as an export reads it; null when it is missing or someone else's. */
export async function getSessionForExport(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
) {
  return tx.chatSession.findFirst({ where: { id: sessionId, userId }, select: exportSessionSelect });
}

/** Up to `limit` messages of the user's conversation after `afterSeq`, by seq (every branch). */
export async function listMessagesPageForExport(
  {
    sessionId,
    userId,
    afterSeq,
    limit,
  }: {
    sessionId: string;
    userId: string;
    afterSeq: number;
    limit: number;
  },
  { tx = db }: TxOption = {},
) {
  return tx.chatMessage.findMany({
    where: { sessionId, session: { userId }, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
    select: messageSelect,
  });
}

/** The user's attachments on messages of the conversation (metadata only), oldest first. */
export async function listAttachmentsForExport(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
) {
  return tx.attachment.findMany({
    where: { userId, message: { sessionId } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: attachmentSelect,
  });
}

/** The ids of every conversation of the user, oldest first; temporary chats are never exported. */
export async function listSessionIdsForExport(
  { userId }: { userId: string },
  { tx = db }: TxOption = {},
): Promise<string[]> {
  const rows = await tx.chatSession.findMany({
    where: { userId, temporary: false },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** The user's projects, oldest first. */
export async function listProjectsForExport({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  return tx.project.findMany({
    where: { userId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, instructions: true, createdAt: true, updatedAt: true },
  });
}

/** The files of one of the user's projects, oldest first (metadata; their chunks are read one file at a time). */
export async function listProjectFilesForExport(
  { userId, projectId }: { userId: string; projectId: string },
  { tx = db }: TxOption = {},
) {
  return tx.projectFile.findMany({
    where: { userId, projectId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, mime: true, bytes: true, createdAt: true },
  });
}

/** The passages of one of the user's project files, in order. */
export async function listProjectFileChunksForExport(
  { userId, fileId }: { userId: string; fileId: string },
  { tx = db }: TxOption = {},
) {
  return tx.projectFileChunk.findMany({
    where: { userId, fileId },
    orderBy: { position: "asc" },
    select: { position: true, text: true },
  });
}

/**
 * The user's long-term memory switch (off for a missing user) and all their facts, superseded ones too — not the
 * suggestions waiting for review: an import would make them active.
 */
export async function getLongTermMemoryForExport({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  const [user, facts] = await Promise.all([
    tx.user.findUnique({ where: { id: userId }, select: { longTermMemory: true } }),
    tx.memoryFact.findMany({
      where: { userId, status: "active" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: factSelect,
    }),
  ]);
  return { enabled: user?.longTermMemory ?? false, facts };
}

// ------------------------------------------------------------------------------------------------------ Import

/** How many imports the user made since `since` (from the audit log, so every instance agrees). */
export async function countImportsSinceForUser(
  { userId, since }: { userId: string; since: Date },
  { tx = db }: TxOption = {},
) {
  return tx.auditLog.count({
    where: { actorId: userId, action: IMPORT_AUDIT_ACTION, createdAt: { gt: since } },
  });
}

/** An import's writes are one transaction (withTransaction) with these limits: a large file is many rows, which the default 5 s would cut off. */
export const IMPORT_TRANSACTION = { maxWait: 10_000, timeout: 120_000 } as const;

export interface ImportedSessionRow {
  id: string;
  title: string;
  titleByUser: boolean;
  createdAt: Date;
  updatedAt: Date;
  lastSeq: number;
  memoryStartSeq: number;
  /** Validated settings; undefined: the defaults. */
  memorySettings: object | undefined;
  activeLeafId: string | null;
  /** The active leaf's seq (0: none), as turns read it. */
  activeLeafSeq: number;
  systemPrompt: string | null;
  /** When the import made it: the conversation is marked as an imported copy. */
  importedAt: Date;
  /** Its project (one the import created), pinned and archived as the file says. */
  projectId: string | null;
  pinnedAt: Date | null;
  archivedAt: Date | null;
}

export interface ImportedMessageRow {
  id: string;
  seq: number;
  parentId: string | null;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  parts: object | undefined;
  toolCallId: string | null;
  status: "complete" | "interrupted" | "failed";
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  createdAt: Date;
}

/** An attachment row as an import writes it: already a message's. */
export type ImportedAttachmentRow = Omit<AttachmentRow, "messageId" | "kind"> & {
  messageId: string;
  kind: AttachmentKind;
};

/**
 * One imported conversation of `userId`, with ids made by the caller: the session, its messages, the attachment
 * rows (their files are stored by the caller) and the messages' search index entries.
 */
export async function insertImportedConversation(
  {
    userId,
    session,
    messages,
    attachments,
  }: {
    userId: string;
    session: ImportedSessionRow;
    messages: ImportedMessageRow[];
    attachments: ImportedAttachmentRow[];
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  const { memorySettings, ...sessionRow } = session;
  await tx.chatSession.create({
    data: { ...sessionRow, userId, ...(memorySettings === undefined ? {} : { memorySettings }) },
    select: { id: true },
  });
  await insertMessageRows({ sessionId: session.id, messages }, { tx });
  if (attachments.length > 0) {
    await tx.attachment.createMany({ data: attachments.map((a) => ({ ...a, userId })) });
  }
  await indexMessages(
    {
      docs: messages.map((m) => ({
        id: m.id,
        sessionId: session.id,
        userId,
        role: m.role,
        text: m.text,
        createdAt: m.createdAt,
      })),
      // New rows: nothing to replace.
      fresh: true,
    },
    { tx },
  );
}

/** Rows per INSERT of imported messages: 13 parameters each, well below either database's limit. */
const MESSAGE_ROWS_PER_INSERT = 500;

/**
 * Multi-row INSERTs rather than `createMany`: Prisma's query compiler spent ~4 s of JavaScript on a 20 000-message
 * createMany — inside the transaction, so on SQLite with the write lock held — and this SQL writes the same rows
 * in ~0.4 s. Parameters keep their Prisma types, so dates are stored exactly as `createMany` stores them (ISO text
 * with offset on SQLite, timestamp(3) on PostgreSQL); `parts` is the same JSON text, and SQL NULL when absent.
 */
async function insertMessageRows(
  { sessionId, messages }: { sessionId: string; messages: ImportedMessageRow[] },
  { tx }: { tx: Tx },
) {
  for (let i = 0; i < messages.length; i += MESSAGE_ROWS_PER_INSERT) {
    const rows = messages
      .slice(i, i + MESSAGE_ROWS_PER_INSERT)
      .map(
        (m) =>
          Prisma.sql`(${m.id}, ${sessionId}, ${m.seq}, ${m.parentId}, ${m.role}, ${m.text}, ${m.parts === undefined ? null : JSON.stringify(m.parts)}, ${m.toolCallId}, ${m.status}, ${m.model}, ${m.promptTokens}, ${m.completionTokens}, ${m.createdAt})`,
      );
    await tx.$executeRaw`
      INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "parentId", "role", "text", "parts", "toolCallId",
        "status", "model", "promptTokens", "completionTokens", "createdAt")
      VALUES ${Prisma.join(rows)}`;
  }
}

/** How many projects the user has, to hold an import to MAX_PROJECTS. */
export async function countProjectsForImport({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  return tx.project.count({ where: { userId } });
}

/** Imported projects of `userId`, with ids made by the caller (their files: insertProjectFile). */
export async function insertImportedProjects(
  {
    userId,
    projects,
  }: {
    userId: string;
    projects: { id: string; name: string; instructions: string; createdAt: Date; updatedAt: Date }[];
  },
  { tx = db }: TxOption = {},
) {
  if (projects.length === 0) return;
  await tx.project.createMany({ data: projects.map((p) => ({ ...p, userId })) });
}

/** The user's active global facts, to compare imported global facts with (a project's are of another scope). */
export async function listActiveFactsForImport({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  return tx.memoryFact.findMany({
    where: { userId, status: "active", supersededById: null, projectId: null },
    select: { id: true, text: true, subject: true },
  });
}

export interface ImportedFactRow {
  id: string;
  text: string;
  subject: string | null;
  sourceSessionId: string | null;
  sourceMessageId: string | null;
  /** null: global. */
  projectId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export async function insertImportedFacts(
  { userId, facts }: { userId: string; facts: ImportedFactRow[] },
  { tx = db }: TxOption = {},
) {
  if (facts.length === 0) return;
  await tx.memoryFact.createMany({ data: facts.map((f) => ({ ...f, userId })) });
  await tx.memoryFactVersion.createMany({
    data: facts.map((f) => ({
      factId: f.id,
      text: f.text,
      change: "created",
      by: "user",
      sourceMessageId: f.sourceMessageId,
      changedAt: f.createdAt,
    })),
  });
}

/** Marks the user's facts `ids` as replaced by their fact `supersededById`. */
export async function supersedeFactsForUser(
  { userId, ids, supersededById }: { userId: string; ids: string[]; supersededById: string },
  { tx = db }: TxOption = {},
) {
  await tx.memoryFact.updateMany({ where: { userId, id: { in: ids } }, data: { supersededById } });
}

/** The import's audit entry: counts only, never content. */
export async function recordImport(
  { userId, counts }: { userId: string; counts: Record<string, number> },
  { tx = db }: TxOption = {},
) {
  await tx.auditLog.create({
    data: {
      actorId: userId,
      action: IMPORT_AUDIT_ACTION,
      targetType: "User",
      targetId: userId,
      details: counts,
    },
  });
}

/** Takes imported conversations back (their rows go with them, cascade) when their files could not be stored. */
export async function deleteImportedSessionsForUser({
  userId,
  sessionIds,
}: {
  userId: string;
  sessionIds: string[];
}) {
  await db.chatSession
    .deleteMany({ where: { userId, id: { in: sessionIds } } })
    .then((r) => checkpointed(r, ["messages"]));
}
