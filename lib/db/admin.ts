import "server-only";
import { env } from "@/lib/env";
import type { MemoryItem } from "@/lib/memory";
import type { MessageRole, MessageStatus } from "@/lib/types";
import { databaseKind, db, type Prisma, type TxOption } from "./client";
import { type Cursor, keysetArgs, keysetPage } from "./cursor";
import { unsafeDeleteSessionById } from "./sessions";
import { getTurnContextByMessageId } from "./turn-contexts";

// Admin queries over every user's sessions. Callers must have checked the ADMIN role (route("admin", …) or the
// admin layout); nothing here filters by owner. See docs/decisions/004-admin-console.md.

const ownerSelect = { id: true, email: true, name: true } as const;

export const adminSessionSelect = {
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
  lastSeq: true,
  leaseUntil: true,
  user: { select: ownerSelect },
} as const;

type AdminSessionRow = Prisma.ChatSessionGetPayload<{ select: typeof adminSessionSelect }>;

export interface AdminSession {
  id: string;
  title: string;
  owner: { id: string; email: string; name: string };
  /** ChatSession.lastSeq: seq is gap-free and starts at 1, so it is the number of messages without a COUNT. */
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

function toAdminSession(row: AdminSessionRow): AdminSession {
  return {
    id: row.id,
    title: row.title,
    owner: row.user,
    messageCount: row.lastSeq,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A case-insensitive substring match on both dialects (SQLite's LIKE already ignores ASCII case). */
function contains(q: string): Prisma.StringFilter {
  return (
    databaseKind(env.DATABASE_URL) === "postgresql" ? { contains: q, mode: "insensitive" } : { contains: q }
  ) as Prisma.StringFilter;
}

/**
 * The findMany arguments of one page of the admin session list, exported so the query-plan test can run the very
 * same query: keyset pagination (lib/db/cursor.ts) on (updatedAt desc, id desc), served by the index
 * ChatSession(updatedAt, id).
 */
export function adminSessionsPageArgs({ q, cursor, limit }: { q?: string; cursor?: Cursor; limit: number }) {
  const { where, ...args } = keysetArgs({ key: "updatedAt", cursor, limit });
  const search: Prisma.ChatSessionWhereInput = q
    ? { OR: [{ title: contains(q) }, { user: { email: contains(q) } }] }
    : {};
  return {
    ...args,
    where: { AND: [where, search] },
    select: adminSessionSelect,
  } satisfies Prisma.ChatSessionFindManyArgs;
}

/** Every user's sessions, most recently active first, one page at a time; `q` matches title or owner email. */
export async function listSessionsForAdmin(
  {
    q,
    cursor,
    limit,
  }: {
    q?: string;
    cursor?: Cursor;
    limit: number;
  },
  { tx = db }: TxOption = {},
): Promise<{ sessions: AdminSession[]; nextCursor: Cursor | null }> {
  const rows = await tx.chatSession.findMany(adminSessionsPageArgs({ q, cursor, limit }));
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (s) => ({ at: s.updatedAt, id: s.id }) });
  return { sessions: page.map(toAdminSession), nextCursor };
}

export interface AdminMessage {
  id: string;
  seq: number;
  role: MessageRole;
  text: string;
  status: MessageStatus;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  toolCallId: string | null;
  toolCalls: NonNullable<MemoryItem["toolCalls"]>;
  imageUrls: string[];
  createdAt: Date;
}

/** What one turn sent to the model, in any user's session. */
export async function getTurnContextForAdmin(
  { sessionId, messageId }: { sessionId: string; messageId: string },
  { tx }: TxOption = {},
) {
  return getTurnContextByMessageId({ sessionId, messageId, userId: null }, { tx });
}

/** Deletes any user's session with everything derived from it; the receipt and audit entry name the admin. */
export async function deleteSessionForAdmin({ sessionId, actorId }: { sessionId: string; actorId: string }) {
  return unsafeDeleteSessionById({ sessionId, actorId });
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AdminOverview {
  users: number;
  admins: number;
  disabledUsers: number;
  sessions: number;
  messages: number;
  /** Messages created today and on the 6 UTC days before (the last 7 bars of `perDay`). */
  messagesLast7Days: number;
  /** Oldest first, one entry per UTC day, ending today. */
  perDay: { day: string; count: number }[];
}

/**
 * Dashboard counts. Messages are counted as rows, like each day's count (a range count on the ChatMessage(createdAt)
 * index): a session's lastSeq also counts sequence numbers whose messages are gone, so a sum of it ran ahead of
 * the days' counts.
 */
export async function getAdminOverview(
  {
    now = new Date(),
    days = 14,
  }: {
    now?: Date;
    days?: number;
  } = {},
  { tx = db }: TxOption = {},
): Promise<AdminOverview> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const starts = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS));
  const [[users, admins, disabledUsers, sessions, messages], counts] = await Promise.all([
    Promise.all([
      tx.user.count(),
      tx.user.count({ where: { role: "ADMIN", disabledAt: null } }),
      tx.user.count({ where: { disabledAt: { not: null } } }),
      tx.chatSession.count(),
      tx.chatMessage.count(),
    ]),
    Promise.all(
      starts.map((start) =>
        tx.chatMessage.count({
          where: { createdAt: { gte: start, lt: new Date(start.getTime() + DAY_MS) } },
        }),
      ),
    ),
  ]);
  const perDay = starts.map((start, i) => ({
    day: start.toISOString().slice(0, 10),
    count: counts[i] ?? 0,
  }));
  return {
    users,
    admins,
    disabledUsers,
    sessions,
    messages,
    messagesLast7Days: perDay.slice(-7).reduce((total, d) => total + d.count, 0),
    perDay,
  };
}
