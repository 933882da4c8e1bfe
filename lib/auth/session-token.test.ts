import { decode, encode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { sessionClaims, sessionUserId } from "./session-token";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

vi.mock("next-auth/jwt", async (original) => {
  const real = await original<typeof import("next-auth/jwt")>();
  return { ...real, decode: vi.fn(real.decode) };
});

beforeEach(() => {
  jar.clear();
  vi.mocked(decode).mockClear();
});
afterEach(() => vi.useRealTimers());

describe("sessionUserId", () => {
  it("reads the user id from a token next-auth issued with our secret", async () => {
    jar.set(
      "next-auth.session-token",
      await encode({ token: { uid: "user-1", role: "USER" }, secret: env.AUTH_SECRET }),
    );
    expect(await sessionUserId()).toBe("user-1");
  });

  it("accepts the __Secure- cookie used over HTTPS", async () => {
    jar.set(
      "__Secure-next-auth.session-token",
      await encode({ token: { uid: "user-2" }, secret: env.AUTH_SECRET }),
    );
    expect(await sessionUserId()).toBe("user-2");
  });

  it("is null without a cookie", async () => {
    expect(await sessionUserId()).toBeNull();
  });

  it("is null for a token made with another secret", async () => {
    jar.set(
      "next-auth.session-token",
      await encode({ token: { uid: "x" }, secret: "another-secret-of-32-characters!!" }),
    );
    expect(await sessionUserId()).toBeNull();
  });

  it("is null for a tampered or expired token", async () => {
    const token = await encode({ token: { uid: "x" }, secret: env.AUTH_SECRET });
    jar.set("next-auth.session-token", `${token.slice(0, -4)}AAAA`);
    expect(await sessionUserId()).toBeNull();
    jar.set(
      "next-auth.session-token",
      await encode({ token: { uid: "x" }, secret: env.AUTH_SECRET, maxAge: -60 }),
    );
    expect(await sessionUserId()).toBeNull();
  });
});

describe("sessionClaims", () => {
  it("carries the token version and the sign-in id that sign-out revokes", async () => {
    jar.set(
      "next-auth.session-token",
      await encode({ token: { uid: "u", ver: 3, sid: "sign-in-1" }, secret: env.AUTH_SECRET }),
    );
    expect(await sessionClaims()).toEqual({ uid: "u", ver: 3, sid: "sign-in-1" });
  });

  it("reads a token from before versions and sign-in ids as version 0 with no sid", async () => {
    jar.set("next-auth.session-token", await encode({ token: { uid: "u" }, secret: env.AUTH_SECRET }));
    expect(await sessionClaims()).toEqual({ uid: "u", ver: 0, sid: null });
  });
});

describe("decrypted tokens are remembered until they expire", () => {
  it("decrypts a cookie once, however many requests carry it", async () => {
    const token = await encode({ token: { uid: "cached", ver: 1, sid: "s" }, secret: env.AUTH_SECRET });
    jar.set("next-auth.session-token", token);
    for (let i = 0; i < 3; i++) expect(await sessionClaims()).toEqual({ uid: "cached", ver: 1, sid: "s" });
    expect(decode).toHaveBeenCalledTimes(1);
    // Any other text is decrypted (and refused) on its own, never matched to the remembered one.
    jar.set("next-auth.session-token", `${token.slice(0, -4)}AAAA`);
    expect(await sessionClaims()).toBeNull();
    expect(decode).toHaveBeenCalledTimes(2);
  });

  it("refuses a remembered token once it has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const token = await encode({ token: { uid: "short" }, secret: env.AUTH_SECRET, maxAge: 60 });
    jar.set("next-auth.session-token", token);
    expect(await sessionUserId()).toBe("short");
    vi.setSystemTime(Date.now() + 30_000);
    expect(await sessionUserId()).toBe("short");
    expect(decode).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 60_000); // past exp and next-auth's 15 s clock tolerance
    expect(await sessionUserId()).toBeNull();
  });

  it("does not remember invalid tokens", async () => {
    const token = await encode({ token: { uid: "x" }, secret: "another-secret-of-32-characters!!" });
    jar.set("next-auth.session-token", token);
    expect(await sessionUserId()).toBeNull();
    expect(await sessionUserId()).toBeNull();
    expect(decode).toHaveBeenCalledTimes(2);
  });
});
