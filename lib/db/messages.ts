import "server-only";
import { randomUUID } from "node:crypto";
import type { ToolCall } from "@/lib/memory";
import { db, type TxOption } from "./client";
import { isForeignKeyViolation, isRecordNotFound } from "./errors";
import type { Lease } from "./leases";
import { readParts } from "./parts";
import { execute } from "./sql";
import { withTransaction } from "./transaction";
import { type HistoryRow, setActiveLeaf, walkUp } from "./tree";
import type { ContextRecord } from "./turn-contexts";

// The chat turn's messages (ChatMessage): the question and its answer appended at the seqs the lease reserved,
// versions and retries of an answer, the tool steps between them, and the history memory is rebuilt from. Plain
// queries: what memory is made of is decided by lib/memory and sequenced by lib/chat.

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
  {
    lease,
    content,
    model,
    parentId,
  }: { lease: Lease; content: string; model: string; parentId: string | null },
  { tx = db }: TxOption = {},
) {
  const { sessionId, seqBefore } = lease;
  const createdAt = new Date();
  const question = { id: randomUUID(), seq: seqBefore + 1, text: content, createdAt, parentId };
  const answer = { id: randomUUID(), seq: seqBefore + 2, createdAt, parentId: question.id };
  // Written out (sql.ts): every turn appends its two messages.
  await execute(
    tx,
    {
      sqlite: `INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "parentId", "role", "text", "status", "model", "createdAt")
               VALUES (?, ?, ?, ?, 'user', ?, 'complete', NULL, ?), (?, ?, ?, ?, 'assistant', '', 'streaming', ?, ?)`,
      postgresql: `INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "parentId", "role", "text", "status", "model", "createdAt")
                   VALUES ($1, $2, $3, $4, 'user', $5, 'complete', NULL, $6), ($7, $8, $9, $10, 'assistant', '', 'streaming', $11, $12)`,
    },
    [
      question.id,
      sessionId,
      question.seq,
      question.parentId,
      question.text,
      createdAt,
      answer.id,
      sessionId,
      answer.seq,
      answer.parentId,
      model,
      createdAt,
    ],
  );
  await setActiveLeaf({ sessionId, leaf: answer }, { tx });
  return { question: { ...question, parts: null as unknown }, answer };
}

/**
 * A new version of an answer: an empty answer in `streaming` beside it, under its question, at the seq
 * the lease reserved; it becomes the active leaf.
 */
export async function appendRegeneratedAnswer(
  { lease, questionId, model }: { lease: Lease; questionId: string; model: string },
  { tx = db }: TxOption = {},
) {
  const answer = { id: randomUUID(), seq: lease.seqBefore + 1, createdAt: new Date(), parentId: questionId };
  await tx.chatMessage.create({
    data: { ...answer, sessionId: lease.sessionId, role: "assistant", text: "", status: "streaming", model },
    select: { id: true },
  });
  await setActiveLeaf({ sessionId: lease.sessionId, leaf: answer }, { tx });
  return answer;
}

/**
 * The question an answer version answers — its nearest user ancestor (tool steps may sit between them) — with the
 * message that question follows (null: a root), both from one walk up the path.
 */
export async function getQuestionOf(
  { sessionId, answerId }: { sessionId: string; answerId: string },
  { tx = db }: TxOption = {},
) {
  const answer = await tx.chatMessage.findFirst({
    where: { id: answerId, sessionId },
    select: { id: true, role: true, parts: true },
  });
  if (answer?.role !== "assistant" || readParts(answer.parts).toolCalls.length > 0) return null;
  // An answer's question is at most a few tool steps up (TOOL_MAX_STEPS); one more row is its parent.
  const path = await walkUp({ sessionId, fromId: answerId, take: 64 }, { tx });
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
  { sessionId, answerId }: { sessionId: string; answerId: string },
  { tx = db }: TxOption = {},
) {
  const answer = await tx.chatMessage.findFirst({
    where: { id: answerId, sessionId },
    select: { id: true, seq: true, role: true, status: true, parentId: true },
  });
  if (!answer) return { answer, question: null, steps: [] };
  // The messages right before it, newest first: the tool steps it made (calls and results), then its question.
  const before = await tx.chatMessage.findMany({
    where: { sessionId, seq: { lt: answer.seq, gte: answer.seq - STEPS_BEFORE_ANSWER } },
    orderBy: { seq: "desc" },
    select: { ...questionSelect, role: true, toolCallId: true, status: true },
  });
  const isStep = (m: (typeof before)[number]) =>
    m.role === "tool" || (m.role === "assistant" && readParts(m.parts).toolCalls.length > 0);
  const at = before.findIndex((m) => !isStep(m));
  const steps = before.slice(0, at < 0 ? before.length : at).reverse();
  // Steps on the answer's own path only (each row's parent is the one before it, the answer's the last step).
  const path = [before[at], ...steps];
  const onPath = path.every((m, i) => i === 0 || m?.parentId === path[i - 1]?.id);
  if (!onPath || (steps.length > 0 && answer.parentId !== steps.at(-1)?.id)) {
    return { answer, question: null, steps: [] };
  }
  return { answer, question: at < 0 ? null : (before[at] ?? null), steps };
}

/** How far back a retried answer's question may be: its tool steps are at most this many messages. */
const STEPS_BEFORE_ANSWER = 64;

/**
 * Empties an answer for another attempt: status `streaming`, its old recorded context removed; it becomes the
 * active leaf again.
 */
export async function reopenAnswer(
  { sessionId, answerId, model }: { sessionId: string; answerId: string; model: string },
  { tx = db }: TxOption = {},
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
  await setActiveLeaf({ sessionId, leaf: answer }, { tx });
  return answer;
}

/** The newest `take` history messages after `afterSeq` up to `throughSeq`, oldest first: one indexed range read. */
export async function getHistoryTail(
  {
    sessionId,
    throughSeq,
    take,
    afterSeq = 0,
  }: { sessionId: string; throughSeq: number; take: number; afterSeq?: number },
  { tx = db }: TxOption = {},
): Promise<HistoryRow[]> {
  if (take === 0 || throughSeq <= afterSeq) return [];
  const rows = await tx.chatMessage.findMany({
    where: { sessionId, seq: { lte: throughSeq, gt: afterSeq } },
    orderBy: { seq: "desc" },
    take,
    select: { seq: true, role: true, text: true, parts: true, toolCallId: true, status: true },
  });
  return rows.reverse();
}

/**
 * Stores one tool step of a turn: the assistant's tool-call message and the tool results, in one
 * transaction fenced by the lease (its own: it takes no `tx`). They take the answer's place in the history and the
 * answer moves after them, so the history reads question → call → results → answer while the answer keeps its id
 * (the stream, the heartbeat and the recorded context address it). The recorded context becomes what the next model
 * call is sent. Null when the lease is no longer this turn's.
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
    return await withTransaction(async (tx) => {
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
