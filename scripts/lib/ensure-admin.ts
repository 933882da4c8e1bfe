import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";

export interface AdminSettings {
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
  ADMIN_NAME: string;
}

/**
 * Makes sure an administrator exists; changes nothing that is already in place. Returns what it did, with the
 * generated password when it made one (the caller prints it once).
 */
export async function ensureAdmin(
  db: Db,
  settings: AdminSettings,
  { bcryptCost }: { bcryptCost?: number } = {},
): Promise<
  | { action: "kept"; email: string }
  | { action: "promoted" | "existing"; email: string }
  | { action: "created"; email: string; generatedPassword?: string }
> {
  const admin = await db.user.findFirst({ where: { role: "ADMIN" }, select: { email: true } });
  if (admin && !settings.ADMIN_EMAIL) return { action: "kept", email: admin.email };
  const email = (settings.ADMIN_EMAIL ?? "admin@recall.local").toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { role: true } });
  if (existing) {
    if (existing.role === "ADMIN") return { action: "existing", email };
    await db.user.update({ where: { email }, data: { role: "ADMIN" } });
    return { action: "promoted", email };
  }
  const generatedPassword = settings.ADMIN_PASSWORD ? undefined : randomBytes(12).toString("base64url");
  const password = settings.ADMIN_PASSWORD ?? (generatedPassword as string);
  await db.user.create({
    data: {
      email,
      name: settings.ADMIN_NAME,
      role: "ADMIN",
      passwordHash: await hashPassword(password, bcryptCost),
    },
  });
  return { action: "created", email, ...(generatedPassword ? { generatedPassword } : {}) };
}
