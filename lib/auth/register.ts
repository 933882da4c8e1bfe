import "server-only";
import { createUser, type SafeUser } from "@/lib/db/users";
import { hashPassword } from "./password";
import type { RegisterInput } from "./schemas";

export async function registerUser(input: RegisterInput): Promise<SafeUser> {
  const passwordHash = await hashPassword(input.password);
  return createUser({ email: input.email, name: input.name, passwordHash });
}
