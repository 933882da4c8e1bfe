import { describe, expect, it } from "vitest";
import { maskSecret, openSecret, sealSecret } from "./secret-box";

const key = { secret: "a-long-enough-auth-secret", purpose: "mcp" };

describe("secret box", () => {
  it("round-trips, with a fresh IV each time", () => {
    const a = sealSecret("Bearer abc", key);
    const b = sealSecret("Bearer abc", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("abc");
    expect(openSecret(a, key)).toBe("Bearer abc");
  });

  it("refuses another secret, another purpose and a tampered value", () => {
    const sealed = sealSecret("token", key);
    expect(() => openSecret(sealed, { ...key, secret: "another-auth-secret!!" })).toThrow();
    expect(() => openSecret(sealed, { ...key, purpose: "other" })).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => openSecret(parts.join("."), key)).toThrow();
    expect(() => openSecret("plain text", key)).toThrow();
  });

  it("masks all but the last 4 characters of long values and everything of short ones", () => {
    expect(maskSecret("sk-1234567890abcdef")).toBe("••••cdef");
    expect(maskSecret("short")).toBe("••••");
  });
});
