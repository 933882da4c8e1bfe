import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { fold, type MemoryItem, type MemoryPolicy, restore, type ToolCall } from "@/lib/memory";
import { type Db, db, type Prisma, type Tx } from "./client";
import { isForeignKeyViolation, isRecordNotFound } from "./errors";

type MessageRow = {
  seq: number;
  role: MemoryItem["role"];
  text: string;
  parts: unknown;
  toolCallId: string | null;
};

/** The structured parts of a stored message (ChatMessage.parts): image URLs and tool calls, empty when absent. */
export function readParts(value: unknown): { imageUrls: string[]; toolCalls: ToolCall[] } {
  const parts = (typeof value === "object" && value !== null ? value : {}) as {
    imageUrls?: unknown;
    toolCalls?: unknown;
  };
  return {
    imageUrls: Array.isArray(parts.imageUrls) ? (parts.imageUrls as string[]) : [],
    toolCalls: Array.isArray(parts.toolCalls) ? (parts.toolCalls as ToolCall[]) : [],
  };
}

export function messageToItem(row: MessageRow): MemoryItem {
  const item: MemoryItem = { role: row.role, text: row.text, seq: row.seq };
  const parts = readParts(row.parts);
  if (parts.imageUrls.length) item.imageUrls = parts.imageUrls;
  if (parts.toolCalls.length) item.toolCalls = parts.toolCalls;
  if (row.toolCallId) item.toolCallId = row.toolCallId;
  return item;
}

export interface ContextRecord {
  entries: unknown;
  tokenEstimate: number;
  policy: string;
  model: string;
}

export interface TurnStart {
  sessionId: string;
  leaseId: string;
  /** Memory as it stood before this turn (may contain the question itself on a retry). */
  memory: MemoryItem[];
  user: { id: string; seq: number; text: string; createdAt: Date };
  assistant: { id: string; seq: number; createdAt: Date };
  retried: boolean;
}

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");
const busy = () =>
  new AppError(
    "turn_in_progress",
    "An answer is still being written in this conversation. Wait for it or stop it.",
  );

/**
 * Takes the session's turn lease with one conditional UPDATE. Returns the session's lastSeq before and after, and
 * whether the lease was taken over from a turn that never released it (its process died: its lease expired).
 * A live lease held by another turn → 409; a session that is missing or not the caller's → 404.
 *
 * The common case — the previous turn committed and released the lease — is one statement. Only when that finds
 * no free lease does a second UPDATE take an expired one (and the caller then tidies up after the dead turn).
 */
async function takeLease(
  tx: Tx,
  {
    sessionId,
    userId,
    leaseId,
    leaseSeconds,
    seqs,
  }: { sessionId: string; userId: string; leaseId: string; leaseSeconds: number; seqs: number },
) {
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
      select: { lastSeq: true },
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
  return { before: row.lastSeq - seqs, after: row.lastSeq, abandoned };
}

/** Whether a stored snapshot is what `policy` makes of the history through `throughSeq`. */
export function isSnapshotCurrent(
  snap: { policy: string; throughSeq: number },
  { policy, throughSeq }: { policy: MemoryPolicy; throughSeq: number },
) {
  return snap.policy === policy.id && snap.throughSeq === throughSeq;
}

/**
 * Memory rebuilt from an indexed read of at most `tailRows` rows of the history tail (never the whole history).
 * Unfinished answers are history, not memory: only user messages and completed messages are folded in.
 */
export async function rebuildMemory(
  client: Tx | Db,
  {
    sessionId,
    policy,
    throughSeq,
    tailRows,
  }: { sessionId: string; policy: MemoryPolicy; throughSeq: number; tailRows: number },
): Promise<MemoryItem[]> {
  if (tailRows === 0 || throughSeq === 0) return [];
  const rows = await client.chatMessage.findMany({
    where: { sessionId, seq: { lte: throughSeq } },
    orderBy: { seq: "desc" },
    take: tailRows,
    select: { seq: true, role: true, text: true, parts: true, toolCallId: true, status: true },
  });
  const items = rows
    .reverse()
    .filter((r) => r.role === "user" || r.status === "complete")
    .map(messageToItem);
  return policy.apply(items);
}

/** Reads memory: the one snapshot row, or a rebuild when it is missing, behind, or made by another policy. */
async function readMemory(
  tx: Tx,
  args: { sessionId: string; policy: MemoryPolicy; throughSeq: number; tailRows: number },
): Promise<MemoryItem[]> {
  const snap = await tx.memorySnapshot.findUnique({
    where: { sessionId: args.sessionId },
    select: { items: true, policy: true, throughSeq: true },
  });
  if (snap && isSnapshotCurrent(snap, args)) return restore(snap.items);
  return rebuildMemory(tx, args);
}

/**
 * Starts a turn in one transaction: lease, user message (or the retried one), an assistant placeholder in
 * status `streaming`, memory, and the recorded context that `record` builds from that memory.
 */
export async function beginTurn({
  sessionId,
  userId,
  content,
  retryMessageId,
  policy,
  tailRows,
  leaseSeconds,
  model,
  record,
}: {
  sessionId: string;
  userId: string;
  content?: string;
  retryMessageId?: string;
  policy: MemoryPolicy;
  tailRows: number;
  leaseSeconds: number;
  model: string;
  record: (memory: MemoryItem[], question: MemoryItem) => ContextRecord;
}): Promise<{ turn: TurnStart; context: ContextRecord }> {
  const leaseId = randomUUID();
  return db.$transaction(async (tx) => {
    const isRetry = retryMessageId !== undefined;
    const seq = await takeLease(tx, { sessionId, userId, leaseId, leaseSeconds, seqs: isRetry ? 0 : 2 });
    let user: TurnStart["user"];
    let assistant: TurnStart["assistant"];

    if (isRetry) {
      const failed = await tx.chatMessage.findFirst({
        where: {
          id: retryMessageId,
          sessionId,
          seq: seq.before,
          role: "assistant",
          status: { in: ["failed", "interrupted"] },
        },
        select: { id: true, seq: true },
      });
      const question = failed
        ? await tx.chatMessage.findUnique({
            where: { sessionId_seq: { sessionId, seq: failed.seq - 1 } },
            select: { id: true, seq: true, text: true, createdAt: true, role: true },
          })
        : null;
      if (!failed || question?.role !== "user") {
        throw new AppError("conflict", "Only the latest failed or interrupted answer can be retried.");
      }
      await tx.turnContext.deleteMany({ where: { messageId: failed.id } });
      const reset = await tx.chatMessage.update({
        where: { id: failed.id },
        data: {
          text: "",
          status: "streaming",
          model,
          promptTokens: null,
          completionTokens: null,
          createdAt: new Date(),
        },
        select: { id: true, seq: true, createdAt: true },
      });
      user = { id: question.id, seq: question.seq, text: question.text, createdAt: question.createdAt };
      assistant = reset;
    } else {
      // A turn whose process died keeps status `streaming` after its lease expired; it ended, so say so. Only a
      // lease that was taken over can have left one behind: a released lease means its turn committed.
      if (seq.abandoned && seq.before > 0) {
        await tx.chatMessage.updateMany({
          where: { sessionId, seq: seq.before, status: "streaming" },
          data: { status: "interrupted" },
        });
      }
      const text = content ?? "";
      user = await tx.chatMessage.create({
        data: { sessionId, seq: seq.before + 1, role: "user", text, status: "complete" },
        select: { id: true, seq: true, text: true, createdAt: true },
      });
      assistant = await tx.chatMessage.create({
        data: { sessionId, seq: seq.before + 2, role: "assistant", text: "", status: "streaming", model },
        select: { id: true, seq: true, createdAt: true },
      });
    }

    const memory = await readMemory(tx, { sessionId, policy, throughSeq: seq.before, tailRows });
    const question: MemoryItem = { role: "user", text: user.text, seq: user.seq };
    const context = record(memory, question);
    await tx.turnContext.create({
      data: {
        sessionId,
        messageId: assistant.id,
        entries: context.entries as object,
        tokenEstimate: context.tokenEstimate,
        policy: context.policy,
        model: context.model,
      },
      select: { id: true },
    });
    return { turn: { sessionId, leaseId, memory, user, assistant, retried: isRetry }, context };
  });
}

export type TurnOutcome =
  | { status: "complete"; text: string; promptTokens?: number; completionTokens?: number }
  | { status: "failed" | "interrupted"; text: string };

/**
 * Ends a turn in one transaction: the assistant message gets its text and status, the snapshot is replaced
 * (never appended) and the lease is released. Returns false, writing nothing, when the session was deleted
 * meanwhile — a late stream must never recreate deleted data.
 */
export async function commitTurn({
  turn,
  outcome,
  policy,
}: {
  turn: TurnStart;
  outcome: TurnOutcome;
  policy: MemoryPolicy;
}): Promise<boolean> {
  const question: MemoryItem = { role: "user", text: turn.user.text, seq: turn.user.seq };
  const added: MemoryItem[] =
    outcome.status === "complete"
      ? [question, { role: "assistant", text: outcome.text, seq: turn.assistant.seq }]
      : [question];
  // The policy's output is already a plain copy, ready to store.
  const items = fold({ items: turn.memory.filter((i) => i.seq !== turn.user.seq), policy, add: added });
  try {
    await db.$transaction(async (tx) => {
      await tx.chatMessage.update({
        where: { id: turn.assistant.id },
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
      await tx.memorySnapshot.upsert({
        where: { sessionId: turn.sessionId },
        create: {
          sessionId: turn.sessionId,
          items: items as object[],
          policy: policy.id,
          throughSeq: turn.assistant.seq,
        },
        update: {
          items: items as object[],
          policy: policy.id,
          throughSeq: turn.assistant.seq,
          version: { increment: 1 },
        },
        select: { sessionId: true },
      });
      await tx.chatSession.updateMany({
        where: { id: turn.sessionId, leaseId: turn.leaseId },
        data: { leaseId: null, leaseUntil: null, updatedAt: new Date() },
      });
    });
    return true;
  } catch (e) {
    if (isRecordNotFound(e) || isForeignKeyViolation(e)) return false;
    throw e;
  }
}

/**
 * The recorded context of one turn, addressed by the assistant (or user) message it belongs to. With `userId`, only
 * in that user's sessions; without it (admins only) in any session.
 */
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
    select: { seq: true, role: true },
  });
  if (!message) throw new AppError("not_found", "No such message in this conversation.");
  const row = await db.chatMessage.findUnique({
    where: { sessionId_seq: { sessionId, seq: message.role === "user" ? message.seq + 1 : message.seq } },
    select: {
      id: true,
      seq: true,
      context: { select: { entries: true, tokenEstimate: true, policy: true, model: true, createdAt: true } },
    },
  });
  if (!row?.context) throw new AppError("not_found", "No context was recorded for this message.");
  return { messageId: row.id, seq: row.seq, ...row.context };
}
