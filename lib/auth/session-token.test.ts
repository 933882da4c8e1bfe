import { encode } from "next-auth/jwt";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { sessionClaims, sessionUserId } from "./session-token";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
  }),
}));

beforeEach(() => jar.clear());

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
