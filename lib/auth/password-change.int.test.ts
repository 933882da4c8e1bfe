import { randomUUID } from "node:crypto";
import type { JWT } from "next-auth/jwt";
import { encode } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";

// POST /api/me/password on both databases: a wrong current password changes nothing; a change refuses every
// other sign-in at once, keeps the browser that made it signed in (a re-issued cookie), and keeps API keys
// working unless the user also revokes them.

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

const COOKIE = "next-auth.session-token";
const { db } = await import("@/lib/db/client");
const { authOptions } = await import("./options");
const { getCurrentUser } = await import("./session");
const { hashPassword, verifyPassword } = await import("./password");
const { createApiKey, authenticateApiKey } = await import("@/lib/db/api-keys");
const passwordRoute = await import("@/app/api/me/password/route");

beforeEach(() => jar.clear());
afterAll(async () => {
  await db.$disconnect();
});

const OLD = "old-password-1";
const NEW = "new-password-2";

async function newUser() {
  return db.user.create({
    data: {
      email: `pw-${randomUUID()}@example.test`,
      name: "P",
      passwordHash: await hashPassword(OLD, 10),
    },
    select: { id: true, email: true, name: true, role: true, tokenVersion: true },
  });
}

type User = Awaited<ReturnType<typeof newUser>>;

async function signIn(user: User): Promise<string> {
  const jwt = authOptions.callbacks?.jwt;
  if (!jwt) throw new Error("no jwt callback");
  const token: JWT = await jwt({ token: { sub: user.id }, user, account: null });
  return encode({ token, secret: env.AUTH_SECRET });
}

/** Who the app sees for a request carrying this session cookie. */
async function requestAs(cookie: string) {
  jar.set(COOKIE, cookie);
  return (await getCurrentUser())?.id ?? null;
}

async function changePassword(cookie: string, body: unknown) {
  jar.set(COOKIE, cookie);
  return passwordRoute.POST(
    new Request("http://127.0.0.1:3000/api/me/password", {
      method: "POST",
      headers: {
        origin: "http://127.0.0.1:3000",
        host: "127.0.0.1:3000",
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

/** The session cookie's value in a Set-Cookie header. */
function cookieValue(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  const match = header.match(new RegExp(`^${COOKIE}=([^;]+);`));
  if (!match?.[1]) throw new Error(`no session cookie in ${JSON.stringify(header)}`);
  expect(header).toMatch(/HttpOnly/);
  return match[1];
}

async function stored(user: User) {
  return db.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { passwordHash: true, tokenVersion: true },
  });
}

describe("POST /api/me/password", () => {
  it("refuses every other sign-in at once, keeps this browser signed in and API keys working", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    const key = await createApiKey({ userId: user.id, name: "script" });

    const res = await changePassword(laptop, { currentPassword: OLD, newPassword: NEW });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revokedApiKeys: 0 });
    const reissued = cookieValue(res);

    expect(await requestAs(phone)).toBeNull();
    expect(await requestAs(laptop)).toBeNull(); // the old copy of this browser's cookie too
    expect(await requestAs(reissued)).toBe(user.id);
    expect((await authenticateApiKey({ key: key.key }))?.id).toBe(user.id);

    const after = await stored(user);
    expect(after.tokenVersion).toBe(user.tokenVersion + 1);
    expect(await verifyPassword(NEW, after.passwordHash)).toBe(true);
    expect(await verifyPassword(OLD, after.passwordHash)).toBe(false);
  });

  it("revokes the user's API keys as well when asked", async () => {
    const user = await newUser();
    const other = await newUser();
    const laptop = await signIn(user);
    const keys = [
      await createApiKey({ userId: user.id, name: "a" }),
      await createApiKey({ userId: user.id, name: "b" }),
    ];
    const othersKey = await createApiKey({ userId: other.id, name: "theirs" });

    const res = await changePassword(laptop, { currentPassword: OLD, newPassword: NEW, revokeApiKeys: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revokedApiKeys: 2 });
    for (const key of keys) expect(await authenticateApiKey({ key: key.key })).toBeNull();
    expect((await authenticateApiKey({ key: othersKey.key }))?.id).toBe(other.id);
    expect(await requestAs(cookieValue(res))).toBe(user.id);
  });

  it("a wrong current password is a 403 with a code and changes nothing", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    const key = await createApiKey({ userId: user.id, name: "script" });
    const before = await stored(user);

    const res = await changePassword(laptop, {
      currentPassword: "not-the-password",
      newPassword: NEW,
      revokeApiKeys: true,
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("wrong_password");
    expect(res.headers.get("set-cookie")).toBeNull();

    expect(await stored(user)).toEqual(before);
    expect(await requestAs(laptop)).toBe(user.id);
    expect(await requestAs(phone)).toBe(user.id);
    expect((await authenticateApiKey({ key: key.key }))?.id).toBe(user.id);
  });

  it("a too short new password is a 422 and changes nothing", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const before = await stored(user);
    const res = await changePassword(laptop, { currentPassword: OLD, newPassword: "short" });
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe("validation_failed");
    expect(await stored(user)).toEqual(before);
    expect(await requestAs(laptop)).toBe(user.id);
  });

  it("wrong guesses are limited like sign-in: past the limit even the right password is refused", async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const before = await stored(user);
    for (let i = 0; i < env.RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT; i++) {
      const res = await changePassword(laptop, { currentPassword: `guess-${i}`, newPassword: NEW });
      expect(res.status).toBe(403);
    }
    const res = await changePassword(laptop, { currentPassword: OLD, newPassword: NEW });
    expect(res.status).toBe(429);
    expect((await res.json()).error.code).toBe("rate_limited");
    expect(await stored(user)).toEqual(before);
  });

  it("without a session it is a 401", async () => {
    const res = await changePassword("not-a-token", { currentPassword: OLD, newPassword: NEW });
    expect(res.status).toBe(401);
  });
});
