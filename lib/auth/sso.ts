import "server-only";
import { randomBytes } from "node:crypto";
import { isStorageError } from "@/lib/db/errors";
import {
  createSsoUser,
  findUserByIdentity,
  findUserForSsoByEmail,
  type Identity,
  linkIdentity,
} from "@/lib/db/sso";
import { AppError } from "@/lib/errors";
import type { OidcClaims } from "./oidc";
import { hashPassword } from "./password";
import type { RegistrationMode } from "./register";
import { credentialsSchema } from "./schemas";
import { type SignedInUser, signedInUser } from "./signed-in-user";

// Which Recall account a provider's user signs in to (docs/decisions/035-oidc.md):
//  1. the account already linked to the identity (issuer + subject), whatever either e-mail is now;
//  2. else the account with the same e-mail, linked now, but only when the provider says the e-mail is verified;
//  3. else a new account when REGISTRATION=open.
// A disabled account is refused at every step; a deleted one no longer exists.

/** Codes the sign-in page turns into messages (messages/<locale>/auth.json, signIn.errors). */
export const SSO_ERRORS = {
  unverified: "sso_email_unverified",
  noAccount: "sso_registration_closed",
  conflict: "sso_conflict",
  disabled: "account_disabled",
  failed: "sso_failed",
  storage: "storage_error",
} as const;

export type SsoErrorCode = (typeof SSO_ERRORS)[keyof typeof SSO_ERRORS];

export class SsoError extends Error {
  constructor(readonly code: SsoErrorCode) {
    super(code);
    this.name = "SsoError";
  }
}

const emailOf = (raw: unknown): string | null => {
  const parsed = credentialsSchema.shape.email.safeParse(typeof raw === "string" ? raw.trim() : raw);
  return parsed.success ? parsed.data : null;
};

/** A name for a new account: the provider's, else its user name, else the e-mail's local part. */
function nameOf(claims: OidcClaims, email: string): string {
  const name = [claims.name, claims.preferred_username]
    .map((n) => (typeof n === "string" ? n.trim() : ""))
    .find(Boolean);
  return (name ?? email.split("@")[0] ?? email).slice(0, 100);
}

/** The identity in the provider's claims; the ID token's issuer (verified by openid-client) else the configured one. */
function identityOf(claims: OidcClaims, issuer: string): Identity {
  if (typeof claims.sub !== "string" || !claims.sub) throw new SsoError(SSO_ERRORS.failed);
  return { issuer: typeof claims.iss === "string" && claims.iss ? claims.iss : issuer, subject: claims.sub };
}

export type SsoUser = SignedInUser;

function allowed(user: { disabledAt: Date | null } & SsoUser): SsoUser {
  if (user.disabledAt) throw new SsoError(SSO_ERRORS.disabled);
  return signedInUser(user);
}

async function resolve(claims: OidcClaims, identity: Identity, mode: RegistrationMode): Promise<SsoUser> {
  const linked = await findUserByIdentity(identity);
  if (linked) return allowed(linked);
  const email = emailOf(claims.email);
  const verified = claims.email_verified === true || claims.email_verified === "true";
  if (!email || !verified) throw new SsoError(SSO_ERRORS.unverified);
  const existing = await findUserForSsoByEmail({ email });
  if (existing) {
    const user = allowed(existing);
    await linkIdentity({ userId: user.id, identity });
    return user;
  }
  // An invite code cannot travel through the provider: invite-only servers link existing accounts only.
  if (mode !== "open") throw new SsoError(SSO_ERRORS.noAccount);
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  const user = await createSsoUser({ email, name: nameOf(claims, email), passwordHash, identity });
  return signedInUser({ ...user, tokenVersion: 0 });
}

/**
 * The account the provider's user signs in to, linked or created as above; throws SsoError with the code the
 * sign-in page shows. A concurrent sign-in that created the account or the link first is followed, once.
 */
export async function resolveSsoUser(
  claims: OidcClaims,
  { issuer, mode }: { issuer: string; mode: RegistrationMode },
): Promise<SsoUser> {
  const identity = identityOf(claims, issuer);
  try {
    try {
      return await resolve(claims, identity, mode);
    } catch (e) {
      if (!(e instanceof AppError && (e.code === "email_taken" || e.code === "conflict"))) throw e;
      const winner = await findUserByIdentity(identity);
      if (winner) return allowed(winner);
      if (e.code === "conflict") throw new SsoError(SSO_ERRORS.conflict);
      return await resolve(claims, identity, mode);
    }
  } catch (e) {
    if (e instanceof SsoError) throw e;
    if (e instanceof AppError && e.code === "conflict") throw new SsoError(SSO_ERRORS.conflict);
    console.error(
      isStorageError(e) ? "[auth] storage error during SSO sign-in" : "[auth] SSO sign-in failed",
      e,
    );
    throw new SsoError(SSO_ERRORS.storage);
  }
}

/**
 * The signed-in account for an identity resolved by resolveSsoUser (next-auth's jwt callback, right after). Still
 * refused when it was disabled or deleted in between.
 */
export async function ssoSessionUser(claims: OidcClaims, issuer: string): Promise<SsoUser> {
  const user = await findUserByIdentity(identityOf(claims, issuer));
  if (!user) throw new SsoError(SSO_ERRORS.failed);
  return allowed(user);
}
