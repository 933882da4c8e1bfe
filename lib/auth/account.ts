import "server-only";
import { randomBytes } from "node:crypto";
import {
  deleteOwnAccount,
  deleteUserForAdmin,
  resetPasswordForAdmin,
  type UserDeletionReceipt,
} from "@/lib/db/admin-users";
import { type SafeUser, updateUserProfile } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";
import { hashPassword } from "./password";
import { verifyCurrentPassword } from "./password-change";
import type { ProfileInput } from "./schemas";

type Me = { id: string; email: string };

/**
 * Changes the user's name and/or email. A new email needs the current password (someone at an unlocked screen
 * must not be able to take the account over by redirecting its address): missing → 422, wrong → 403.
 */
export async function updateProfile(user: Me, input: ProfileInput, ip: string): Promise<SafeUser> {
  const email = input.email !== undefined && input.email !== user.email ? input.email : undefined;
  if (email !== undefined) {
    if (!input.currentPassword) {
      const message = "Enter your current password to change your email.";
      throw new AppError("validation_failed", message, { details: [{ path: "currentPassword", message }] });
    }
    await verifyCurrentPassword(user, input.currentPassword, ip);
  }
  return updateUserProfile({ id: user.id, name: input.name, email });
}

/** Deletes the user's own account after checking their password; the receipt is the administrator's. */
export async function deleteMyAccount(user: Me, password: string, ip: string): Promise<UserDeletionReceipt> {
  await verifyCurrentPassword(user, password, ip);
  const receipt = await deleteOwnAccount({ userId: user.id });
  await limits().forgetUser(user.id);
  return receipt;
}

/** An administrator deletes another user (the cascade and receipt of lib/db/admin-users), counters included. */
export async function deleteUserAsAdmin({
  actorId,
  userId,
}: {
  actorId: string;
  userId: string;
}): Promise<UserDeletionReceipt> {
  const receipt = await deleteUserForAdmin({ actorId, userId });
  await limits().forgetUser(userId);
  return receipt;
}

/** 16 characters from 96 random bits, readable aloud (base64url). */
const oneTimePassword = () => randomBytes(12).toString("base64url");

/**
 * An administrator resets another user's password: a one-time password, returned once and stored only as a hash,
 * that the user must replace at next sign-in.
 */
export async function resetUserPassword({
  actorId,
  userId,
}: {
  actorId: string;
  userId: string;
}): Promise<{ password: string }> {
  const password = oneTimePassword();
  await resetPasswordForAdmin({ actorId, userId, passwordHash: await hashPassword(password) });
  return { password };
}
