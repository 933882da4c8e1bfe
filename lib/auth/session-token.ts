import "server-only";
import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { env } from "@/lib/env";

// next-auth's cookie names: the __Secure- prefix is used when NEXTAUTH_URL is https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * The user id in the request's session cookie, or null. Decoding the JWT is all a request needs; getServerSession
 * would run next-auth's whole session endpoint and re-encrypt a token that a server component cannot send back.
 */
export async function sessionUserId(): Promise<string | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) return null;
  try {
    const token = await decode({ token: raw, secret: env.AUTH_SECRET });
    return typeof token?.uid === "string" ? token.uid : null;
  } catch {
    return null; // a token signed with another secret, expired, or tampered with
  }
}
