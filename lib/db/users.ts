import "server-only";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/types";
import { db, type Prisma, type TxOption } from "./client";
import { isRecordNotFound, isUniqueViolation } from "./errors";
import { asBoolean, asDate, asDateOrNull, asNumber, queryRows } from "./sql";
import { inTx } from "./transaction";

export const userSelect = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  createdAt: true,
} as const;

/** A user as every query outside the credentials check returns it: no password hash. */
export type SafeUser = Prisma.UserGetPayload<{ select: typeof userSelect }>;

/** The only query that returns a password hash; used by the credentials check alone. */
export async function unsafeGetUserCredentialsByEmail(
  { email }: { email: string },
  { tx = db }: TxOption = {},
) {
  return tx.user.findUnique({
    where: { email },
    select: { ...userSelect, passwordHash: true, tokenVersion: true },
  });
}

/**
 * The per-request read of the signed-in user, with the token version its session cookie must match and whether
 * the cookie's sign-in (`sid`) was signed out. One statement, written out: the same read through Prisma's filtered
 * relation count costs ~0.2 ms more CPU on every authenticated request (lib/auth/revocation.int.test.ts
 * counts the round trips and checks the types).
 */
export async function getSessionUser(
  { id, sid }: { id: string; sid: string | null },
  { tx = db }: TxOption = {},
) {
  // Every request reads it: written out (sql.ts), straight to the driver on SQLite.
  const [row] = await queryRows(
    tx,
    `SELECT u."id", u."email", u."name", u."role", u."disabledAt", u."createdAt", u."tokenVersion",
            u."mustChangePassword",
            EXISTS (SELECT 1 FROM "RevokedToken" r WHERE r."sid" = ? AND r."userId" = u."id") AS "signedOut"
     FROM "User" u WHERE u."id" = ?`,
    [sid ?? "", id],
  );
  if (!row) return null;
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name),
    role: row.role as SafeUser["role"],
    disabledAt: asDateOrNull(row.disabledAt),
    createdAt: asDate(row.createdAt),
    tokenVersion: asNumber(row.tokenVersion),
    mustChangePassword: asBoolean(row.mustChangePassword),
    signedOut: sid !== null && asBoolean(row.signedOut),
  };
}

/**
 * Revokes one signed-in session (a token's `sid`) of the user: requests carrying it are refused from now on.
 * `expiresAt` is when no copy of the token can be valid any more; rows past it are deleted here, so the table
 * stays as small as the number of sign-outs within one session lifetime.
 */
export async function revokeSessionToken(
  {
    userId,
    sid,
    expiresAt,
    now = new Date(),
  }: {
    userId: string;
    sid: string;
    expiresAt: Date;
    now?: Date;
  },
  { tx }: TxOption = {},
): Promise<void> {
  await inTx({ tx }, async (t) => {
    await t.revokedToken.deleteMany({ where: { expiresAt: { lt: now } } });
    await t.revokedToken.upsert({ where: { sid }, create: { sid, userId, expiresAt }, update: {} });
  });
}

/**
 * Sets a new password hash of the user's own choosing and revokes every session token of the user (one
 * statement); a reset by an administrator no longer has to be changed.
 */
export async function setPasswordHash(
  {
    id,
    passwordHash,
  }: {
    id: string;
    passwordHash: string;
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  const { count } = await tx.user.updateMany({
    where: { id },
    data: { passwordHash, mustChangePassword: false, tokenVersion: { increment: 1 } },
  });
  if (count === 0) throw new AppError("not_found", "User not found.");
}

/**
 * Changes the user's name and/or email. The email is unique: another account's address is a 409 `email_taken`
 * (the database's unique index decides, so two requests racing for one address cannot both win).
 */
export async function updateUserProfile(
  { id, name, email }: { id: string; name?: string; email?: string },
  { tx = db }: TxOption = {},
): Promise<SafeUser> {
  try {
    return await tx.user.update({
      where: { id },
      data: { ...(name === undefined ? {} : { name }), ...(email === undefined ? {} : { email }) },
      select: userSelect,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("email_taken", "An account with this email already exists.");
    if (isRecordNotFound(e)) throw new AppError("not_found", "User not found.");
    throw e;
  }
}

/** Replaces a password hash (a bcrypt hash upgraded at sign-in); only while it is still `previous`. */
export async function replacePasswordHash(
  {
    id,
    previous,
    next,
  }: {
    id: string;
    previous: string;
    next: string;
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  await tx.user.updateMany({ where: { id, passwordHash: previous }, data: { passwordHash: next } });
}

/**
 * Revokes every session token of the user issued at `fromVersion` or earlier (all of them when omitted): tokens
 * carry the version they were issued with, and a request is refused once the user's version has moved on.
 */
export async function revokeUserTokens(
  {
    id,
    fromVersion,
  }: {
    id: string;
    fromVersion?: number;
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  await tx.user.updateMany({
    where: { id, ...(fromVersion === undefined ? {} : { tokenVersion: fromVersion }) },
    data: { tokenVersion: { increment: 1 } },
  });
}

export async function createUser(
  {
    email,
    name,
    passwordHash,
    role = "USER",
  }: {
    email: string;
    name: string;
    passwordHash: string;
    role?: Role;
  },
  { tx = db }: TxOption = {},
): Promise<SafeUser> {
  try {
    return await tx.user.create({ data: { email, name, passwordHash, role }, select: userSelect });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("email_taken", "An account with this email already exists.");
    throw e;
  }
}
