import { Pool } from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { databaseKind } from "@/lib/db/client";
import { type Env, env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Abuse limits (docs/decisions/010-abuse-limits.md). On PostgreSQL the counters live in the `rate_limits` table,
// so every instance sees the same counts; on SQLite (one instance) they live in memory. When PostgreSQL cannot
// be reached the limiter falls back to an in-memory copy instead of failing the request.

export type LimitSettings = Pick<
  Env,
  | "RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT"
  | "RATE_LIMIT_SIGNIN_FAILURES_PER_IP"
  | "RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR"
  | "RATE_LIMIT_TURNS_PER_MINUTE"
  | "QUOTA_MESSAGES_PER_DAY"
>;

const SIGNIN_WINDOW_SECONDS = 15 * 60;

type Store = { kind: "memory" } | { kind: "postgresql"; pool: Pool };

function limiter(store: Store, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (store.kind === "memory") return memory;
  return new RateLimiterPostgres({
    storeClient: store.pool,
    tableName: "rate_limits",
    tableCreated: true, // created by the migration
    keyPrefix,
    points,
    duration,
    insuranceLimiter: memory,
  });
}

function rateLimited(res: RateLimiterRes, message: string): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError("rate_limited", message, { details: { retryAfterSeconds } });
}

/** Spends one point; a refusal becomes a 429 rate_limited with Retry-After. */
async function spend(l: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await l.consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw rateLimited(e, message);
    throw e;
  }
}

export interface Limits {
  /** Refuses (429) a sign-in attempt for an account or address that has used up its failures. */
  assertSignInAllowed(input: { email: string; ip: string }): Promise<void>;
  /**
   * Counts an attempt as a failure before its password is checked, and refuses (429) one past the limit. Counting
   * first is what holds the limit under concurrency: 50 simultaneous attempts must not all pass a check made
   * before any of them failed. A correct password then takes it back (recordSignInSuccess).
   */
  beginSignInAttempt(input: { email: string; ip: string }): Promise<void>;
  recordSignInFailure(input: { email: string; ip: string }): Promise<void>;
  /** A correct password clears the account's failures and takes back the attempt counted for the address. */
  recordSignInSuccess(input: { email: string; ip?: string }): Promise<void>;
  assertRegistrationAllowed(ip: string): Promise<void>;
  /** Counts one turn against the per-minute limit and the daily quota; 429 when either is used up. */
  assertTurnAllowed(userId: string): Promise<void>;
  /** Drops a deleted account's turn counters (they are keyed by its id), so no row of it is left. */
  forgetUser(userId: string): Promise<void>;
}

export function createLimits(settings: LimitSettings, store: Store): Limits {
  const accountLimit = settings.RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT;
  const ipLimit = settings.RATE_LIMIT_SIGNIN_FAILURES_PER_IP;
  const signinAccount = limiter(store, "signin_acct", accountLimit, SIGNIN_WINDOW_SECONDS);
  const signinIp = limiter(store, "signin_ip", ipLimit, SIGNIN_WINDOW_SECONDS);
  const register = limiter(store, "register_ip", settings.RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR, 3600);
  const turns = limiter(store, "turns", settings.RATE_LIMIT_TURNS_PER_MINUTE, 60);
  const quota = settings.QUOTA_MESSAGES_PER_DAY
    ? limiter(store, "quota_day", settings.QUOTA_MESSAGES_PER_DAY, 24 * 3600)
    : null;
  const account = (email: string) => email.trim().toLowerCase();
  const signInMessage = "Too many failed sign-ins. Wait a few minutes and try again.";

  return {
    async assertSignInAllowed({ email, ip }) {
      const [a, i] = await Promise.all([signinAccount.get(account(email)), signinIp.get(ip)]);
      for (const [res, max] of [
        [a, accountLimit],
        [i, ipLimit],
      ] as const) {
        if (res && res.consumedPoints >= max) throw rateLimited(res, signInMessage);
      }
    },
    async recordSignInFailure({ email, ip }) {
      await Promise.all([signinAccount.penalty(account(email), 1), signinIp.penalty(ip, 1)]);
    },
    async beginSignInAttempt({ email, ip }) {
      const results = await Promise.allSettled([signinAccount.consume(account(email)), signinIp.consume(ip)]);
      for (const r of results) {
        if (r.status === "fulfilled") continue;
        if (r.reason instanceof RateLimiterRes) throw rateLimited(r.reason, signInMessage);
        throw r.reason;
      }
    },
    async recordSignInSuccess({ email, ip }) {
      await Promise.all([signinAccount.delete(account(email)), ip ? signinIp.reward(ip, 1) : undefined]);
    },
    async assertRegistrationAllowed(ip) {
      await spend(register, ip, "Too many sign-ups from this address. Try again later.");
    },
    async assertTurnAllowed(userId) {
      await spend(turns, userId, "You are sending messages too quickly. Wait a moment.");
      if (quota) await spend(quota, userId, "You have reached today's message limit.");
    },
    async forgetUser(userId) {
      await Promise.all([turns.delete(userId), quota?.delete(userId)]);
    },
  };
}

// One set per process (kept on globalThis so development reloads do not open more pools).
const cache = globalThis as unknown as { __recallLimits?: Limits };

/** The app's limits, configured from the environment. */
export function limits(): Limits {
  if (!cache.__recallLimits) {
    const store: Store =
      databaseKind(env.DATABASE_URL) === "postgresql"
        ? { kind: "postgresql", pool: new Pool({ connectionString: env.DATABASE_URL, max: 4 }) }
        : { kind: "memory" };
    if (store.kind === "postgresql") store.pool.on("error", () => {}); // idle-client errors; queries report their own
    cache.__recallLimits = createLimits(env, store);
  }
  return cache.__recallLimits;
}
