import { randomUUID } from "node:crypto";
import type { Account, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { encode } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { OidcClaims } from "./oidc";

// Single sign-on on both databases (docs/decisions/035-oidc.md), through next-auth's signIn and jwt callbacks as
// the OAuth callback runs them: which account a provider's user gets (linked identity, verified e-mail, new
// account when registration is open), every refusal's code, the audit entries, and the revocation rules applying
// to an SSO sign-in like to a password one.

const ISSUER = "https://id.example.test";

// The deployment's settings with single sign-on configured (the test environment has no OIDC_*).
vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return {
    ...real,
    env: {
      ...real.env,
      REGISTRATION: "open",
      oidc: { issuer: ISSUER, clientId: "recall", clientSecret: "s", name: "Test IdP" },
    },
  };
});

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

const COOKIE = "next-auth.session-token";
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db/client");
const { authOptions } = await import("./options");
const { getCurrentUser } = await import("./session");
const { hashPassword } = await import("./password");
const { resolveSsoUser, SSO_ERRORS } = await import("./sso");
const { setPasswordHash } = await import("@/lib/db/users");
const passwordRoute = await import("@/app/api/me/password/route");

beforeEach(() => jar.clear());
afterAll(async () => {
  await db.$disconnect();
});

const PASSWORD = "password-before-sso";
const email = (label = "sso") => `${label}-${randomUUID()}@example.test`;
const claims = (extra: Partial<OidcClaims> = {}): OidcClaims => ({
  sub: `sub-${randomUUID()}`,
  iss: ISSUER,
  email: email(),
  email_verified: true,
  name: "Ada Provider",
  ...extra,
});

async function passwordUser(address = email("pw")) {
  return db.user.create({
    data: { email: address, name: "Password User", passwordHash: await hashPassword(PASSWORD, 10) },
    select: { id: true, email: true, name: true, tokenVersion: true },
  });
}

const account = (c: OidcClaims): Account => ({ provider: "oidc", type: "oauth", providerAccountId: c.sub });
/** What the provider's profile() made of the claims (lib/auth/oidc.ts). */
const profileUser = (c: OidcClaims): User => ({ id: c.sub, email: c.email, name: c.name, role: "USER" });

/** next-auth's OAuth callback: signIn, then (when allowed) jwt. The refusal URL, or the new session cookie. */
async function ssoSignIn(c: OidcClaims): Promise<{ refused: string } | { token: JWT; cookie: string }> {
  const signIn = authOptions.callbacks?.signIn;
  const jwt = authOptions.callbacks?.jwt;
  if (!signIn || !jwt) throw new Error("no callbacks");
  const allowed = await signIn({ user: profileUser(c), account: account(c), profile: c });
  if (allowed !== true) return { refused: String(allowed) };
  const token = await jwt({
    token: { sub: c.sub, email: c.email, name: c.name },
    user: profileUser(c),
    account: account(c),
    profile: c,
  });
  return { token, cookie: await encode({ token, secret: env.AUTH_SECRET }) };
}

async function signedIn(c: OidcClaims) {
  const result = await ssoSignIn(c);
  if ("refused" in result) throw new Error(`refused: ${result.refused}`);
  return result;
}

async function requestAs(cookie: string) {
  jar.set(COOKIE, cookie);
  return (await getCurrentUser())?.id ?? null;
}

const audits = (userId: string) =>
  db.auditLog.findMany({
    where: { targetId: userId },
    select: { action: true, actorId: true, details: true },
  });

describe("the OIDC provider in the auth options", () => {
  it("is offered beside the password provider when OIDC_* is set", () => {
    expect(authOptions.providers.map((p) => [p.id, p.type])).toEqual([
      ["credentials", "credentials"],
      ["oidc", "oauth"],
    ]);
    expect(authOptions.pages).toMatchObject({ signIn: "/login", error: "/login" });
  });
});

describe("which account a provider's user gets", () => {
  it("a new verified e-mail, registration open: a new account, linked, audited; a sign-in like a password one", async () => {
    const c = claims();
    const { token, cookie } = await signedIn(c);
    const user = await db.user.findUniqueOrThrow({ where: { email: c.email } });
    expect(user).toMatchObject({
      name: "Ada Provider",
      oidcIssuer: ISSUER,
      oidcSubject: c.sub,
      role: "USER",
    });
    // The token carries the account, not the provider's subject.
    expect(token).toMatchObject({ uid: user.id, sub: user.id, ver: 0, role: "USER", email: c.email });
    expect(token.sid).toEqual(expect.any(String));
    expect(await requestAs(cookie)).toBe(user.id);
    expect(await audits(user.id)).toEqual([{ action: "user.sso_signup", actorId: user.id, details: {} }]);
    // Nobody knows the password of an account made by single sign-on.
    expect(user.passwordHash).toMatch(/^scrypt\$/);
  });

  it("an existing password account with the same verified e-mail is linked: same account, audited once", async () => {
    const existing = await passwordUser();
    const c = claims({ email: existing.email.toUpperCase() });
    const first = await signedIn(c);
    expect(first.token.uid).toBe(existing.id);
    expect(await db.user.count({ where: { email: existing.email } })).toBe(1);
    expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({
      oidcIssuer: ISSUER,
      oidcSubject: c.sub,
      name: "Password User",
    });
    // Signing in again goes by the identity, even after the e-mail changed on either side.
    await db.user.update({ where: { id: existing.id }, data: { email: email("renamed") } });
    const again = await signedIn({ ...c, email: email("elsewhere"), email_verified: false });
    expect(again.token.uid).toBe(existing.id);
    expect((await audits(existing.id)).map((a) => a.action)).toEqual(["user.sso_link"]);
  });

  it('accepts email_verified "true" (a string, as some providers send it)', async () => {
    const existing = await passwordUser();
    const result = await signedIn(claims({ email: existing.email, email_verified: "true" }));
    expect(result.token.uid).toBe(existing.id);
  });

  it.each([
    ["false", { email_verified: false }],
    ["missing", { email_verified: undefined }],
    ['"false"', { email_verified: "false" }],
  ])(
    "an unverified e-mail (email_verified %s) is refused: nothing linked, nothing created",
    async (_, extra) => {
      const existing = await passwordUser();
      const c = claims({ email: existing.email, ...extra });
      expect(await ssoSignIn(c)).toEqual({ refused: "/login?error=sso_email_unverified" });
      expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({
        oidcIssuer: null,
        oidcSubject: null,
      });
      const stranger = claims(extra);
      expect(await ssoSignIn(stranger)).toEqual({ refused: "/login?error=sso_email_unverified" });
      expect(await db.user.count({ where: { email: stranger.email } })).toBe(0);
      expect(await audits(existing.id)).toEqual([]);
    },
  );

  it("no e-mail or an invalid one is refused like an unverified one", async () => {
    expect(await ssoSignIn(claims({ email: undefined }))).toEqual({
      refused: "/login?error=sso_email_unverified",
    });
    expect(await ssoSignIn(claims({ email: "not an address" }))).toEqual({
      refused: "/login?error=sso_email_unverified",
    });
  });

  it.each(["closed", "invite"] as const)(
    "REGISTRATION=%s: no new account (sso_registration_closed), but existing ones are linked",
    async (mode) => {
      const c = claims();
      await expect(resolveSsoUser(c, { issuer: ISSUER, mode })).rejects.toMatchObject({
        code: SSO_ERRORS.noAccount,
      });
      expect(await db.user.count({ where: { email: c.email } })).toBe(0);
      const existing = await passwordUser();
      const linked = await resolveSsoUser(claims({ email: existing.email }), { issuer: ISSUER, mode });
      expect(linked.id).toBe(existing.id);
    },
  );

  it("a disabled account is refused, by e-mail and by a linked identity", async () => {
    const existing = await passwordUser();
    const c = claims({ email: existing.email });
    await signedIn(c);
    await db.user.update({ where: { id: existing.id }, data: { disabledAt: new Date() } });
    expect(await ssoSignIn(c)).toEqual({ refused: "/login?error=account_disabled" });
    const other = await passwordUser();
    await db.user.update({ where: { id: other.id }, data: { disabledAt: new Date() } });
    expect(await ssoSignIn(claims({ email: other.email }))).toEqual({
      refused: "/login?error=account_disabled",
    });
    expect(await db.user.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({ oidcSubject: null });
  });

  it("an account linked to another subject of the provider is not taken over (sso_conflict)", async () => {
    const existing = await passwordUser();
    await signedIn(claims({ email: existing.email }));
    const impostor = claims({ email: existing.email });
    expect(await ssoSignIn(impostor)).toEqual({ refused: "/login?error=sso_conflict" });
    expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).not.toMatchObject({
      oidcSubject: impostor.sub,
    });
  });

  it("a link from another issuer (the deployment changed providers) is replaced on a verified e-mail", async () => {
    const existing = await passwordUser();
    await db.user.update({
      where: { id: existing.id },
      data: { oidcIssuer: "https://old-idp.example.test", oidcSubject: "old-sub" },
    });
    const c = claims({ email: existing.email });
    expect((await signedIn(c)).token.uid).toBe(existing.id);
    expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({
      oidcIssuer: ISSUER,
      oidcSubject: c.sub,
    });
  });

  it("two first sign-ins racing for one new identity end in one account", async () => {
    const c = claims();
    const [a, b] = await Promise.all([
      resolveSsoUser(c, { issuer: ISSUER, mode: "open" }),
      resolveSsoUser(c, { issuer: ISSUER, mode: "open" }),
    ]);
    expect(a.id).toBe(b.id);
    expect(await db.user.count({ where: { email: c.email } })).toBe(1);
    expect((await audits(a.id)).map((x) => x.action)).toEqual(["user.sso_signup"]);
  });
});

describe("an SSO sign-in follows the revocation rules", () => {
  it("a password change on another device refuses the SSO sign-in at once", async () => {
    const existing = await passwordUser();
    const c = claims({ email: existing.email });
    const sso = await signedIn(c);
    const jwt = authOptions.callbacks?.jwt;
    if (!jwt) throw new Error("no jwt callback");
    const laptop = await encode({
      token: await jwt({ token: { sub: existing.id }, user: { ...existing, role: "USER" }, account: null }),
      secret: env.AUTH_SECRET,
    });
    expect(await requestAs(sso.cookie)).toBe(existing.id);

    jar.set(COOKIE, laptop);
    const res = await passwordRoute.POST(
      new Request("http://127.0.0.1:3000/api/me/password", {
        method: "POST",
        headers: {
          origin: "http://127.0.0.1:3000",
          host: "127.0.0.1:3000",
          "content-type": "application/json",
        },
        body: JSON.stringify({ currentPassword: PASSWORD, newPassword: "a-new-password-2" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    expect(await requestAs(sso.cookie)).toBeNull();
    // next-auth's session endpoint does not re-issue it either.
    await expect(jwt({ token: sso.token, user: undefined as never, account: null })).rejects.toThrow(
      "session_revoked",
    );
    // A new SSO sign-in carries the new version and works.
    const fresh = await signedIn(c);
    expect(fresh.token).toMatchObject({ uid: existing.id, ver: 1 });
    expect(await requestAs(fresh.cookie)).toBe(existing.id);
  });

  it("sign out, sign out everywhere (token version), disabling and deleting refuse it", async () => {
    const c = claims();
    const one = await signedIn(c);
    const two = await signedIn(c);
    const id = String(one.token.uid);
    await authOptions.events?.signOut?.({ token: one.token, session: null as never });
    expect(await requestAs(one.cookie)).toBeNull();
    expect(await requestAs(two.cookie)).toBe(id);

    const passwordHash = (await db.user.findUniqueOrThrow({ where: { id } })).passwordHash;
    await setPasswordHash({ id, passwordHash });
    expect(await requestAs(two.cookie)).toBeNull();

    const three = await signedIn(c);
    expect(await requestAs(three.cookie)).toBe(id);
    await db.user.update({ where: { id }, data: { disabledAt: new Date() } });
    expect(await requestAs(three.cookie)).toBeNull();
    await db.user.update({ where: { id }, data: { disabledAt: null } });
    expect(await requestAs(three.cookie)).toBe(id);
    await db.user.delete({ where: { id } });
    expect(await requestAs(three.cookie)).toBeNull();
    // The identity now belongs to no account: a new one is created (registration is open).
    const reborn = await signedIn(c);
    expect(reborn.token.uid).not.toBe(id);
  });
});
