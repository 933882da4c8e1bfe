import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { isStorageError } from "@/lib/db/errors";
import {
  getSessionUser,
  replacePasswordHash,
  revokeSessionToken,
  revokeUserTokens,
  unsafeGetUserCredentialsByEmail,
} from "@/lib/db/users";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";
import { clientIp } from "@/lib/security/client-ip";
import { OIDC_PROVIDER_ID, type OidcClaims, oidcProvider } from "./oidc";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { credentialsSchema } from "./schemas";
import { signedInUser } from "./signed-in-user";
import { resolveSsoUser, SSO_ERRORS, SsoError, ssoSessionUser } from "./sso";

// Error strings the login page turns into messages; never the password, never which part was wrong, never a
// database's error text.
export const SIGNIN_ERRORS = {
  invalid: "invalid_credentials",
  disabled: "account_disabled",
  storage: "storage_error",
  limited: "rate_limited",
} as const;

/** A session token's lifetime; next-auth slides it forward each time it re-issues the cookie. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

let dummyHash: Promise<string> | undefined;
const unknownUserHash = () => {
  dummyHash ??= hashPassword(randomUUID());
  return dummyHash;
};

/** next-auth hands authorize() the request's headers as a plain object. */
function headersOf(req: { headers?: unknown } | undefined): Headers {
  const out = new Headers();
  const raw = (req?.headers ?? {}) as Record<string, string | string[] | undefined>;
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out.set(k, v);
  return out;
}

async function checkCredentials(raw: unknown, ip: string) {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(SIGNIN_ERRORS.invalid);
  const { email, password } = parsed.data;
  const limit = limits();
  // The route (app/api/auth/[...nextauth]) answers 429 for a locked account before next-auth runs. Here the
  // attempt is counted as a failure before the password is checked, so concurrent attempts cannot all slip
  // under the limit; a correct password takes it back.
  await limit.beginSignInAttempt({ email, ip }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "rate_limited") throw new Error(SIGNIN_ERRORS.limited);
    throw e;
  });
  const user = await unsafeGetUserCredentialsByEmail({ email });
  // Compare against a throwaway hash when the user is unknown so both paths cost the same.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash()));
  if (!user || !ok) throw new Error(SIGNIN_ERRORS.invalid); // already counted
  if (user.disabledAt) throw new Error(SIGNIN_ERRORS.disabled);
  await limit.recordSignInSuccess({ email, ip });
  if (needsRehash(user.passwordHash)) {
    // A bcrypt (or weaker scrypt) hash from before: replace it now that the password is known.
    await replacePasswordHash({
      id: user.id,
      previous: user.passwordHash,
      next: await hashPassword(password),
    });
  }
  return signedInUser(user);
}

const oidc = oidcProvider(env.oidc);

/** Where a refused single sign-on lands: the sign-in page, saying why. */
const ssoRefused = (e: unknown) => `/login?error=${e instanceof SsoError ? e.code : SSO_ERRORS.failed}`;

export const authOptions: NextAuthOptions = {
  secret: env.AUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  // A failed provider sign-in (the provider refused, a bad callback) comes back to the sign-in page with next-auth's
  // code, which the page shows as "sign-in with the provider failed".
  pages: { signIn: "/login", error: "/login" },
  logger: {
    // next-auth logs failed credentials at error level with the thrown message; that is expected traffic.
    error(code, metadata) {
      if (code === "CREDENTIALS_SIGNIN_ERROR" || code === "CLIENT_FETCH_ERROR") return;
      console.error(`[auth] ${code}`, metadata instanceof Error ? metadata.message : "");
    },
    warn() {},
    debug() {},
  },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw, req) {
        try {
          return await checkCredentials(raw, clientIp(headersOf(req), env.TRUSTED_PROXY_HOPS));
        } catch (e) {
          if (e instanceof Error && Object.values(SIGNIN_ERRORS).includes(e.message as never)) throw e;
          // next-auth would show the thrown message to the client: never a database's text.
          if (isStorageError(e)) console.error("[auth] storage error during sign-in", e);
          else console.error("[auth] unexpected error during sign-in", e);
          throw new Error(SIGNIN_ERRORS.storage);
        }
      },
    }),
    ...(oidc ? [oidc] : []),
  ],
  callbacks: {
    // Single sign-on: the provider's user gets the linked account, the one with the same verified e-mail (linked
    // now) or a new one when registration is open (lib/auth/sso.ts); otherwise back to the sign-in page with a code.
    async signIn({ account, profile }) {
      if (account?.provider !== OIDC_PROVIDER_ID || !env.oidc) return true;
      try {
        await resolveSsoUser(profile as OidcClaims, { issuer: env.oidc.issuer, mode: env.REGISTRATION });
        return true;
      } catch (e) {
        return ssoRefused(e);
      }
    },
    async jwt({ token, user, account, profile }) {
      if (user) {
        // A provider's user: the account signIn resolved, read again by its identity (and refused if it was
        // disabled meanwhile). The token then carries what a password sign-in's does, so every revocation rule
        // (sign-out, sign out everywhere, password change, disabling) applies to it alike.
        const who =
          account?.provider === OIDC_PROVIDER_ID && env.oidc
            ? await ssoSessionUser(profile as OidcClaims, env.oidc.issuer)
            : user;
        token.uid = who.id;
        token.sub = who.id;
        token.name = who.name;
        token.email = who.email;
        token.role = who.role;
        token.ver = who.tokenVersion ?? 0;
        token.sid = randomUUID();
        return token;
      }
      // next-auth re-issues the cookie (with a later expiry) from its session endpoint. A revoked token must not
      // get a fresh copy: its revocation row is kept only until the last copy issued before it could expire.
      // Fails closed (a database error also clears the cookie): the app's pages never call this endpoint; only
      // next-auth/react's signIn()/signOut() do, right after talking to the database anyway.
      if (typeof token.uid === "string") {
        const row = await getSessionUser({
          id: token.uid,
          sid: typeof token.sid === "string" ? token.sid : null,
        });
        if (!row || row.disabledAt || row.signedOut || row.tokenVersion !== (token.ver ?? 0)) {
          throw new Error("session_revoked"); // next-auth then clears the cookie
        }
      }
      return token;
    },
    async session({ session, token }) {
      if (token.uid) session.user = { ...session.user, id: token.uid, role: token.role ?? "USER" };
      return session;
    },
  },
  events: {
    // Signing out revokes this token (its sign-in id), so a copy of the cookie replayed later is refused; the
    // user's other devices stay signed in. Tokens from before sign-in ids existed fall back to the token version
    // (which signs out every device).
    async signOut({ token }) {
      if (typeof token?.uid !== "string") return;
      try {
        if (typeof token.sid === "string") {
          // Any copy of this token was issued before now, so none outlives now + maxAge.
          const expiresAt = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
          await revokeSessionToken({ userId: token.uid, sid: token.sid, expiresAt });
        } else {
          await revokeUserTokens({
            id: token.uid,
            fromVersion: typeof token.ver === "number" ? token.ver : 0,
          });
        }
      } catch (e) {
        console.error("[auth] could not revoke the session token at sign-out", e);
      }
    },
  },
};
