import "server-only";
import { cache } from "react";
import { getSessionUser, type SafeUser } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { sessionClaims } from "./session-token";

export type CurrentUser = Pick<SafeUser, "id" | "email" | "name" | "role"> & {
  /** An administrator reset the password: pages lead to the password change until the user has chosen one. */
  mustChangePassword?: boolean;
};

/**
 * The signed-in, enabled user, read from the database on every call so that a disabled or demoted account
 * loses access at once rather than when its JWT expires, a token whose sign-in was signed out is refused, and so
 * are all tokens issued before "sign out everywhere" or a password change (their version is behind the user's).
 * Once per request: a layout and its page both ask, and React's cache lets them share the answer (outside a server
 * render it is a plain call).
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => {
  const claims = await sessionClaims();
  if (!claims) return null;
  const user = await getSessionUser({ id: claims.uid, sid: claims.sid });
  if (!user || user.disabledAt || user.tokenVersion !== claims.ver || user.signedOut) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    mustChangePassword: user.mustChangePassword,
  };
});

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
