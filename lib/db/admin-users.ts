import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/types";
import { countApiKeysByUserIds } from "./api-keys";
import { checkpointed } from "./checkpoint";
import { databaseKind, db, type Prisma, type Tx } from "./client";
import { badCursor, keysetPage } from "./cursor";
import { isRecordNotFound } from "./errors";
import { countFactsByUserIds } from "./memories";
import { type SafeUser, userSelect } from "./users";

// User administration. Every change runs in a SERIALIZABLE transaction that re-checks, after its own write, that
// an enabled administrator is left: two admins demoting each other at the same moment cannot both succeed (one
// is retried and then refused). Callers must have checked the ADMIN role.

export interface AdminUser extends SafeUser {
  sessionCount: number;
  /** Sum of the user's ChatSession.lastSeq (seq is gap-free), so no message rows are counted. */
  messageCount: number;
  /** Working (not revoked) API keys. */
  apiKeyCount: number;
  /** Long-term facts stored (active and replaced). */
  memoryFactCount: number;
}

export interface UserDeletionReceipt {
  userId: string;
  deleted: {
    User: number;
    ChatSession: number;
    ChatMessage: number;
    MemorySnapshot: number;
    TurnContext: number;
    MemoryFact: number;
    Attachment: number;
    AttachmentBytes: number;
  };
  /** Audit entries the user made, kept with the actor removed (AuditLog.actorId is SET NULL). */
  anonymized: { AuditLog: number };
}

const notFound = () => new AppError("not_found", "This user does not exist (they may have been deleted).");
const lastAdmin = () =>
  new AppError(
    "last_admin",
    "Recall needs at least one active administrator. Promote someone else before making this change.",
  );

function encodeUserCursor(email: string): string {
  return Buffer.from(JSON.stringify([email])).toString("base64url");
}

export function decodeUserCursor(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const [email] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown[];
    if (typeof email !== "string" || email.includes("\u0000")) throw new Error("bad cursor");
    return email;
  } catch {
    throw badCursor();
  }
}

function emailContains(q: string): Prisma.StringFilter {
  return (
    databaseKind(env.DATABASE_URL) === "postgresql" ? { contains: q, mode: "insensitive" } : { contains: q }
  ) as Prisma.StringFilter;
}

/** Users by email (keyset on the unique email index), with session and message counts for that page only. */
export async function listUsersForAdmin({
  q,
  afterEmail,
  limit,
}: {
  q?: string;
  afterEmail?: string;
  limit: number;
}): Promise<{ users: AdminUser[]; nextCursor: string | null }> {
  const and: Prisma.UserWhereInput[] = [];
  if (afterEmail !== undefined) and.push({ email: { gt: afterEmail } });
  if (q) and.push({ OR: [{ email: emailContains(q) }, { name: emailContains(q) }] });
  const rows = await db.user.findMany({
    where: and.length > 0 ? { AND: and } : {},
    orderBy: { email: "asc" },
    take: limit + 1,
    select: userSelect,
  });
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (u) => encodeUserCursor(u.email) });
  const counts = page.length
    ? await db.chatSession.groupBy({
        by: ["userId"],
        where: { userId: { in: page.map((u) => u.id) } },
        _count: { _all: true },
        _sum: { lastSeq: true },
      })
    : [];
  const byUser = new Map(counts.map((c) => [c.userId, c]));
  const keyCounts = await countApiKeysByUserIds(page.map((u) => u.id));
  const factCounts = await countFactsByUserIds(page.map((u) => u.id));
  return {
    users: page.map((u) => ({
      ...u,
      sessionCount: byUser.get(u.id)?._count._all ?? 0,
      messageCount: byUser.get(u.id)?._sum.lastSeq ?? 0,
      apiKeyCount: keyCounts.get(u.id) ?? 0,
      memoryFactCount: factCounts.get(u.id) ?? 0,
    })),
    nextCursor,
  };
}

/**
 * A serialization failure (PostgreSQL 40001). Prisma reports it as P2034 from some paths and, from inside an
 * interactive transaction, as the driver adapter's error whose cause has kind `TransactionWriteConflict`.
 */
function isWriteConflict(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  if ("code" in e && e.code === "P2034") return true;
  const cause =
    "cause" in e ? (e.cause as { kind?: unknown; originalCode?: unknown } | undefined) : undefined;
  return cause?.kind === "TransactionWriteConflict" || cause?.originalCode === "40001";
}

/** Runs `fn` SERIALIZABLE, retrying a serialization failure twice before giving up with a 409. */
async function serializable<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(fn, { isolationLevel: "Serializable" });
    } catch (e) {
      if (!isWriteConflict(e)) throw e;
      if (attempt >= 3) {
        throw new AppError(
          "conflict",
          "Accounts were changed by someone else at the same moment. Try again.",
          {
            cause: e,
          },
        );
      }
    }
  }
}

/** Enabled administrators: the users page offers no "Remove admin" to the only one. */
export async function countActiveAdmins(
  _args: Record<string, never> = {},
  { tx }: { tx?: Tx } = {},
): Promise<number> {
  return (tx ?? db).user.count({ where: { role: "ADMIN", disabledAt: null } });
}

async function assertAdminLeft(tx: Tx) {
  if ((await countActiveAdmins({}, { tx })) === 0) throw lastAdmin();
}

/**
 * Changes a user's role and/or disabled state. An admin may not disable themselves; no change may leave Recall
 * without an enabled admin. Each actual change writes one audit entry (ids only).
 */
export async function updateUserForAdmin({
  actorId,
  userId,
  role,
  disabled,
}: {
  actorId: string;
  userId: string;
  role?: Role;
  disabled?: boolean;
}): Promise<SafeUser> {
  if (disabled === true && userId === actorId) {
    throw new AppError("self_action", "You cannot disable your own account. Ask another administrator.");
  }
  return serializable(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: userSelect });
    if (!before) throw notFound();
    const data: Prisma.UserUpdateInput = {};
    const audits: Prisma.AuditLogCreateManyInput[] = [];
    const audit = (action: string, details: Record<string, string | number | null>) =>
      audits.push({ actorId, action, targetType: "User", targetId: userId, details });

    if (role !== undefined && role !== before.role) {
      data.role = role;
      audit(role === "ADMIN" ? "user.promote" : "user.demote", { from: before.role, to: role });
    }
    if (disabled !== undefined && disabled !== (before.disabledAt !== null)) {
      data.disabledAt = disabled ? new Date() : null;
      audit(disabled ? "user.disable" : "user.enable", {});
    }
    if (audits.length === 0) return before;

    const after = await tx.user.update({ where: { id: userId }, data, select: userSelect });
    await assertAdminLeft(tx);
    await tx.auditLog.createMany({ data: audits });
    return after;
  });
}

/**
 * Deletes a user and, through foreign keys, all their sessions with everything derived from them, in one
 * transaction. Their own audit entries stay, without the actor. Returns the rows removed per table.
 */
export async function deleteUserForAdmin({
  actorId,
  userId,
}: {
  actorId: string;
  userId: string;
}): Promise<UserDeletionReceipt> {
  if (userId === actorId) {
    throw new AppError("self_action", "You cannot delete your own account. Ask another administrator.");
  }
  const result = await serializable(async (tx) => {
    const ofUser = { session: { userId } };
    const [sessions, messages, snapshots, contexts, audits, facts, attachments] = await Promise.all([
      tx.chatSession.count({ where: { userId } }),
      tx.chatMessage.count({ where: ofUser }),
      tx.memorySnapshot.count({ where: ofUser }),
      tx.turnContext.count({ where: ofUser }),
      tx.auditLog.count({ where: { actorId: userId } }),
      tx.memoryFact.count({ where: { userId } }),
      tx.attachment.aggregate({ where: { userId }, _count: true, _sum: { bytes: true } }),
    ]);
    try {
      await tx.user.delete({ where: { id: userId }, select: { id: true } });
    } catch (e) {
      if (isRecordNotFound(e)) throw notFound();
      throw e;
    }
    await assertAdminLeft(tx);
    const deleted = {
      User: 1,
      ChatSession: sessions,
      ChatMessage: messages,
      MemorySnapshot: snapshots,
      TurnContext: contexts,
      MemoryFact: facts,
      Attachment: attachments._count,
      AttachmentBytes: attachments._sum.bytes ?? 0,
    };
    await tx.auditLog.create({
      data: { actorId, action: "user.delete", targetType: "User", targetId: userId, details: deleted },
    });
    return { userId, deleted, anonymized: { AuditLog: audits } };
  });
  return checkpointed(result);
}
