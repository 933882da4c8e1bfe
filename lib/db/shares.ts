import "server-only";
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { walkUp } from "./tree";

// Share links (issue 25): a snapshot of a conversation's active path when it was shared. Only each message's role,
// text and time are copied — never memory, recorded contexts, facts, tool steps or attachments — so the page shows
// what the conversation said then, whatever happens to it later. The id is the link's only secret.

/** Longest path a share copies; a conversation longer than this shares its latest messages. */
const SHARE_MAX_MESSAGES = 2_000;

export type SharedMessage = {
  role: "user" | "assistant";
  text: string;
  createdAt: string;
};

export interface ShareView {
  id: string;
  sessionId: string;
  title: string;
  createdAt: Date;
  messages: number;
}

const notFound = () => new AppError("not_found", "This share link does not exist or is not yours.");
const sessionNotFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");

/** 18 random bytes (144 bits), base64url: 24 characters. */
const newShareId = () => randomBytes(18).toString("base64url");

/** Copies the user's conversation's active path (user and assistant messages with text) into a new share. */
export async function createShareForUser(
  { userId, sessionId }: { userId: string; sessionId: string },
  { tx = db }: TxOption = {},
): Promise<{ id: string }> {
  const session = await tx.chatSession.findFirst({
    where: { id: sessionId, userId },
    select: { title: true, activeLeafId: true, temporary: true },
  });
  if (!session) throw sessionNotFound();
  if (session.temporary) throw new AppError("conflict", "A temporary chat cannot be shared.");
  if (!session.activeLeafId)
    throw new AppError("conflict", "This conversation has no messages to share yet.");
  const nodes = await walkUp({ sessionId, fromId: session.activeLeafId, take: SHARE_MAX_MESSAGES }, { tx });
  const rows = await tx.chatMessage.findMany({
    where: { id: { in: nodes.map((n) => n.id) }, sessionId, role: { in: ["user", "assistant"] } },
    select: { seq: true, role: true, text: true, createdAt: true },
  });
  rows.sort((a, b) => a.seq - b.seq);
  const messages: SharedMessage[] = rows
    .filter((m) => m.text.trim() !== "")
    .map((m) => ({
      role: m.role as SharedMessage["role"],
      text: m.text,
      createdAt: m.createdAt.toISOString(),
    }));
  if (messages.length === 0)
    throw new AppError("conflict", "This conversation has no messages to share yet.");
  return tx.share.create({
    data: { id: newShareId(), userId, sessionId, title: session.title, messages },
    select: { id: true },
  });
}

/** The user's share links, newest first, with how many messages each holds. */
export async function listSharesByUserId(
  { userId }: { userId: string },
  { tx = db }: TxOption = {},
): Promise<ShareView[]> {
  const rows = await tx.share.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 500,
    select: { id: true, sessionId: true, title: true, createdAt: true, messages: true },
  });
  return rows.map(({ messages, ...r }) => ({
    ...r,
    messages: Array.isArray(messages) ? messages.length : 0,
  }));
}

/** Revokes one of the user's share links at once; another user's (or a gone) link is a 404. */
export async function deleteShareForUser(
  { userId, shareId }: { userId: string; shareId: string },
  { tx = db }: TxOption = {},
): Promise<void> {
  const { count } = await tx.share.deleteMany({ where: { id: shareId, userId } });
  if (count === 0) throw notFound();
}

/** A share as anyone with its link sees it, or null (never shared, revoked, or its conversation deleted). */
export async function getPublicShare(
  { shareId }: { shareId: string },
  { tx = db }: TxOption = {},
): Promise<{ title: string; createdAt: Date; messages: SharedMessage[] } | null> {
  const row = await tx.share.findUnique({
    where: { id: shareId },
    select: { title: true, createdAt: true, messages: true },
  });
  if (!row) return null;
  return { title: row.title, createdAt: row.createdAt, messages: row.messages as unknown as SharedMessage[] };
}
