import "server-only";
import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { getUserById, type SafeUser } from "@/lib/db/users";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// next-auth's cookie names: the __Secure- prefix is used when NEXTAUTH_URL is https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * The user id in the session cookie, or null. Decoding the JWT is all a request needs; getServerSession would
 * run next-auth's whole session endpoint and re-encrypt a token that a server component cannot even send back.
 */
async function sessionUserId(): Promise<string | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) return null;
  try {
    const token = await decode({ token: raw, secret: env.AUTH_SECRET });
    return typeof token?.uid === "string" ? token.uid : null;
  } catch {
    return null; // a token from another secret, or tampered with
  }
}

export type CurrentUser = Pick<SafeUser, "id" | "email" | "name" | "role">;

/**
 * The signed-in, enabled user, read from the database on every call so that a disabled or demoted account
 * loses access at once rather than when its JWT expires.
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const id = await sessionUserId();
  if (!id) return null;
  const user = await getUserById({ id });
  if (!user || user.disabledAt) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

export async function requireUser(): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new AppError("unauthorized", "Sign in to continue.");
  return user;
}

export async function requireAdmin(): Promise<CurrentUser> {
  const user = await requireUser();
  if (user.role !== "ADMIN") throw new AppError("forbidden", "Administrators only.");
  return user;
}
