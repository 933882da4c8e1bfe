import bcrypt from "bcryptjs";

// bcrypt cost 12 in production; tests and benchmarks may lower it through the argument, never below 4.
export async function hashPassword(password: string, cost = 12): Promise<string> {
  return bcrypt.hash(password, cost);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
