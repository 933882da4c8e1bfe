import { Pool } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { databaseKind } from "@/lib/db/client";
import { env, parseEnv } from "@/lib/env";
import { createLimits, type LimitSettings } from "./index";

// Runs on both databases: on PostgreSQL the counters live in the shared `rate_limits` table (two `Limits`
// with their own pools stand for two instances); on SQLite they are in memory.

const pools: Pool[] = [];
const postgres = databaseKind(env.DATABASE_URL) === "postgresql";

function instance(settings: Partial<Record<keyof LimitSettings, string>>) {
  const parsed = parseEnv({ ...settings, AUTH_SECRET: "x".repeat(32) } as Record<string, string>);
  if (!postgres) return createLimits(parsed, { kind: "memory" });
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 2 });
  pools.push(pool);
  return createLimits(parsed, { kind: "postgresql", pool });
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e as { code: string; status: number; details: { retryAfterSeconds: number } };
  }
  return null;
}

describe("rate limits", () => {
  it("RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: the Nth failure locks the account for the window, 429 with a retry time", async () => {
    const limits = instance({ RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "3" });
    const email = `${unique("a")}@x.test`;
    for (let i = 0; i < 3; i++) {
      expect(await refusal(limits.assertSignInAllowed({ email, ip: unique("ip") }))).toBeNull();
      await limits.recordSignInFailure({ email, ip: unique("ip") });
    }
    const e = await refusal(limits.assertSignInAllowed({ email: email.toUpperCase(), ip: unique("ip") }));
    expect(e).toMatchObject({ code: "rate_limited", status: 429 });
    expect(e?.details.retryAfterSeconds).toBeGreaterThan(14 * 60);
    // Another account from the same addresses is unaffected.
    expect(
      await refusal(limits.assertSignInAllowed({ email: `${unique("b")}@x.test`, ip: unique("ip") })),
    ).toBeNull();
  });

  it("a correct password clears the account's failures", async () => {
    const limits = instance({ RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "2" });
    const email = `${unique("c")}@x.test`;
    await limits.recordSignInFailure({ email, ip: "1" });
    await limits.recordSignInSuccess({ email });
    await limits.recordSignInFailure({ email, ip: "1" });
    expect(await refusal(limits.assertSignInAllowed({ email, ip: unique("ip") }))).toBeNull();
  });

  it("RATE_LIMIT_SIGNIN_FAILURES_PER_IP: one address guessing across many accounts is stopped", async () => {
    const limits = instance({ RATE_LIMIT_SIGNIN_FAILURES_PER_IP: "4" });
    const ip = unique("ip");
    for (let i = 0; i < 4; i++) await limits.recordSignInFailure({ email: `${unique("d")}@x.test`, ip });
    const e = await refusal(limits.assertSignInAllowed({ email: `${unique("e")}@x.test`, ip }));
    expect(e?.code).toBe("rate_limited");
  });

  it("concurrent attempts cannot slip under the account limit: each is counted before its password is checked", async () => {
    // Two instances on PostgreSQL (one shared table), one in memory on SQLite.
    const a = instance({ RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "10" });
    const b = postgres ? instance({ RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "10" }) : a;
    const email = `${unique("flood")}@x.test`;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        refusal((i % 2 ? a : b).beginSignInAttempt({ email, ip: unique("ip") })),
      ),
    );
    expect(outcomes.filter((e) => e === null)).toHaveLength(10);
    expect(outcomes.filter((e) => e?.code === "rate_limited")).toHaveLength(40);
    expect((await refusal(a.assertSignInAllowed({ email, ip: unique("ip") })))?.status).toBe(429);
  });

  it("a correct password takes back the attempt it was counted as, for the account and the address", async () => {
    const limits = instance({
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "2",
      RATE_LIMIT_SIGNIN_FAILURES_PER_IP: "2",
    });
    const email = `${unique("ok")}@x.test`;
    const ip = unique("ip");
    for (let i = 0; i < 5; i++) {
      expect(await refusal(limits.beginSignInAttempt({ email, ip }))).toBeNull();
      await limits.recordSignInSuccess({ email, ip });
    }
    expect(await refusal(limits.assertSignInAllowed({ email, ip }))).toBeNull();
  });

  it("RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR", async () => {
    const limits = instance({ RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "2" });
    const ip = unique("ip");
    await limits.assertRegistrationAllowed(ip);
    await limits.assertRegistrationAllowed(ip);
    const e = await refusal(limits.assertRegistrationAllowed(ip));
    expect(e).toMatchObject({ code: "rate_limited", status: 429 });
    expect(e?.details.retryAfterSeconds).toBeGreaterThan(3500);
    expect(await refusal(limits.assertRegistrationAllowed(unique("ip")))).toBeNull();
  });

  it("RATE_LIMIT_TURNS_PER_MINUTE and QUOTA_MESSAGES_PER_DAY", async () => {
    const perMinute = instance({ RATE_LIMIT_TURNS_PER_MINUTE: "3" });
    const user = unique("u");
    for (let i = 0; i < 3; i++) await perMinute.assertTurnAllowed(user);
    const e = await refusal(perMinute.assertTurnAllowed(user));
    expect(e?.code).toBe("rate_limited");
    expect(e?.details.retryAfterSeconds).toBeLessThanOrEqual(60);

    const quota = instance({ RATE_LIMIT_TURNS_PER_MINUTE: "100", QUOTA_MESSAGES_PER_DAY: "2" });
    const other = unique("u");
    await quota.assertTurnAllowed(other);
    await quota.assertTurnAllowed(other);
    const q = await refusal(quota.assertTurnAllowed(other));
    expect(q?.code).toBe("rate_limited");
    expect(q?.details.retryAfterSeconds).toBeGreaterThan(23 * 3600);
  });

  it.runIf(postgres)("PostgreSQL: two instances share one count, also under concurrency", async () => {
    const a = instance({ RATE_LIMIT_TURNS_PER_MINUTE: "10" });
    const b = instance({ RATE_LIMIT_TURNS_PER_MINUTE: "10" });
    const user = unique("u");
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => refusal((i % 2 ? a : b).assertTurnAllowed(user))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(10);
    expect(results.filter((r) => r?.code === "rate_limited")).toHaveLength(6);
  });
});
