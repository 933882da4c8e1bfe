import { randomUUID } from "node:crypto";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { JWT } from "next-auth/jwt";
import { encode } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";

// Revocable sessions on both databases: sign-out revokes that token only (its sign-in id), sign out everywhere
// and a password change revoke all of the user's tokens, and the per-request user read stays one statement.

// The app's client, with every SQL statement counted (the query event fires once per statement).
const statements: string[] = [];
vi.mock("@/lib/db/client", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/db/client")>();
  const { PrismaClient: Sqlite } = await import("@/lib/generated/sqlite/client");
  const { PrismaClient: Postgres } = await import("@/lib/generated/postgresql/client");
  const url = env.DATABASE_URL;
  const log = [{ emit: "event", level: "query" }] as const;
  const client =
    real.databaseKind(url) === "sqlite"
      ? new Sqlite({ adapter: new PrismaBetterSqlite3({ url: real.sqlitePath(url) }), log: [...log] })
      : (new Postgres({ adapter: new PrismaPg({ connectionString: url }), log: [...log] }) as never);
  (client as unknown as { $on(e: "query", cb: (q: { query: string }) => void): void }).$on("query", (q) =>
    statements.push(q.query),
  );
  return { ...real, db: client };
});

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

const { db } = await import("@/lib/db/client");
const { authOptions } = await import("./options");
const { getCurrentUser } = await import("./session");
const { revokeSessionToken, setPasswordHash, getSessionUser } = await import("@/lib/db/users");
const signOutEverywhere = await import("@/app/api/auth/sign-out-everywhere/route");

beforeEach(() => jar.clear());
afterAll(async () => {
  await db.$disconnect();
});

async function newUser() {
  return db.user.create({
    data: { email: `rev-${randomUUID()}@example.test`, name: "R", passwordHash: "x" },
    select: { id: true, email: true, name: true, role: true, tokenVersion: true },
  });
}

/** The token next-auth's jwt callback makes at a sign-in (one device). */
async function signIn(user: Awaited<ReturnType<typeof newUser>>): Promise<JWT> {
  const jwt = authOptions.callbacks?.jwt;
  if (!jwt) throw new Error("no jwt callback");
  return jwt({ token: { sub: user.id }, user: { ...user, tokenVersion: user.tokenVersion }, account: null });
}

/** Who the app sees for a request carrying this token's cookie. */
async function requestAs(token: JWT) {
  jar.set("next-auth.session-token", await encode({ token, secret: env.AUTH_SECRET }));
  return (await getCurrentUser())?.id ?? null;
}

/** next-auth's sign-out event for this token (POST /api/auth/signout). */
async function signOut(token: JWT) {
  await authOptions.events?.signOut?.({ token, session: null as never });
}

/** next-auth's session endpoint re-issuing this token's cookie. */
async function refresh(token: JWT) {
  return authOptions.callbacks?.jwt?.({ token, user: undefined as never, account: null });
}

describe("sign-out revokes that token only", () => {
  it("the signed-out cookie is refused while a second device's token still works", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    expect(laptop.sid).toEqual(expect.any(String));
    expect(phone.sid).not.toBe(laptop.sid);
    expect(await requestAs(laptop)).toBe(user.id);
    expect(await requestAs(phone)).toBe(user.id);

    await signOut(laptop);
    expect(await requestAs(laptop)).toBeNull();
    expect(await requestAs(phone)).toBe(user.id);
    // The token version did not move: the other devices keep their sessions.
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tokenVersion).toBe(0);

    // A replayed copy cannot be refreshed into a new cookie either; the live one can.
    await expect(refresh(laptop)).rejects.toThrow("session_revoked");
    await expect(refresh(phone)).resolves.toMatchObject({ uid: user.id, sid: phone.sid });

    // Signing in again on the laptop is a new sign-in and works.
    expect(await requestAs(await signIn(user))).toBe(user.id);
  });

  it("a token from before sign-in ids (no sid) falls back to revoking by version", async () => {
    const user = await newUser();
    const old: JWT = { uid: user.id, ver: 0 };
    const current = await signIn(user);
    expect(await requestAs(old)).toBe(user.id);
    await signOut(old);
    expect(await requestAs(old)).toBeNull();
    expect(await requestAs(current)).toBeNull();
  });
});

describe("sign out everywhere and password change revoke every token", () => {
  it("POST /api/auth/sign-out-everywhere kills both devices", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    await requestAs(laptop);
    const res = await signOutEverywhere.POST(
      new Request("http://127.0.0.1:3000/api/auth/sign-out-everywhere", {
        method: "POST",
        headers: {
          origin: "http://127.0.0.1:3000",
          host: "127.0.0.1:3000",
          "content-type": "application/json",
        },
        body: "{}",
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(204);
    expect(await requestAs(laptop)).toBeNull();
    expect(await requestAs(phone)).toBeNull();
    await expect(refresh(phone)).rejects.toThrow("session_revoked");
    const fresh = await signIn({ ...user, tokenVersion: 1 });
    expect(await requestAs(fresh)).toBe(user.id);
  });

  it("a password change kills both devices", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    await setPasswordHash({ id: user.id, passwordHash: "scrypt$new" });
    expect(await requestAs(laptop)).toBeNull();
    expect(await requestAs(phone)).toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe("scrypt$new");
  });
});

describe("revocation rows", () => {
  it("the per-request user read is one SQL statement, with or without a sign-in id", async () => {
    const user = await newUser();
    const token = await signIn(user);
    await signOut(token);
    for (const sid of [token.sid ?? null, randomUUID(), null]) {
      statements.length = 0;
      const row = await getSessionUser({ id: user.id, sid });
      expect(row?.signedOut).toBe(sid === token.sid);
      // Written out in SQL: the same types as the typed client gives.
      expect(row).toMatchObject({ id: user.id, role: "USER", disabledAt: null, tokenVersion: 0 });
      expect(row?.createdAt).toBeInstanceOf(Date);
      expect(statements.filter((q) => !/^\s*(BEGIN|COMMIT|SELECT 1)\b/i.test(q))).toHaveLength(1);
    }
  });

  it("expired rows are deleted at the next sign-out; a user's rows go with the user", async () => {
    const user = await newUser();
    const now = new Date();
    await revokeSessionToken({
      userId: user.id,
      sid: `old-${randomUUID()}`,
      expiresAt: new Date(+now - 1000),
    });
    const kept = `kept-${randomUUID()}`;
    await revokeSessionToken({ userId: user.id, sid: kept, expiresAt: new Date(+now + 60_000) });
    const next = `next-${randomUUID()}`;
    await revokeSessionToken({ userId: user.id, sid: next, expiresAt: new Date(+now + 60_000), now });
    // Signing out the same token twice is harmless.
    await revokeSessionToken({ userId: user.id, sid: next, expiresAt: new Date(+now + 60_000), now });
    expect(await db.revokedToken.count({ where: { expiresAt: { lt: now } } })).toBe(0);
    expect(
      (await db.revokedToken.findMany({ where: { userId: user.id }, select: { sid: true } }))
        .map((r) => r.sid)
        .sort(),
    ).toEqual([kept, next].sort());

    await db.user.delete({ where: { id: user.id } });
    expect(await db.revokedToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it("sign-out stores the row until no copy of the token can be valid (now + the session's maxAge)", async () => {
    const user = await newUser();
    const token = await signIn(user);
    const before = Date.now();
    await signOut(token);
    const row = await db.revokedToken.findUniqueOrThrow({ where: { sid: token.sid ?? "" } });
    const maxAge = (authOptions.session?.maxAge ?? 0) * 1000;
    expect(+row.expiresAt).toBeGreaterThanOrEqual(before + maxAge - 1000);
    expect(+row.expiresAt).toBeLessThanOrEqual(Date.now() + maxAge + 1000);
    expect(row.userId).toBe(user.id);
  });
});
