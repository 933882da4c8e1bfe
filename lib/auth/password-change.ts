import "server-only";
import { listApiKeysByUserId, revokeApiKeyForUser } from "@/lib/db/api-keys";
import { getSessionUser, setPasswordHash, unsafeGetUserCredentialsByEmail } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";
import { hashPassword, verifyPassword } from "./password";
import type { PasswordChangeInput } from "./schemas";

/**
 * Re-authenticates the signed-in user with their current password before a sensitive change. Wrong guesses count
 * against the same per-account and per-address limits as sign-in (a stolen session must not become a password
 * oracle); a wrong password is a 403 `wrong_password`.
 */
export async function verifyCurrentPassword(
  user: { id: string; email: string },
  password: string,
  ip: string,
): Promise<void> {
  const limit = limits();
  await limit.beginSignInAttempt({ email: user.email, ip });
  const credentials = await unsafeGetUserCredentialsByEmail({ email: user.email });
  const ok = credentials ? await verifyPassword(password, credentials.passwordHash) : false;
  if (!credentials || credentials.id !== user.id || !ok) {
    throw new AppError("wrong_password", "The current password is not right. Nothing was changed.");
  }
  await limit.recordSignInSuccess({ email: user.email, ip });
}

/**
 * Changes the signed-in user's password after checking the current one. Wrong guesses count against the same
 * per-account and per-address limits as sign-in (a stolen session must not become a password oracle), and a
 * wrong password changes nothing. Success moves the user's token version, which refuses every session token at
 * once; the caller re-issues the current browser's cookie with the returned version. API keys are separate
 * credentials and are revoked only when asked.
 */
export async function changePassword(
  user: { id: string; email: string },
  input: PasswordChangeInput,
  ip: string,
): Promise<{ tokenVersion: number; revokedApiKeys: number }> {
  await verifyCurrentPassword(user, input.currentPassword, ip);
  await setPasswordHash({ id: user.id, passwordHash: await hashPassword(input.newPassword) });

  let revokedApiKeys = 0;
  if (input.revokeApiKeys) {
    for (const key of await listApiKeysByUserId({ userId: user.id })) {
      const revoked = await revokeApiKeyForUser({ userId: user.id, keyId: key.id }).then(
        () => true,
        (e: unknown) => (e instanceof AppError && e.code === "not_found" ? false : Promise.reject(e)), // revoked meanwhile
      );
      if (revoked) revokedApiKeys++;
    }
  }
  const row = await getSessionUser({ id: user.id, sid: null });
  if (!row) throw new AppError("not_found", "User not found.");
  return { tokenVersion: row.tokenVersion, revokedApiKeys };
}
