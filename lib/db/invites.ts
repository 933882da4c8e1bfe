import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { isUniqueViolation } from "./errors";
import { inTx } from "./transaction";
import { type SafeUser, userSelect } from "./users";

// Invite codes for REGISTRATION=invite. Only a code's SHA-256 is stored; the code itself is shown once.

const hashInviteCode = (code: string) => createHash("sha256").update(code.trim()).digest("hex");

export interface InviteView {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  createdBy: string | null;
}

export async function createInvite(
  {
    actorId,
    validDays,
  }: {
    actorId: string;
    validDays: number;
  },
  { tx = db }: TxOption = {},
): Promise<{ code: string; invite: InviteView }> {
  const code = randomBytes(12).toString("base64url");
  const row = await tx.inviteCode.create({
    data: {
      codeHash: hashInviteCode(code),
      createdById: actorId,
      expiresAt: new Date(Date.now() + validDays * 24 * 3600 * 1000),
    },
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      usedAt: true,
      createdBy: { select: { email: true } },
    },
  });
  return { code, invite: { ...row, createdBy: row.createdBy?.email ?? null } };
}

export async function listInvites(
  { limit = 50 }: { limit?: number } = {},
  { tx = db }: TxOption = {},
): Promise<InviteView[]> {
  const rows = await tx.inviteCode.findMany({
    orderBy: { createdAt: "desc" },
    take: limit,
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      usedAt: true,
      createdBy: { select: { email: true } },
    },
  });
  return rows.map((r) => ({ ...r, createdBy: r.createdBy?.email ?? null }));
}

/**
 * Creates the account and spends the invite in one transaction: an unknown, used or expired code creates
 * nothing (403 invalid_invite), and two sign-ups racing for one code cannot both succeed.
 */
export async function createUserWithInvite(
  {
    code,
    email,
    name,
    passwordHash,
  }: {
    code: string;
    email: string;
    name: string;
    passwordHash: string;
  },
  { tx }: TxOption = {},
): Promise<SafeUser> {
  try {
    return await inTx({ tx }, async (tx) => {
      const now = new Date();
      const claimed = await tx.inviteCode.updateMany({
        where: { codeHash: hashInviteCode(code), usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (claimed.count !== 1) {
        throw new AppError("invalid_invite", "This invite code is unknown, used or expired.");
      }
      const user = await tx.user.create({ data: { email, name, passwordHash }, select: userSelect });
      await tx.inviteCode.update({ where: { codeHash: hashInviteCode(code) }, data: { usedById: user.id } });
      return user;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("email_taken", "An account with this email already exists.");
    throw e;
  }
}
