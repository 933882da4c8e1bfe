import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { execute, jsonArg } from "./sql";

// What each turn sent to the model (TurnContext), addressed by the answer it produced: recorded when the turn
// begins, replaced after each tool step (messages.ts), read back by the context inspector.

export interface ContextRecord {
  entries: unknown;
  /** The tool definitions offered (with their tokens) and the tool servers that were unavailable. */
  tools?: unknown;
  tokenEstimate: number;
  policy: string;
  model: string;
}

/** Stores what one turn sent to the model, addressed by the answer it produced. */
export async function recordContext(
  { sessionId, answerId, record }: { sessionId: string; answerId: string; record: ContextRecord },
  { tx = db }: TxOption = {},
) {
  // Written out (sql.ts): every turn records one.
  await execute(
    tx,
    {
      sqlite: `INSERT INTO "TurnContext" ("id", "sessionId", "messageId", "entries", "tools", "tokenEstimate", "policy", "model", "createdAt")
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      postgresql: `INSERT INTO "TurnContext" ("id", "sessionId", "messageId", "entries", "tools", "tokenEstimate", "policy", "model", "createdAt")
                   VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9)`,
    },
    [
      randomUUID(),
      sessionId,
      answerId,
      jsonArg(record.entries),
      jsonArg(record.tools),
      record.tokenEstimate,
      record.policy,
      record.model,
      new Date(),
    ],
  );
}

/**
 * The long-term facts a recorded context names, with their text as it is now — or `deleted: true` once the fact
 * (or the conversation it came from) was deleted: the record keeps ids, never the facts' text.
 */
async function withFactTexts(
  entries: unknown,
  userId: string | null,
  { tx = db }: TxOption,
): Promise<unknown> {
  if (!Array.isArray(entries)) return entries;
  type Entry = { facts?: { id: string }[] };
  const ids = (entries as Entry[]).flatMap((e) => e.facts?.map((f) => f.id) ?? []);
  if (ids.length === 0) return entries;
  const rows = await tx.memoryFact.findMany({
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

/**
 * The recorded context of one turn, addressed by the assistant (or user) message it belongs to. With `userId`, only
 * in that user's sessions; without it (admins only) in any session.
 */
export async function getTurnContextByMessageId(
  {
    sessionId,
    messageId,
    userId,
  }: {
    sessionId: string;
    messageId: string;
    userId: string | null;
  },
  { tx = db }: TxOption = {},
) {
  const message = await tx.chatMessage.findFirst({
    where: { id: messageId, sessionId, ...(userId === null ? {} : { session: { userId } }) },
    select: { id: true, role: true },
  });
  if (!message) throw new AppError("not_found", "No such message in this conversation.");
  const select = {
    id: true,
    seq: true,
    context: {
      select: { entries: true, tools: true, tokenEstimate: true, policy: true, model: true, createdAt: true },
    },
  } as const;
  let row = await tx.chatMessage.findUnique({ where: { id: message.id }, select });
  // A question's context is its answer's: down the newest version, past any tool steps, to the first message
  // with one.
  for (let step = 0; message.role === "user" && row && !row.context && step < 32; step++) {
    row = await tx.chatMessage.findFirst({
      where: { sessionId, parentId: row.id },
      orderBy: { seq: "desc" },
      select,
    });
  }
  if (!row?.context) throw new AppError("not_found", "No context was recorded for this message.");
  const entries = await withFactTexts(row.context.entries, userId, { tx });
  return { messageId: row.id, seq: row.seq, ...row.context, entries };
}

/**
 * The recorded entries of the contexts of `messageIds` in one session, for a page of answers: one statement for the
 * page (TurnContext.messageId is unique), whatever its length. Answers without a record are absent.
 */
export async function listTurnContextEntries(
  { sessionId, messageIds }: { sessionId: string; messageIds: readonly string[] },
  { tx = db }: TxOption = {},
): Promise<{ messageId: string; entries: unknown }[]> {
  if (messageIds.length === 0) return [];
  return tx.turnContext.findMany({
    where: { sessionId, messageId: { in: [...messageIds] } },
    select: { messageId: true, entries: true },
  });
}
