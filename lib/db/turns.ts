import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { MemoryItem, ToolCall } from "@/lib/memory";
import { db, type Prisma, type Tx } from "./client";
import { isForeignKeyViolation, isRecordNotFound, isUniqueViolation } from "./errors";
import { readParts } from "./parts";
import { indexMessages, type SearchDocInput } from "./search";
import { type HistoryRow, setActiveLeaf, walkUp } from "./tree";

// The reads and writes of a chat turn. Plain queries: which rows memory is made of, and when a snapshot can be
// trusted, is decided by lib/memory and sequenced by lib/chat/turn.ts.

/** Runs `work` in one interactive transaction. */
export function inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(work);
}

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");
const busy = () =>
  new AppError(
    "turn_in_progress",
    "An answer is still being written in this conversation. Wait for it or stop it.",
  );

export interface Lease {
  sessionId: string;
  leaseId: string;
  /** The session's lastSeq before this turn took the lease. */
  seqBefore: number;
  /** The conversation's stored memory settings (unparsed; null: the defaults). */
  memorySettings: unknown;
  /** Memory was cleared through this seq (0: never). */
  memoryStartSeq: number;
  /** The conversation's active leaf before this turn (null: no messages yet). */
  activeLeaf: { id: string; seq: number } | null;
}

/**
 * Takes the session's turn lease with one conditional UPDATE and reserves `seqs` message seqs. A live lease held by
 * another turn → 409; a session that is missing or not the caller's → 404. When the lease is taken over from a
 * turn that stopped renewing it (its process died), that turn's answer is marked interrupted, keeping the text it
 * had saved.
 *
 * The common case — the previous turn committed and released the lease — is one statement. Only when that finds
 * no free lease does a second UPDATE take an expired one.
 */
export async function takeLease(
  tx: Tx,
  {
    sessionId,
    userId,
    leaseId,
    leaseSeconds,
    seqs,
  }: { sessionId: string; userId: string; leaseId: string; leaseSeconds: number; seqs: number },
): Promise<Lease> {
  const now = new Date();
  const take = (free: Prisma.ChatSessionWhereInput) =>
    tx.chatSession.updateManyAndReturn({
      where: { id: sessionId, userId, ...free },
      data: {
        leaseId,
        leaseUntil: new Date(now.getTime() + leaseSeconds * 1000),
        lastSeq: { increment: seqs },
        updatedAt: now,
      },
      select: {
        lastSeq: true,
        memorySettings: true,
        memoryStartSeq: true,
        activeLeafId: true,
        activeLeafSeq: true,
      },
    });
  let abandoned = false;
  let [row] = await take({ leaseUntil: null });
  if (!row) {
    [row] = await take({ leaseUntil: { lt: now } });
    abandoned = row !== undefined;
  }
  if (!row) {
    const exists = await tx.chatSession.findFirst({ where: { id: sessionId, userId }, select: { id: true } });
    throw exists ? busy() : notFound();
  }
  const seqBefore = row.lastSeq - seqs;
  // Only a lease that was taken over can have left an answer in `streaming`: a released lease means its turn
  // committed.
  if (abandoned && seqBefore > 0) {
    await tx.chatMessage.updateMany({
      where: { sessionId, seq: seqBefore, status: "streaming" },
      data: { status: "interrupted" },
    });
  }
  return {
    sessionId,
    leaseId,
    seqBefore,
    memorySettings: row.memorySettings,
    memoryStartSeq: row.memoryStartSeq,
    activeLeaf: row.activeLeafId ? { id: row.activeLeafId, seq: row.activeLeafSeq } : null,
  };
}

const questionSelect = {
  id: true,
  seq: true,
  text: true,
  parts: true,
  createdAt: true,
  parentId: true,
} as const;
const answerSelect = { id: true, seq: true, createdAt: true, parentId: true } as const;

/**
 * The user's question, child of `parentId` (null: a new root), and an empty assistant answer in `streaming` under
 * it, at the two seqs the lease reserved; the answer becomes the conversation's active leaf. The ids are made here,
 * so one INSERT writes both and one UPDATE (nothing read back) moves the leaf.
 */
export async function appendTurnMessages(
  tx: Tx,
  {
    lease,
    content,
    model,
    parentId,
  }: { lease: Lease; content: string; model: string; parentId: string | null },
) {
  const { sessionId, seqBefore } = lease;
  const createdAt = new Date();
  const question = { id: randomUUID(), seq: seqBefore + 1, text: content, createdAt, parentId };
  const answer = { id: randomUUID(), seq: seqBefore + 2, createdAt, parentId: question.id };
  await tx.chatMessage.createMany({
    data: [
      { ...question, sessionId, role: "user", status: "complete" },
      { ...answer, sessionId, role: "assistant", text: "", status: "streaming", model },
    ],
  });
  await setActiveLeaf(tx, { sessionId, leaf: answer });
  return { question: { ...question, parts: null as unknown }, answer };
}

/**
 * A new version of an answer: an empty answer in `streaming` beside it, under its question, at the seq
 * the lease reserved; it becomes the active leaf.
 */
export async function appendRegeneratedAnswer(
  tx: Tx,
  { lease, questionId, model }: { lease: Lease; questionId: string; model: string },
) {
  const answer = { id: randomUUID(), seq: lease.seqBefore + 1, createdAt: new Date(), parentId: questionId };
  await tx.chatMessage.create({
    data: { ...answer, sessionId: lease.sessionId, role: "assistant", text: "", status: "streaming", model },
    select: { id: true },
  });
  await setActiveLeaf(tx, { sessionId: lease.sessionId, leaf: answer });
  return answer;
}

/**
 * The question an answer version answers — its nearest user ancestor (tool steps may sit between them) — with the
 * message that question follows (null: a root), both from one walk up the path.
 */
export async function getQuestionOf(
  tx: Tx,
  { sessionId, answerId }: { sessionId: string; answerId: string },
) {
  const answer = await tx.chatMessage.findFirst({
    where: { id: answerId, sessionId },
    select: { id: true, role: true, parts: true },
  });
  if (answer?.role !== "assistant" || readParts(answer.parts).toolCalls.length > 0) return null;
  // An answer's question is at most a few tool steps up (TOOL_MAX_STEPS); one more row is its parent.
  const path = await walkUp(tx, { sessionId, fromId: answerId, take: 64 });
  const at = path.findIndex((n) => n.role === "user");
  if (at < 0) return null;
  const question = await tx.chatMessage.findUnique({ where: { id: path[at]?.id }, select: questionSelect });
  if (!question) return null;
  const parent =
    question.parentId === null
      ? null
      : (path[at + 1] ??
        (await tx.chatMessage.findUnique({
          where: { id: question.parentId },
          select: { id: true, seq: true },
        })));
  return { ...question, parent: parent && { id: parent.id, seq: parent.seq } };
}

/** An answer of the session and the message right before it, for the retry rule to judge. */
export async function getAnswerWithQuestion(
  tx: Tx,
  { sessionId, answerId }: { sessionId: string; answerId: string },
) {
  const answer = await tx.chatMessage.findFirst({
    where: { id: answerId, sessionId },
    select: { id: true, seq: true, role: true, status: true },
  });
  const question = answer
    ? await tx.chatMessage.findUnique({
        where: { sessionId_seq: { sessionId, seq: answer.seq - 1 } },
        select: { ...questionSelect, role: true },
      })
    : null;
  return { answer, question };
}

/**
 * Empties an answer for another attempt: status `streaming`, its old recorded context removed; it becomes the
 * active leaf again.
 */
export async function reopenAnswer(
  tx: Tx,
  { sessionId, answerId, model }: { sessionId: string; answerId: string; model: string },
) {
  await tx.turnContext.deleteMany({ where: { messageId: answerId } });
  const answer = await tx.chatMessage.update({
    where: { id: answerId },
    data: {
      text: "",
      status: "streaming",
      model,
      promptTokens: null,
      completionTokens: null,
      createdAt: new Date(),
    },
    select: answerSelect,
  });
  await setActiveLeaf(tx, { sessionId, leaf: answer });
  return answer;
}

/** The session's one memory snapshot row, items not yet parsed. */
export async function getSnapshotBySessionId(
  client: Tx | typeof db | undefined,
  { sessionId }: { sessionId: string },
) {
  return (client ?? db).memorySnapshot.findUnique({
    where: { sessionId },
    select: { items: true, policy: true, throughSeq: true, version: true },
  });
}

/** The newest `take` history messages after `afterSeq` up to `throughSeq`, oldest first: one indexed range read. */
export async function getHistoryTail(
  client: Tx | typeof db,
  {
    sessionId,
    throughSeq,
    take,
    afterSeq = 0,
  }: { sessionId: string; throughSeq: number; take: number; afterSeq?: number },
): Promise<HistoryRow[]> {
  if (take === 0 || throughSeq <= afterSeq) return [];
  const rows = await client.chatMessage.findMany({
    where: { sessionId, seq: { lte: throughSeq, gt: afterSeq } },
    orderBy: { seq: "desc" },
    take,
    select: { seq: true, role: true, text: true, parts: true, toolCallId: true, status: true },
  });
  return rows.reverse();
}

export interface ContextRecord {
  entries: unknown;
  tokenEstimate: number;
  policy: string;
  model: string;
}

/** Stores what one turn sent to the model, addressed by the answer it produced. */
export async function recordContext(
  tx: Tx,
  { sessionId, answerId, record }: { sessionId: string; answerId: string; record: ContextRecord },
) {
  await tx.turnContext.create({
    data: {
      sessionId,
      messageId: answerId,
      entries: record.entries as object,
      tokenEstimate: record.tokenEstimate,
      policy: record.policy,
      model: record.model,
    },
    select: { id: true },
  });
}

/**
 * Stores one tool step of a turn: the assistant's tool-call message and the tool results, in one
 * transaction fenced by the lease. They take the answer's place in the history and the answer moves after them,
 * so the history reads question → call → results → answer while the answer keeps its id (the stream, the heartbeat
 * and the recorded context address it). The recorded context becomes what the next model call is sent. Null when
 * the lease is no longer this turn's.
 */
export async function appendToolStep({
  lease,
  answerId,
  answerSeq,
  answerParentId,
  call,
  results,
  model,
  context,
}: {
  lease: Lease;
  answerId: string;
  /** The answer's seq and parent before this step. */
  answerSeq: number;
  answerParentId: string | null;
  call: { text: string; toolCalls: ToolCall[] };
  results: { toolCallId: string; text: string }[];
  model: string;
  context: ContextRecord;
}): Promise<{ answerSeq: number; answerParentId: string } | null> {
  const { sessionId } = lease;
  const added = 1 + results.length;
  // The step takes the answer's place on the path: parent → call → result → … → answer.
  const callId = randomUUID();
  const resultIds = results.map(() => randomUUID());
  const lastId = resultIds.at(-1) ?? callId;
  try {
    return await db.$transaction(async (tx) => {
      const held = await tx.chatSession.updateMany({
        where: { id: sessionId, leaseId: lease.leaseId },
        data: { lastSeq: { increment: added }, activeLeafSeq: answerSeq + added },
      });
      if (held.count === 0) return null;
      await tx.chatMessage.update({
        where: { id: answerId },
        data: { seq: answerSeq + added, parentId: lastId },
        select: { id: true },
      });
      await tx.chatMessage.createMany({
        data: [
          {
            id: callId,
            sessionId,
            seq: answerSeq,
            parentId: answerParentId,
            role: "assistant" as const,
            text: call.text,
            parts: { toolCalls: call.toolCalls } as object,
            status: "complete" as const,
            model,
          },
          ...results.map((r, i) => ({
            id: resultIds[i],
            sessionId,
            seq: answerSeq + 1 + i,
            parentId: i === 0 ? callId : resultIds[i - 1],
            role: "tool" as const,
            text: r.text,
            toolCallId: r.toolCallId,
            status: "complete" as const,
          })),
        ],
      });
      await tx.turnContext.update({
        where: { messageId: answerId },
        data: { entries: context.entries as object, tokenEstimate: context.tokenEstimate },
        select: { id: true },
      });
      return { answerSeq: answerSeq + added, answerParentId: lastId };
    });
  } catch (e) {
    if (isRecordNotFound(e) || isForeignKeyViolation(e)) return null;
    throw e;
  }
}

export type TurnOutcome =
  | { status: "complete"; text: string; promptTokens?: number; completionTokens?: number }
  | { status: "failed" | "interrupted"; text: string };

/** Thrown inside the commit transaction to roll it back when the snapshot changed since the turn read it. */
class SnapshotMoved extends Error {}

export type CommitResult = "committed" | "lease_lost" | "snapshot_moved";

/**
 * Ends a turn in one transaction fenced by the lease it started with: the lease is released first, and only if it
 * is still this turn's do the answer and the replaced snapshot get written. `lease_lost`, writing nothing, when the
 * lease was taken over by a newer turn or the session was deleted meanwhile: a late commit can never overwrite a
 * newer turn, flip a status, move the snapshot back or recreate deleted data. `snapshot_moved`, writing nothing,
 * when the snapshot is no longer the version the turn started from (a summary was written meanwhile): the caller
 * folds its turn onto the new one and commits again.
 */
export async function commitTurn({
  lease,
  answerId,
  outcome,
  snapshot,
  search,
}: {
  lease: Lease;
  answerId: string;
  outcome: TurnOutcome;
  /** `baseVersion`: the snapshot version the turn's memory was read from (null: none), or "any" to replace it whatever. */
  snapshot: { items: MemoryItem[]; policy: string; throughSeq: number; baseVersion: number | null | "any" };
  /** The turn's messages to index for search, with the answer's final text; `fresh` when none was indexed yet. */
  search?: { docs: SearchDocInput[]; fresh: boolean };
}): Promise<CommitResult> {
  const { sessionId } = lease;
  try {
    return await db.$transaction(async (tx) => {
      const released = await tx.chatSession.updateMany({
        where: { id: sessionId, leaseId: lease.leaseId },
        data: { leaseId: null, leaseUntil: null, updatedAt: new Date() },
      });
      if (released.count === 0) return "lease_lost";
      await tx.chatMessage.update({
        where: { id: answerId },
        data: {
          text: outcome.text,
          status: outcome.status,
          ...(outcome.status === "complete"
            ? {
                promptTokens: outcome.promptTokens ?? null,
                completionTokens: outcome.completionTokens ?? null,
              }
            : {}),
        },
        select: { id: true },
      });
      const data = {
        items: snapshot.items as object[],
        policy: snapshot.policy,
        throughSeq: snapshot.throughSeq,
      };
      if (snapshot.baseVersion === "any") {
        await tx.memorySnapshot.upsert({
          where: { sessionId },
          create: { sessionId, ...data },
          update: { ...data, version: { increment: 1 } },
          select: { sessionId: true },
        });
      } else if (snapshot.baseVersion === null) {
        await tx.memorySnapshot.create({ data: { sessionId, ...data }, select: { sessionId: true } });
      } else {
        const replaced = await tx.memorySnapshot.updateMany({
          where: { sessionId, version: snapshot.baseVersion },
          data: { ...data, version: { increment: 1 } },
        });
        if (replaced.count === 0) throw new SnapshotMoved();
      }
      if (search) await indexMessages(tx, search.docs, { fresh: search.fresh });
      return "committed";
    });
  } catch (e) {
    if (e instanceof SnapshotMoved || isUniqueViolation(e)) return "snapshot_moved";
    if (isRecordNotFound(e) || isForeignKeyViolation(e)) return "lease_lost";
    throw e;
  }
}

/** Writes the snapshot whatever it was (a branch switch, a memory clear): a new version, so a racing summary drops. */
export async function putSnapshot(
  tx: Tx,
  {
    sessionId,
    items,
    policy,
    throughSeq,
  }: { sessionId: string; items: MemoryItem[]; policy: string; throughSeq: number },
) {
  const data = { items: items as object[], policy, throughSeq };
  await tx.memorySnapshot.upsert({
    where: { sessionId },
    create: { sessionId, ...data },
    update: { ...data, version: { increment: 1 } },
    select: { sessionId: true },
  });
}

/**
 * Replaces the snapshot's items when it is still the version they were made from (a summary written off the turn's
 * path). False when a turn committed meanwhile: the summary is dropped and made again after a later turn.
 */
export async function replaceSnapshotItems({
  sessionId,
  version,
  items,
}: {
  sessionId: string;
  version: number;
  items: MemoryItem[];
}): Promise<boolean> {
  const { count } = await db.memorySnapshot.updateMany({
    where: { sessionId, version },
    data: { items: items as object[], version: { increment: 1 } },
  });
  return count === 1;
}

/**
 * After a lost lease: keeps the text the user saw on an answer that another turn has already marked interrupted
 * (or that is still `streaming` under a lease nobody holds any more). Never touches an answer that a live turn is
 * writing again (a retry reuses the row) and never changes its status to anything but interrupted.
 */
export async function salvageAnswerText({
  lease,
  answerId,
  text,
}: {
  lease: Lease;
  answerId: string;
  text: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const session = await tx.chatSession.findUnique({
      where: { id: lease.sessionId },
      select: { leaseId: true, leaseUntil: true },
    });
    if (!session) return false;
    const held =
      session.leaseUntil !== null && session.leaseUntil > new Date() && session.leaseId !== lease.leaseId;
    await tx.chatMessage.updateMany({
      where: { id: answerId, status: held ? "interrupted" : { in: ["interrupted", "streaming"] } },
      data: { text, status: "interrupted" },
    });
    return true;
  });
}

/**
 * The recorded context of one turn, addressed by the assistant (or user) message it belongs to. With `userId`, only
 * in that user's sessions; without it (admins only) in any session.
 */
/**
 * The long-term facts a recorded context names, with their text as it is now — or `deleted: true` once the fact
 * (or the conversation it came from) was deleted: the record keeps ids, never the facts' text.
 */
async function withFactTexts(entries: unknown, userId: string | null): Promise<unknown> {
  if (!Array.isArray(entries)) return entries;
  type Entry = { facts?: { id: string }[] };
  const ids = (entries as Entry[]).flatMap((e) => e.facts?.map((f) => f.id) ?? []);
  if (ids.length === 0) return entries;
  const rows = await db.memoryFact.findMany({
    where: { id: { in: ids }, ...(userId === null ? {} : { userId }) },
    select: { id: true, text: true, supersededById: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return (entries as Entry[]).map((e) =>
    e.facts
      ? {
          ...e,
          facts: e.facts.map((f) => {
            const row = byId.get(f.id);
            return row
              ? { ...f, text: row.text, replaced: row.supersededById !== null }
              : { ...f, deleted: true };
          }),
        }
      : e,
  );
}

export async function getTurnContextByMessageId({
  sessionId,
  messageId,
  userId,
}: {
  sessionId: string;
  messageId: string;
  userId: string | null;
}) {
  const message = await db.chatMessage.findFirst({
    where: { id: messageId, sessionId, ...(userId === null ? {} : { session: { userId } }) },
    select: { id: true, role: true },
  });
  if (!message) throw new AppError("not_found", "No such message in this conversation.");
  const select = {
    id: true,
    seq: true,
    context: { select: { entries: true, tokenEstimate: true, policy: true, model: true, createdAt: true } },
  } as const;
  let row = await db.chatMessage.findUnique({ where: { id: message.id }, select });
  // A question's context is its answer's: down the newest version, past any tool steps, to the first message
  // with one.
  for (let step = 0; message.role === "user" && row && !row.context && step < 32; step++) {
    row = await db.chatMessage.findFirst({
      where: { sessionId, parentId: row.id },
      orderBy: { seq: "desc" },
      select,
    });
  }
  if (!row?.context) throw new AppError("not_found", "No context was recorded for this message.");
  const entries = await withFactTexts(row.context.entries, userId);
  return { messageId: row.id, seq: row.seq, ...row.context, entries };
}

/** Records that a summary could not be made (the originals were kept): ids and counts, never content. */
export async function recordSummaryFailure({
  sessionId,
  status,
  messages,
}: {
  sessionId: string;
  status: "blank" | "failed";
  messages: number;
}) {
  await db.auditLog.create({
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
