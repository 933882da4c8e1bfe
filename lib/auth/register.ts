import "server-only";
import { createUserWithInvite } from "@/lib/db/invites";
import { createUser, type SafeUser } from "@/lib/db/users";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";
import { hashPassword } from "./password";
import type { RegisterInput } from "./schemas";

export type RegistrationMode = "open" | "closed" | "invite";

/**
 * Creates an account as REGISTRATION allows: closed → 403 registration_closed; invite → a valid invite code is
 * spent; and at most RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR attempts per address (which also keeps probing
 * for taken emails slow). The checks run before the password is hashed.
 */
export async function registerUser(
  input: RegisterInput,
  { ip, mode = env.REGISTRATION }: { ip: string; mode?: RegistrationMode },
): Promise<SafeUser> {
  if (mode === "closed") {
    throw new AppError("registration_closed", "Sign-up is closed on this server. Ask an administrator.");
  }
  if (mode === "invite" && !input.inviteCode) {
    throw new AppError("invalid_invite", "Sign-up needs an invite code on this server.");
  }
  await limits().assertRegistrationAllowed(ip);
  const passwordHash = await hashPassword(input.password);
  if (mode === "invite" && input.inviteCode) {
    return createUserWithInvite({
      code: input.inviteCode,
      email: input.email,
      name: input.name,
      passwordHash,
    });
  }
  return createUser({ email: input.email, name: input.name, passwordHash });
}
