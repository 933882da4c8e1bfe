import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { encode } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { databaseKind, db } from "@/lib/db/client";
import { checkDatabase } from "@/lib/db/health";
import { createInvite } from "@/lib/db/invites";
import { env } from "@/lib/env";
import { authOptions, SIGNIN_ERRORS } from "./options";
import { verifyPassword } from "./password";
import { registerUser } from "./register";
import { getCurrentUser } from "./session";

// On both databases: registration modes and invites, revocable tokens, bcrypt → scrypt upgrade, a
// sign-in with the database down, SQLite's secure_delete and the health write probe.

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

const failStorage = { on: false };
vi.mock("@/lib/db/users", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/db/users")>();
  return {
    ...real,
    unsafeGetUserCredentialsByEmail: async (args: { email: string }) => {
      if (failStorage.on) {
        throw Object.assign(
          new Error("Invalid `prisma.user.findUnique()` invocation: connect ECONNREFUSED /secret"),
          {
            name: "PrismaClientKnownRequestError",
          },
        );
      }
      return real.unsafeGetUserCredentialsByEmail(args);
    },
  };
});

beforeEach(() => {
  jar.clear();
  failStorage.on = false;
});
afterAll(async () => {
  await db.$disconnect();
});

const kind = databaseKind(env.DATABASE_URL);
const email = () => `sec-${randomUUID()}@example.test`;
const ip = () => `ip-${randomUUID()}`;
const input = (extra: Record<string, string> = {}) => ({
  email: email(),
  name: "N",
  password: "long-enough-pw",
  ...extra,
});

type Authorize = (raw: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options
  .authorize;

async function signInAs(id: string, ver: number) {
  jar.set("next-auth.session-token", await encode({ token: { uid: id, ver }, secret: env.AUTH_SECRET }));
}

describe("REGISTRATION", () => {
  it("closed → 403 registration_closed, nothing created", async () => {
    const data = input();
    await expect(registerUser(data, { ip: ip(), mode: "closed" })).rejects.toMatchObject({
      code: "registration_closed",
      status: 403,
    });
    expect(await db.user.count({ where: { email: data.email } })).toBe(0);
  });

  it("invite: needs a valid code, which works once", async () => {
    const admin = await db.user.create({
      data: { email: email(), name: "A", passwordHash: "x", role: "ADMIN" },
    });
    await expect(registerUser(input(), { ip: ip(), mode: "invite" })).rejects.toMatchObject({
      code: "invalid_invite",
    });
    await expect(
      registerUser(input({ inviteCode: "made-up" }), { ip: ip(), mode: "invite" }),
    ).rejects.toMatchObject({
      code: "invalid_invite",
    });
    const { code } = await createInvite({ actorId: admin.id, validDays: 1 });
    const user = await registerUser(input({ inviteCode: code }), { ip: ip(), mode: "invite" });
    expect(user.email).toContain("@example.test");
    const row = await db.inviteCode.findFirstOrThrow({ where: { usedById: user.id } });
    expect(row.usedAt).not.toBeNull();
    expect(row.codeHash).not.toContain(code);
    await expect(
      registerUser(input({ inviteCode: code }), { ip: ip(), mode: "invite" }),
    ).rejects.toMatchObject({
      code: "invalid_invite",
    });
  });

  it("an expired invite is refused", async () => {
    const admin = await db.user.create({
      data: { email: email(), name: "A", passwordHash: "x", role: "ADMIN" },
    });
    const { code, invite } = await createInvite({ actorId: admin.id, validDays: 1 });
    await db.inviteCode.update({
      where: { id: invite.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(
      registerUser(input({ inviteCode: code }), { ip: ip(), mode: "invite" }),
    ).rejects.toMatchObject({
      code: "invalid_invite",
    });
  });

  it("open: creates the account with a scrypt hash", async () => {
    const user = await registerUser(input(), { ip: ip(), mode: "open" });
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
  });
});

describe("revocable sessions", () => {
  // Per-token sign-out (the token's sid) is in revocation.int.test.ts; this is the version check alone, with a
  // token from before sign-in ids, whose sign-out falls back to raising the version.
  it("a token is refused once the user's token version moved on", async () => {
    const user = await db.user.create({ data: { email: email(), name: "R", passwordHash: "x" } });
    await signInAs(user.id, 0);
    expect((await getCurrentUser())?.id).toBe(user.id);

    // next-auth's sign-out event for this token.
    await authOptions.events?.signOut?.({ token: { uid: user.id, ver: 0 }, session: null as never });
    expect(await getCurrentUser()).toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tokenVersion).toBe(1);

    // A new sign-in carries the new version and works.
    await signInAs(user.id, 1);
    expect((await getCurrentUser())?.id).toBe(user.id);
  });
});

describe("sign-in", () => {
  it("upgrades a bcrypt hash to scrypt at the next successful sign-in, and the token carries the version", async () => {
    const address = email();
    const user = await db.user.create({
      data: {
        email: address,
        name: "B",
        passwordHash: await bcrypt.hash("old-password", 4),
        tokenVersion: 3,
      },
    });
    const result = (await authorize({ email: address, password: "old-password" }, { headers: {} })) as {
      id: string;
      tokenVersion: number;
    };
    expect(result).toMatchObject({ id: user.id, tokenVersion: 3 });
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword("old-password", row.passwordHash)).toBe(true);
  });

  it("with the database down, reveals nothing but storage_error", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    failStorage.on = true;
    const error = await authorize({ email: email(), password: "whatever" }, { headers: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(SIGNIN_ERRORS.storage);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it("wrong passwords are counted per account: the 11th attempt is refused even with the right password", async () => {
    const address = email();
    await registerUser({ email: address, name: "F", password: "right-password" }, { ip: ip(), mode: "open" });
    const headers = { "x-forwarded-for": ip() };
    for (let i = 0; i < env.RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT; i++) {
      await expect(authorize({ email: address, password: `wrong-${i}` }, { headers })).rejects.toThrow(
        SIGNIN_ERRORS.invalid,
      );
    }
    await expect(authorize({ email: address, password: "right-password" }, { headers })).rejects.toThrow(
      SIGNIN_ERRORS.limited,
    );
  });
});

describe("storage guards", () => {
  it.runIf(kind === "sqlite")("SQLite runs with secure_delete on", async () => {
    const rows = await db.$queryRawUnsafe<{ secure_delete: number | bigint }[]>("PRAGMA secure_delete");
    expect(Number(rows[0]?.secure_delete)).toBe(1);
  });

  it("health passes its write probe on a working database", async () => {
    expect(await checkDatabase()).toMatchObject({ ok: true, kind });
  });

  it.runIf(kind === "sqlite")(
    "SQLite health reports degraded while another process holds the write lock",
    async () => {
      const { default: Database } = await import("better-sqlite3");
      const { sqlitePath } = await import("@/lib/db/client");
      const other = new Database(sqlitePath(env.DATABASE_URL));
      other.exec("BEGIN IMMEDIATE");
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        expect((await checkDatabase()).ok).toBe(false);
      } finally {
        other.exec("ROLLBACK");
        other.close();
        log.mockRestore();
      }
      expect((await checkDatabase()).ok).toBe(true);
    },
    20_000,
  );
});
