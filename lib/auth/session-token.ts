import "server-only";
import { cookies } from "next/headers";
import { decode, encode } from "next-auth/jwt";
import { env } from "@/lib/env";

// next-auth's cookie names: the __Secure- prefix is used when NEXTAUTH_URL is https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export interface SessionClaims {
  uid: string;
  /** The user's token version when the token was issued; tokens from before a revocation carry an older one. */
  ver: number;
  /**
   * This sign-in's id, set once at sign-in and kept when next-auth refreshes the cookie, so signing out can revoke
   * this token (and its refreshed copies) alone. Not JWT's `jti`: next-auth's encode() sets a new jti each time it
   * re-issues the cookie. Null in tokens issued before sign-in ids existed.
   */
  sid: string | null;
}

/**
 * Tokens already decrypted, by their exact text, until they expire: a signed-in browser sends the same cookie with
 * every request, and decrypting it (key derivation + JWE) cost 1–5 % of a turn's CPU. Only valid tokens are kept,
 * at most DECODED_MAX (the oldest is dropped first). Revocation is not affected: the caller still reads the user.
 */
const decoded = new Map<string, { claims: SessionClaims; expiresAt: number }>();
const DECODED_MAX = 1000;

/**
 * The user id, token version and sign-in id in the request's session cookie, or null. Decoding the JWT is all a request
 * needs; getServerSession would run next-auth's whole session endpoint and re-encrypt a token that a server
 * component cannot send back.
 */
export async function sessionClaims(): Promise<SessionClaims | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) return null;
  const now = Date.now();
  const known = decoded.get(raw);
  if (known && known.expiresAt > now) return known.claims;
  try {
    const token = await decode({ token: raw, secret: env.AUTH_SECRET });
    if (typeof token?.uid !== "string") return null;
    const claims: SessionClaims = Object.freeze({
      uid: token.uid,
      ver: typeof token.ver === "number" ? token.ver : 0,
      sid: typeof token.sid === "string" ? token.sid : null,
    });
    const expiresAt = typeof token.exp === "number" ? token.exp * 1000 : 0;
    if (expiresAt > now) {
      decoded.delete(raw);
      if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value ?? "");
      decoded.set(raw, { claims, expiresAt });
    }
    return claims;
  } catch {
    return null; // a token signed with another secret, expired, or tampered with
  }
}

/** The user id in the request's session cookie, or null. */
export async function sessionUserId(): Promise<string | null> {
  return (await sessionClaims())?.uid ?? null;
}

/**
 * A Set-Cookie value that re-issues the request's session cookie with token version `ver` (same sign-in id, a
 * fresh expiry), or null without a valid cookie. After a password change bumps the user's version, every other
 * sign-in is refused while the browser that made the change stays signed in.
 */
export async function reissuedSessionCookie(ver: number, maxAgeSeconds: number): Promise<string | null> {
  const jar = await cookies();
  const name = SESSION_COOKIES.find((n) => jar.get(n)?.value);
  const raw = name ? jar.get(name)?.value : undefined;
  if (!name || !raw) return null;
  const token = await decode({ token: raw, secret: env.AUTH_SECRET }).catch(() => null);
  if (!token) return null;
  const value = await encode({ token: { ...token, ver }, secret: env.AUTH_SECRET, maxAge: maxAgeSeconds });
  const expires = new Date(Date.now() + maxAgeSeconds * 1000).toUTCString();
  const secure = name.startsWith("__Secure-") ? "; Secure" : "";
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure}`;
}

/** Set-Cookie values that clear the session cookie (the account it named is gone). */
export async function clearedSessionCookies(): Promise<string[]> {
  const jar = await cookies();
  return SESSION_COOKIES.filter((n) => jar.get(n)?.value).map((name) => {
    const secure = name.startsWith("__Secure-") ? "; Secure" : "";
    return `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure}`;
  });
}
