import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import bcrypt from "bcryptjs";

// Passwords are hashed with scrypt, which Node runs on its libuv thread pool: a flood of sign-ins no longer
// stalls every other request on the event loop (bcryptjs, used before, hashes in JavaScript on it). Hashes
// written by bcrypt still verify and are replaced with scrypt at the user's next successful sign-in.
//
// Format: scrypt$<log2 N>$<r>$<p>$<salt base64>$<key base64>

const KEY_LENGTH = 32;
/** Production cost: N = 2^15, r = 8 (32 MiB, ~60 ms on one core). Tests may lower it, never below 2^10. */
const DEFAULT_LOG_N = 15;

/**
 * At most this many hashes run at once; the others wait their turn in a queue. A flood of sign-ins would
 * otherwise fill libuv's thread pool (4 threads), which every request needs too — next-auth derives the session
 * cookie's key there (HKDF) on each request — and take every core from the event loop. Half the cores (at least
 * one) leaves the rest to everyone else; sign-ins then queue, not the other users' requests.
 */
export const HASH_SLOTS = Math.max(1, Math.floor(availableParallelism() / 2));
let running = 0;
const waiting: (() => void)[] = [];

/** Runs `fn` when one of `HASH_SLOTS` is free (first come, first served). Exported for tests. */
export async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running < HASH_SLOTS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, still counted
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 };
  return withHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string, logN = DEFAULT_LOG_N): Promise<string> {
  const cost = Math.max(10, Math.min(20, logN));
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, 8, 1);
  return `scrypt$${cost}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Whether a stored hash should be replaced by a fresh scrypt hash after a successful check (bcrypt, weaker). */
export function needsRehash(hash: string): boolean {
  const parts = hash.split("$");
  return parts[0] !== "scrypt" || Number(parts[1]) < DEFAULT_LOG_N;
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (hash.startsWith("scrypt$")) {
    const [, logN, r, p, salt, key] = hash.split("$");
    if (!logN || !r || !p || !salt || !key) return false;
    const expected = Buffer.from(key, "base64");
    const actual = await derive(password, Buffer.from(salt, "base64"), Number(logN), Number(r), Number(p));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  if (/^\$2[aby]\$/.test(hash)) return bcrypt.compare(password, hash);
  return false;
}
