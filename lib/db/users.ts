import "server-only";
import { AppError } from "@/lib/errors";
import { db } from "./client";
import { isUniqueViolation } from "./errors";

export const userSelect = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  createdAt: true,
} as const;

export type UserRole = "USER" | "ADMIN";
export interface SafeUser {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  disabledAt: Date | null;
  createdAt: Date;
}

/** The only query that returns a password hash; used by the credentials check alone. */
export async function unsafeGetUserCredentialsByEmail({ email }: { email: string }) {
  return db.user.findUnique({ where: { email }, select: { ...userSelect, passwordHash: true } });
}

export async function getUserById({ id }: { id: string }): Promise<SafeUser | null> {
  return db.user.findUnique({ where: { id }, select: userSelect });
}

export async function createUser({
  email,
  name,
  passwordHash,
  role = "USER",
}: {
  email: string;
  name: string;
  passwordHash: string;
  role?: UserRole;
}): Promise<SafeUser> {
  try {
    return await db.user.create({ data: { email, name, passwordHash, role }, select: userSelect });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("email_taken", "An account with this email already exists.");
    throw e;
  }
}
