import { randomUUID } from "node:crypto";
import type { JWT } from "next-auth/jwt";
import { encode } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";

// The account routes on both databases: PATCH /api/me (a new email needs the current password), DELETE /api/me
// (the administrator's cascade and receipt, nothing of the user left), an administrator's password reset (the
// user's sign-ins refused, a change forced), and GET /api/me/usage (one grouped statement per request).

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
const { deleteUserAsAdmin } = await import("./account");
const { loggingClient, rowsReferring, zeroEverywhere } = await import("@/lib/db/test-rows");
const { usageByDay, usageByUserAndModel, windowStart } = await import("@/lib/db/usage");
const { limits } = await import("@/lib/rate-limit");
const meRoute = await import("@/app/api/me/route");
const usageRoute = await import("@/app/api/me/usage/route");
const resetRoute = await import("@/app/api/admin/users/[id]/password-reset/route");
const passwordRoute = await import("@/app/api/me/password/route");

beforeEach(() => jar.clear());
afterAll(async () => {
  await db.$disconnect();
});

const PASSWORD = "account-password-1";

async function newUser(role: "USER" | "ADMIN" = "USER") {
  return db.user.create({
    data: {
      email: `acc-${randomUUID()}@example.test`,
      name: "A",
      role,
      passwordHash: await hashPassword(PASSWORD, 10),
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

type Handler = (req: Request, ctx: { params: Promise<never> }) => Promise<Response>;
async function call(cookie: string, handler: unknown, method: string, body?: unknown, params: object = {}) {
  jar.set(COOKIE, cookie);
  return (handler as Handler)(
    new Request("http://127.0.0.1:3000/api/me", {
      method,
      headers: {
        origin: "http://127.0.0.1:3000",
        host: "127.0.0.1:3000",
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params as never) },
  );
}

/** A conversation with `answers` answers of `model` (7 prompt and 3 completion tokens each). */
async function converse(userId: string, model: string | null, answers: number, createdAt = new Date()) {
  const session = await db.chatSession.create({ data: { userId, title: "Chat" } });
  let seq = 0;
  for (let i = 0; i < answers; i++) {
    const q = await db.chatMessage.create({
      data: { sessionId: session.id, seq: ++seq, role: "user", text: `q${i}`, createdAt },
    });
    await db.chatMessage.create({
      data: {
        sessionId: session.id,
        seq: ++seq,
        parentId: q.id,
        role: "assistant",
        text: `a${i}`,
        model,
        promptTokens: 7,
        completionTokens: 3,
        createdAt,
      },
    });
  }
  await db.chatSession.update({ where: { id: session.id }, data: { lastSeq: seq } });
  return session.id;
}

describe("PATCH /api/me", () => {
  it("changes the name without a password, and the email only with the right one", async () => {
    const user = await newUser();
    const cookie = await signIn(user);
    const renamed = await call(cookie, meRoute.PATCH, "PATCH", { name: "  New Name " });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).user).toEqual({ id: user.id, name: "New Name", email: user.email });

    const email = `new-${randomUUID()}@example.test`;
    const missing = await call(cookie, meRoute.PATCH, "PATCH", { email });
    expect(missing.status).toBe(422);
    expect((await missing.json()).error).toMatchObject({ code: "validation_failed" });
    const wrong = await call(cookie, meRoute.PATCH, "PATCH", { email, currentPassword: "nope" });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).error.code).toBe("wrong_password");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);

    const ok = await call(cookie, meRoute.PATCH, "PATCH", {
      email: email.toUpperCase(),
      currentPassword: PASSWORD,
    });
    expect(ok.status).toBe(200);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(email);
    // The same session keeps working under the new address.
    expect((await getCurrentUser())?.email).toBe(email);
  });

  it("another account's email is a 409 and changes nothing", async () => {
    const user = await newUser();
    const other = await newUser();
    const res = await call(await signIn(user), meRoute.PATCH, "PATCH", {
      email: other.email,
      currentPassword: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("email_taken");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });

  it("refuses unknown fields and a blank name (422) and needs a session (401)", async () => {
    const user = await newUser();
    const cookie = await signIn(user);
    expect((await call(cookie, meRoute.PATCH, "PATCH", { role: "ADMIN" })).status).toBe(422);
    expect((await call(cookie, meRoute.PATCH, "PATCH", { name: "   " })).status).toBe(422);
    expect((await call("nope", meRoute.PATCH, "PATCH", { name: "x" })).status).toBe(401);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).role).toBe("USER");
  });
});

describe("DELETE /api/me", () => {
  it("a wrong password is a 403 and deletes nothing", async () => {
    const user = await newUser();
    await converse(user.id, "m", 1);
    const res = await call(await signIn(user), meRoute.DELETE, "DELETE", { password: "nope" });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("wrong_password");
    expect(await db.chatSession.count({ where: { userId: user.id } })).toBe(1);
  });

  it("deletes the account and everything in it, with the administrator's receipt, and clears the cookie", async () => {
    const user = await newUser();
    const twin = await newUser();
    const sessionId = await converse(user.id, "m", 2);
    await converse(twin.id, "m", 2);
    await createApiKey({ userId: user.id, name: "k" });
    await limits().assertTurnAllowed(user.id); // a turn counter keyed by the id (a row on PostgreSQL)
    const cookie = await signIn(user);

    const res = await call(cookie, meRoute.DELETE, "DELETE", { password: PASSWORD });
    expect(res.status).toBe(200);
    const { receipt } = await res.json();
    expect(res.headers.get("set-cookie")).toMatch(/^next-auth\.session-token=;.*Expires=Thu, 01 Jan 1970/);
    expect(receipt).toMatchObject({
      userId: user.id,
      deleted: { User: 1, ChatSession: 1, ChatMessage: 4 },
      anonymized: { AuditLog: 0 },
    });
    const counts = await rowsReferring(db, env.DATABASE_URL, [user.id, sessionId]);
    expect(counts).toEqual(zeroEverywhere(counts));
    expect(await getCurrentUser()).toBeNull();

    // The same shape an administrator gets for the twin.
    const admin = await newUser("ADMIN");
    await limits().assertTurnAllowed(twin.id);
    const adminReceipt = await deleteUserAsAdmin({ actorId: admin.id, userId: twin.id });
    const twins = await rowsReferring(db, env.DATABASE_URL, [twin.id]);
    expect(twins).toEqual(zeroEverywhere(twins));
    expect(Object.keys(adminReceipt.deleted).sort()).toEqual(Object.keys(receipt.deleted).sort());
    expect(adminReceipt.deleted).toEqual(receipt.deleted); // both had one conversation of two answers
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: user.id, action: "user.delete" } });
    expect(audit.actorId).toBeNull();
  });

  it("the only administrator cannot delete their account", async () => {
    await db.user.updateMany({ where: { role: "ADMIN" }, data: { role: "USER" } });
    const admin = await newUser("ADMIN");
    const res = await call(await signIn(admin), meRoute.DELETE, "DELETE", { password: PASSWORD });
    expect(res.status).toBe(409);
    const { error } = await res.json();
    expect(error.code).toBe("last_admin");
    expect(error.message).toMatch(/only administrator/);
    expect(await db.user.count({ where: { id: admin.id } })).toBe(1);

    const second = await newUser("ADMIN");
    expect((await call(await signIn(admin), meRoute.DELETE, "DELETE", { password: PASSWORD })).status).toBe(
      200,
    );
    expect(await db.user.count({ where: { id: second.id } })).toBe(1);
  });
});

describe("POST /api/admin/users/:id/password-reset", () => {
  it("returns a one-time password, refuses the user's sign-ins, keeps API keys, forces a change", async () => {
    const admin = await newUser("ADMIN");
    const user = await newUser();
    const browser = await signIn(user);
    const key = await createApiKey({ userId: user.id, name: "k" });

    const res = await call(await signIn(admin), resetRoute.POST, "POST", undefined, { id: user.id });
    expect(res.status).toBe(200);
    const { password } = await res.json();
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(password, row.passwordHash)).toBe(true);
    expect(row.mustChangePassword).toBe(true);
    jar.set(COOKIE, browser);
    expect(await getCurrentUser()).toBeNull();
    expect((await authenticateApiKey({ key: key.key }))?.id).toBe(user.id);

    // Signed in with it, the user is flagged until they choose their own.
    const fresh = await signIn({ ...user, tokenVersion: row.tokenVersion });
    jar.set(COOKIE, fresh);
    expect((await getCurrentUser())?.mustChangePassword).toBe(true);
    const changed = await call(fresh, passwordRoute.POST, "POST", {
      currentPassword: password,
      newPassword: "my-own-password",
    });
    expect(changed.status).toBe(200);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).mustChangePassword).toBe(false);
    expect(await db.auditLog.count({ where: { targetId: user.id, action: "user.password_reset" } })).toBe(1);
  });

  it("is for administrators only, not for one's own account, and 404 for an unknown user", async () => {
    const admin = await newUser("ADMIN");
    const user = await newUser();
    const before = await db.user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(
      (await call(await signIn(user), resetRoute.POST, "POST", undefined, { id: admin.id })).status,
    ).toBe(403);
    const self = await call(await signIn(admin), resetRoute.POST, "POST", undefined, { id: admin.id });
    expect(self.status).toBe(409);
    expect((await self.json()).error.code).toBe("self_action");
    expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).passwordHash).toBe(
      before.passwordHash,
    );
    expect(
      (await call(await signIn(admin), resetRoute.POST, "POST", undefined, { id: "nobody" })).status,
    ).toBe(404);
  });
});

describe("GET /api/me/usage", () => {
  it("sums the user's answers per UTC day and model over 30 days, and nobody else's", async () => {
    const user = await newUser();
    const other = await newUser();
    const now = new Date();
    const yesterday = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    await converse(user.id, "alpha", 2);
    await converse(user.id, "beta", 1);
    await converse(user.id, "alpha", 1, yesterday);
    await converse(user.id, null, 1);
    await converse(user.id, "alpha", 1, new Date(now.getTime() - 40 * 24 * 60 * 60 * 1000)); // outside
    await converse(other.id, "alpha", 5);

    const res = await call(await signIn(user), usageRoute.GET, "GET");
    expect(res.status).toBe(200);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    expect(await res.json()).toEqual([
      { day: day(yesterday), model: "alpha", promptTokens: 7, completionTokens: 3, answers: 1 },
      { day: day(now), model: "alpha", promptTokens: 14, completionTokens: 6, answers: 2 },
      { day: day(now), model: "beta", promptTokens: 7, completionTokens: 3, answers: 1 },
      { day: day(now), model: "unknown", promptTokens: 7, completionTokens: 3, answers: 1 },
    ]);
  });

  it("is one statement however many answers there are", async () => {
    const user = await newUser();
    await converse(user.id, "alpha", 6);
    const { client, statements } = loggingClient(env.DATABASE_URL);
    try {
      const rows = await usageByDay({ userId: user.id, since: windowStart(30) }, { tx: client as never });
      expect(rows).toEqual([expect.objectContaining({ model: "alpha", answers: 6 })]);
      expect(statements.filter((s) => /^\s*SELECT/i.test(s.query))).toHaveLength(1);
      statements.length = 0;
      await usageByUserAndModel({ since: windowStart(30) }, { tx: client as never });
      expect(statements.filter((s) => /^\s*SELECT/i.test(s.query))).toHaveLength(1);
    } finally {
      await client.$disconnect();
    }
  });

  it("gives the administrator each user's usage per model", async () => {
    const user = await newUser();
    await converse(user.id, "alpha", 3);
    await converse(user.id, "beta", 1);
    const rows = (await usageByUserAndModel({ since: windowStart(30) })).filter((r) => r.userId === user.id);
    expect(rows).toEqual([
      {
        userId: user.id,
        email: user.email,
        name: "A",
        model: "alpha",
        promptTokens: 21,
        completionTokens: 9,
        answers: 3,
      },
      {
        userId: user.id,
        email: user.email,
        name: "A",
        model: "beta",
        promptTokens: 7,
        completionTokens: 3,
        answers: 1,
      },
    ]);
  });
});
