import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/types";
import { countApiKeysByUserIds } from "./api-keys";
import { checkpointed } from "./checkpoint";
import { databaseKind, db, type Prisma, type Tx, type TxOption } from "./client";
import { encodeKeyCursor, keysetPage } from "./cursor";
import { isRecordNotFound } from "./errors";
import { countFactsByUserIds } from "./memories";
import { countFilesOfProjects } from "./project-files";
import { countRowsOfSessions, type DeletedRows } from "./receipts";
import { CASCADE_DELETE_TIMEOUT_MS, withTransaction } from "./transaction";
import { type SafeUser, userSelect } from "./users";

// User administration. Every change runs in a serializable transaction (withTransaction retries a serialization
// failure, then refuses with a 409) that re-checks, after its own write, that an enabled administrator is left:
// two admins demoting each other at the same moment cannot both succeed. Callers must have checked the ADMIN role.

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
  deleted: { User: number; Project: number; ProjectFile: number; ProjectFileChunk: number } & DeletedRows;
  /** Audit entries the user made, kept with the actor removed (AuditLog.actorId is SET NULL). */
  anonymized: { AuditLog: number };
}

const notFound = () => new AppError("not_found", "This user does not exist (they may have been deleted).");
const lastAdmin = () =>
  new AppError(
    "last_admin",
    "Recall needs at least one active administrator. Promote someone else before making this change.",
  );

function emailContains(q: string): Prisma.StringFilter {
  return (
    databaseKind(env.DATABASE_URL) === "postgresql" ? { contains: q, mode: "insensitive" } : { contains: q }
  ) as Prisma.StringFilter;
}

/** Users by email (keyset on the unique email index), with session and message counts for that page only. */
export async function listUsersForAdmin(
  {
    q,
    afterEmail,
    limit,
  }: {
    q?: string;
    afterEmail?: string;
    limit: number;
  },
  { tx = db }: TxOption = {},
): Promise<{ users: AdminUser[]; nextCursor: string | null }> {
  const and: Prisma.UserWhereInput[] = [];
  if (afterEmail !== undefined) and.push({ email: { gt: afterEmail } });
  if (q) and.push({ OR: [{ email: emailContains(q) }, { name: emailContains(q) }] });
  const rows = await tx.user.findMany({
    where: and.length > 0 ? { AND: and } : {},
    orderBy: { email: "asc" },
    take: limit + 1,
    select: userSelect,
  });
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (u) => encodeKeyCursor(u.email) });
  const counts = page.length
    ? await tx.chatSession.groupBy({
        by: ["userId"],
        where: { userId: { in: page.map((u) => u.id) } },
        _count: { _all: true },
        _sum: { lastSeq: true },
      })
    : [];
  const byUser = new Map(counts.map((c) => [c.userId, c]));
  const keyCounts = await countApiKeysByUserIds({ userIds: page.map((u) => u.id) }, { tx });
  const factCounts = await countFactsByUserIds({ userIds: page.map((u) => u.id) }, { tx });
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

/** Enabled administrators: the users page offers no "Remove admin" to the only one. */
export async function countActiveAdmins(
  _args: Record<string, never> = {},
  { tx = db }: TxOption = {},
): Promise<number> {
  return tx.user.count({ where: { role: "ADMIN", disabledAt: null } });
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
  return withTransaction(
    async (tx) => {
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
    },
    { isolation: "serializable" },
  );
}

/**
 * Deletes a user and, through foreign keys, all their sessions with everything derived from them, inside `tx`.
 * Their own audit entries stay, without the actor. Fails with `last_admin` when no enabled admin would be left.
 */
async function deleteUserCascade(
  tx: Tx,
  userId: string,
  { adminCheck }: { adminCheck: "always" | "if-admin" },
) {
  const [target, sessions, projects, files, audits, rows] = await Promise.all([
    tx.user.findUnique({ where: { id: userId }, select: { role: true } }),
    tx.chatSession.count({ where: { userId } }),
    tx.project.count({ where: { userId } }),
    countFilesOfProjects({ userId }, { tx }),
    tx.auditLog.count({ where: { actorId: userId } }),
    countRowsOfSessions({ userId }, { tx }),
  ]);
  try {
    await tx.user.delete({ where: { id: userId }, select: { id: true } });
  } catch (e) {
    if (isRecordNotFound(e)) throw notFound();
    throw e;
  }
  // A user leaving cannot take the last administrator with them; an administrator's deletion also re-checks that
  // they are still one (a concurrent demotion).
  if (adminCheck === "always" || target?.role === "ADMIN") await assertAdminLeft(tx);
  const deleted = { User: 1, Project: projects, ...files, ChatSession: sessions, ...rows };
  return { deleted, anonymized: { AuditLog: audits } };
}

/** Deletes another user (see deleteUserCascade) in one transaction. Returns the rows removed per table. */
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
  const result = await withTransaction(
    async (tx) => {
      const { deleted, anonymized } = await deleteUserCascade(tx, userId, { adminCheck: "always" });
      await tx.auditLog.create({
        data: { actorId, action: "user.delete", targetType: "User", targetId: userId, details: deleted },
      });
      return { userId, deleted, anonymized };
    },
    { isolation: "serializable", timeout: CASCADE_DELETE_TIMEOUT_MS },
  );
  return checkpointed(result, ["messages", "chunks"]);
}

/**
 * A user deletes their own account: the same cascade and receipt as an administrator's deletion. The audit entry
 * has no actor (the actor is the row being deleted). The last enabled administrator is refused.
 */
export async function deleteOwnAccount({ userId }: { userId: string }): Promise<UserDeletionReceipt> {
  const result = await withTransaction(
    async (tx) => {
      const { deleted, anonymized } = await deleteUserCascade(tx, userId, { adminCheck: "if-admin" }).catch(
        (e: unknown) => {
          if (e instanceof AppError && e.code === "last_admin") {
            throw new AppError(
              "last_admin",
              "You are the only administrator. Make someone else an administrator before deleting your account.",
            );
          }
          throw e;
        },
      );
      await tx.auditLog.create({
        data: {
          actorId: null,
          action: "user.delete",
          targetType: "User",
          targetId: userId,
          details: { ...deleted, by: "self" },
        },
      });
      return { userId, deleted, anonymized };
    },
    { isolation: "serializable", timeout: CASCADE_DELETE_TIMEOUT_MS },
  );
  return checkpointed(result, ["messages", "chunks"]);
}

/**
 * An administrator sets a new password on another user's account and flags it to be changed at next sign-in;
 * every session token of the user is refused at once (API keys are untouched). One audit entry (ids only).
 */
export async function resetPasswordForAdmin({
  actorId,
  userId,
  passwordHash,
}: {
  actorId: string;
  userId: string;
  passwordHash: string;
}): Promise<void> {
  if (userId === actorId) {
    throw new AppError("self_action", "Change your own password in Settings → Password.");
  }
  await withTransaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId },
      data: { passwordHash, mustChangePassword: true, tokenVersion: { increment: 1 } },
    });
    if (count === 0) throw notFound();
    await tx.auditLog.create({
      data: { actorId, action: "user.password_reset", targetType: "User", targetId: userId, details: {} },
    });
  });
}
