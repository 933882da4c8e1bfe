import "server-only";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { isUniqueViolation } from "./errors";
import { withTransaction } from "./transaction";
import { type SafeUser, userSelect } from "./users";

// Single sign-on's data access (docs/decisions/035-oidc.md): an OpenID Connect identity (issuer + subject) is kept
// on the user it is linked to. Linking and creating an account are audited (ids only, like every audit entry).

const ssoUserSelect = { ...userSelect, tokenVersion: true, oidcIssuer: true, oidcSubject: true } as const;

export interface Identity {
  issuer: string;
  subject: string;
}

/** The user an identity is linked to, or null. */
export async function findUserByIdentity({ issuer, subject }: Identity, { tx = db }: TxOption = {}) {
  return tx.user.findUnique({
    where: { oidcIssuer_oidcSubject: { oidcIssuer: issuer, oidcSubject: subject } },
    select: ssoUserSelect,
  });
}

/** The user with this (lower-case) e-mail and the identity linked to it, if any. */
export async function findUserForSsoByEmail({ email }: { email: string }, { tx = db }: TxOption = {}) {
  return tx.user.findUnique({ where: { email }, select: ssoUserSelect });
}

/**
 * Links `identity` to the user, unless the user is already linked to another subject of the same issuer (then
 * 409 `conflict`: the provider gave this e-mail to someone else). A link to another issuer (the deployment moved to
 * a new provider) is replaced. One `user.sso_link` audit entry, by the user.
 */
export async function linkIdentity({
  userId,
  identity,
}: {
  userId: string;
  identity: Identity;
}): Promise<void> {
  await withTransaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: {
        id: userId,
        OR: [{ oidcSubject: null }, { oidcIssuer: { not: identity.issuer } }],
      },
      data: { oidcIssuer: identity.issuer, oidcSubject: identity.subject },
    });
    if (count === 0) {
      throw new AppError("conflict", "This account is already linked to another identity of this provider.");
    }
    await tx.auditLog.create({
      data: { actorId: userId, action: "user.sso_link", targetType: "User", targetId: userId, details: {} },
    });
  }).catch((e: unknown) => {
    // The identity is linked to another account already (two sign-ins racing for one identity).
    if (isUniqueViolation(e)) throw new AppError("conflict", "This identity is linked to another account.");
    throw e;
  });
}

/**
 * Creates an account for a provider's user, linked to its identity; `passwordHash` is one nobody knows. 409
 * `email_taken` when the e-mail was taken meanwhile. One `user.sso_signup` audit entry, by the new user.
 */
export async function createSsoUser({
  email,
  name,
  passwordHash,
  identity,
}: {
  email: string;
  name: string;
  passwordHash: string;
  identity: Identity;
}): Promise<SafeUser> {
  try {
    return await withTransaction(async (tx) => {
      const user = await tx.user.create({
        data: { email, name, passwordHash, oidcIssuer: identity.issuer, oidcSubject: identity.subject },
        select: userSelect,
      });
      await tx.auditLog.create({
        data: {
          actorId: user.id,
          action: "user.sso_signup",
          targetType: "User",
          targetId: user.id,
          details: {},
        },
      });
      return user;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("email_taken", "An account with this email already exists.");
    throw e;
  }
}
