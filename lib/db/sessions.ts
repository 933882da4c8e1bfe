import "server-only";
import { memoryUsedByAnswer } from "@/lib/context/memory-used";
import { AppError } from "@/lib/errors";
import { checkpointed } from "./checkpoint";
import { db, type Tx, type TxOption } from "./client";
import { type Cursor, keysetArgs, keysetPage, type SessionListCursor } from "./cursor";
import { isRecordNotFound } from "./errors";
import { keepFactsOfSessions } from "./kept-facts";
import { getProjectForUserOrThrow } from "./projects";
import { countRowsOfSessions, type DeletedRows } from "./receipts";
import { putSnapshot } from "./snapshots";
import { CASCADE_DELETE_TIMEOUT_MS, inTx, withTransaction } from "./transaction";
import { siblingsOf, walkUp } from "./tree";
import { listTurnContextEntries } from "./turn-contexts";

const sessionSelect = {
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
  lastSeq: true,
  /** Messages up to this seq were said before the conversation's memory was cleared. */
  memoryStartSeq: true,
  /** The last message of the branch the user is on. */
  activeLeafId: true,
  /** The user renamed it: the automatic title leaves it alone. */
  titleByUser: true,
  /** The model picked for it (null: the default). */
  model: true,
  temporary: true,
  /** Decision 036: its project (null: none), pinned and archived (null: not). */
  projectId: true,
  pinnedAt: true,
  archivedAt: true,
  /** Made by an import (null: started here). */
  importedAt: true,
} as const;

export const messageSelect = {
  id: true,
  seq: true,
  parentId: true,
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

export async function createSession(
  {
    userId,
    title,
    temporary = false,
    projectId = null,
  }: { userId: string; title: string; temporary?: boolean; projectId?: string | null },
  options: TxOption = {},
) {
  if (!projectId) {
    return (options.tx ?? db).chatSession.create({
      data: { userId, title, temporary },
      select: sessionSelect,
    });
  }
  // The project must be the user's (else 404, as if missing), read in the same transaction as the insert.
  return inTx(options, async (t) => {
    await getProjectForUserOrThrow({ projectId, userId }, { tx: t });
    return t.chatSession.create({ data: { userId, title, temporary, projectId }, select: sessionSelect });
  });
}

/** Which of a user's conversations a list shows: archived ones or the others; of one project, of none, or all. */
export interface SessionListFilter {
  archived?: boolean;
  /** A project's id, null for the conversations outside any project; absent: whatever their project. */
  projectId?: string | null;
}

/**
 * A user's conversations, newest first, keyset-paginated on (updatedAt, id) so a page costs the same however many
 * sessions exist. Outside the archive, pinned ones come first (newest first among themselves): a page reads the
 * pinned part after the cursor, then, if it has room, the start of the rest — two index walks at most.
 */
export async function listSessionsByUserId(
  {
    userId,
    cursor,
    limit,
    archived = false,
    projectId,
  }: {
    userId: string;
    cursor?: SessionListCursor | undefined;
    limit: number;
  } & SessionListFilter,
  { tx = db }: TxOption = {},
) {
  const base = {
    userId,
    temporary: false,
    archivedAt: archived ? { not: null } : null,
    ...(projectId !== undefined ? { projectId } : {}),
  };
  const read = async (pinned: boolean | null, after: Cursor | undefined, take: number) => {
    const { where, ...args } = keysetArgs({ key: "updatedAt", cursor: after, limit: take });
    const part = pinned === null ? {} : { pinnedAt: pinned ? { not: null } : null };
    return tx.chatSession.findMany({ ...args, where: { ...base, ...part, ...where }, select: sessionSelect });
  };
  let rows: Awaited<ReturnType<typeof read>>;
  if (archived) rows = await read(null, cursor, limit);
  else {
    rows = !cursor || cursor.pinned ? await read(true, cursor, limit) : [];
    if (rows.length <= limit) {
      rows = rows.concat(await read(false, cursor?.pinned ? undefined : cursor, limit - rows.length));
    }
  }
  const { page, nextCursor } = keysetPage({
    rows,
    limit,
    cursorOf: (s): SessionListCursor => ({
      at: s.updatedAt,
      id: s.id,
      pinned: !archived && s.pinnedAt !== null,
    }),
  });
  return { sessions: page, nextCursor };
}

/** Ownership is part of the query: someone else's session is indistinguishable from a missing one. */
export async function getSessionForUserOrThrow(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
) {
  const session = await tx.chatSession.findFirst({ where: { id: sessionId, userId }, select: sessionSelect });
  if (!session) throw notFound();
  return session;
}

/**
 * As getSessionForUserOrThrow, with `factCount`: the long-term facts learned in it, counted in the same read, which
 * are the rows a deletion removes with it (the deletion dialog names the number, the receipt reports it).
 */
export async function getSessionWithFactCountForUserOrThrow(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
) {
  const row = await tx.chatSession.findFirst({
    where: { id: sessionId, userId },
    select: { ...sessionSelect, _count: { select: { memoryFacts: true } } },
  });
  if (!row) throw notFound();
  const { _count, ...session } = row;
  return { ...session, factCount: _count.memoryFacts };
}

/** One page of the whole history by seq (every branch), newest page first by default, in ascending seq order. */
export async function getMessagesBySessionId(
  {
    sessionId,
    beforeSeq,
    limit,
  }: {
    sessionId: string;
    beforeSeq?: number;
    limit: number;
  },
  { tx = db }: TxOption = {},
) {
  const rows = await tx.chatMessage.findMany({
    where: { sessionId, ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}) },
    orderBy: { seq: "desc" },
    take: limit + 1,
    select: messageSelect,
  });
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (m) => m.seq });
  return { messages: await withLiveStatus(sessionId, page.reverse(), { tx }), hasMore: nextCursor !== null };
}

/**
 * One page of the active path, newest page first by default, returned oldest first; `beforeSeq` is the
 * seq of the oldest message the reader has, and the page continues above it. Each message carries its versions
 * (`siblings`), each answer what it used beyond its window (`memoryUsed`, from its recorded context). Walks parent
 * links from the leaf: the page's rows, never the conversation.
 */
export async function getActivePathPage(
  {
    sessionId,
    leafId,
    beforeSeq,
    limit,
  }: {
    sessionId: string;
    leafId: string | null;
    beforeSeq?: number;
    limit: number;
  },
  { tx = db }: TxOption = {},
) {
  let fromId = leafId;
  if (fromId !== null && beforeSeq !== undefined) {
    const oldest = await tx.chatMessage.findUnique({
      where: { sessionId_seq: { sessionId, seq: beforeSeq } },
      select: { parentId: true },
    });
    fromId = oldest?.parentId ?? null;
  }
  if (fromId === null) return { messages: [], hasMore: false };
  const nodes = await walkUp({ sessionId, fromId, take: limit + 1 }, { tx });
  const hasMore = nodes.length > limit;
  const ids = nodes.slice(0, limit).map((n) => n.id);
  const rows = await tx.chatMessage.findMany({ where: { id: { in: ids } }, select: messageSelect });
  rows.sort((a, b) => a.seq - b.seq);
  const siblings = await siblingsOf({ sessionId, messages: rows }, { tx });
  const answers = rows.filter((m) => m.role === "assistant").map((m) => m.id);
  const used = memoryUsedByAnswer(
    answers,
    await listTurnContextEntries({ sessionId, messageIds: answers }, { tx }),
  );
  const messages = rows.map((m) => ({
    ...m,
    siblings: siblings.get(m.id),
    ...(m.role === "assistant" ? { memoryUsed: used.get(m.id) ?? null } : {}),
  }));
  return { messages: await withLiveStatus(sessionId, messages, { tx }), hasMore };
}

/**
 * An answer stays `streaming` in storage until its turn commits or a later turn takes the lease over. Readers see
 * what is true: once the session's lease has run out nobody is writing it any more, so it reads `interrupted`
 * (with the text saved so far) and a view that follows it stops following.
 */
async function withLiveStatus<M extends { status: string }>(
  sessionId: string,
  messages: M[],
  { tx }: { tx: Tx },
): Promise<M[]> {
  if (!messages.some((m) => m.status === "streaming")) return messages;
  const session = await tx.chatSession.findUnique({ where: { id: sessionId }, select: { leaseUntil: true } });
  const live = session?.leaseUntil != null && session.leaseUntil > new Date();
  return live
    ? messages
    : messages.map((m) => (m.status === "streaming" ? { ...m, status: "interrupted" } : m));
}

export async function renameSessionForUser(
  {
    sessionId,
    userId,
    title,
  }: {
    sessionId: string;
    userId: string;
    title: string;
  },
  { tx = db }: TxOption = {},
) {
  try {
    return await tx.chatSession.update({
      where: { id: sessionId, userId },
      data: { title, titleByUser: true },
      select: sessionSelect,
    });
  } catch (e) {
    if (isRecordNotFound(e)) throw notFound();
    throw e;
  }
}

export interface DeletionReceipt {
  sessionId: string;
  deleted: DeletedRows;
  /** With keepFacts: the facts learned there that stayed, without their source. */
  kept?: { MemoryFact: number };
}

/**
 * Deletes a session and, through its foreign keys, everything derived from it, in one transaction.
 * The counts are taken inside the same transaction, so the receipt describes exactly what was removed.
 * `actorId` null is the system (retention, with its `reason` in the audit details). `onlyIfIdleBefore`: delete
 * only if the session was not touched since then and no turn holds a live lease — checked by the DELETE itself,
 * so a turn starting meanwhile keeps its conversation (it is then not_found, like a missing one).
 */
export async function unsafeDeleteSessionById({
  sessionId,
  actorId,
  reason,
  onlyIfIdleBefore,
  keepFacts,
}: {
  sessionId: string;
  actorId: string | null;
  reason?: string;
  onlyIfIdleBefore?: Date;
  /** The owner's choice in the deletion dialog: the facts learned there stay, their source becomes "deleted". */
  keepFacts?: { userId: string };
}): Promise<DeletionReceipt> {
  const result = await withTransaction(
    async (tx) => {
      const kept = keepFacts
        ? await keepFactsOfSessions({ userId: keepFacts.userId, sessionIds: [sessionId] }, { tx })
        : null;
      const rows = await countRowsOfSessions({ sessionId }, { tx });
      const idle = onlyIfIdleBefore && {
        updatedAt: { lt: onlyIfIdleBefore },
        OR: [{ leaseUntil: null }, { leaseUntil: { lte: new Date() } }],
      };
      const { count } = await tx.chatSession.deleteMany({ where: { id: sessionId, ...idle } });
      if (count === 0) throw notFound();
      const deleted: DeletedRows = { ChatSession: count, ...rows };
      const details = {
        ...deleted,
        ...(reason ? { reason } : {}),
        ...(kept !== null ? { keptFacts: kept } : {}),
      };
      await tx.auditLog.create({
        data: { actorId, action: "session.delete", targetType: "ChatSession", targetId: sessionId, details },
      });
      return kept === null ? { sessionId, deleted } : { sessionId, deleted, kept: { MemoryFact: kept } };
    },
    { timeout: CASCADE_DELETE_TIMEOUT_MS },
  );
  return checkpointed(result, ["messages"]);
}

export async function deleteSessionForUser({
  sessionId,
  userId,
  keepFacts = false,
}: {
  sessionId: string;
  userId: string;
  keepFacts?: boolean;
}) {
  await getSessionForUserOrThrow({ sessionId, userId });
  return unsafeDeleteSessionById({
    sessionId,
    actorId: userId,
    ...(keepFacts ? { keepFacts: { userId } } : {}),
  });
}

/** The memory state of a user's conversation: its settings, start boundary and length. */
export async function getSessionMemoryForUser(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
) {
  const row = await tx.chatSession.findFirst({
    where: { id: sessionId, userId },
    select: {
      id: true,
      lastSeq: true,
      memorySettings: true,
      memoryStartSeq: true,
      activeLeafId: true,
      activeLeafSeq: true,
    },
  });
  if (!row) throw notFound();
  return row;
}

/** Stores a conversation's memory settings (the whole object; `{}`: the defaults). */
export async function updateSessionMemorySettings(
  {
    sessionId,
    userId,
    settings,
  }: {
    sessionId: string;
    userId: string;
    settings: object;
  },
  { tx = db }: TxOption = {},
) {
  const { count } = await tx.chatSession.updateMany({
    where: { id: sessionId, userId },
    data: { memorySettings: settings },
  });
  if (count === 0) throw notFound();
}

/**
 * Clears a conversation's memory without touching its history: the memory start boundary moves to the end of the
 * history and the snapshot is replaced by an empty one. Refused (409) while an answer is being written; it also
 * takes any expired lease away, so a stalled turn that wakes up later cannot commit memory from before the clear.
 */
export async function clearSessionMemoryForUser(
  {
    sessionId,
    userId,
    policy,
  }: {
    sessionId: string;
    userId: string;
    policy: string;
  },
  { tx }: TxOption = {},
) {
  return inTx({ tx }, async (tx) => {
    const row = await takeIdleSession(
      {
        sessionId,
        userId,
        busyMessage: "An answer is still being written. Clear the memory when it is done.",
      },
      { tx },
    );
    await tx.chatSession.update({ where: { id: sessionId }, data: { memoryStartSeq: row.lastSeq } });
    // The snapshot is the active leaf's memory: empty, made for that leaf.
    await putSnapshot({ sessionId, items: [], policy, throughSeq: row.activeLeafSeq }, { tx });
    return { memoryStartSeq: row.lastSeq };
  });
}

/**
 * A user's session when no turn holds a live lease on it, taking an expired lease away (so a stalled turn that
 * wakes up later cannot commit onto what the caller changes): 404 when it is not theirs, 409 while an answer is
 * being written.
 */
export async function takeIdleSession(
  { sessionId, userId, busyMessage }: { sessionId: string; userId: string; busyMessage: string },
  { tx = db }: TxOption = {},
) {
  const [row] = await tx.chatSession.updateManyAndReturn({
    where: { id: sessionId, userId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    data: { leaseId: null, leaseUntil: null },
    select: {
      lastSeq: true,
      activeLeafId: true,
      activeLeafSeq: true,
      memorySettings: true,
      memoryStartSeq: true,
    },
  });
  if (row) return row;
  const exists = await tx.chatSession.findFirst({ where: { id: sessionId, userId }, select: { id: true } });
  if (!exists) throw notFound();
  throw new AppError("turn_in_progress", busyMessage);
}
