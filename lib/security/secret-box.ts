import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets at rest (MCP servers' environment and headers): AES-256-GCM under a key derived from AUTH_SECRET with
// HKDF-SHA256, one key per purpose. A sealed value is "v1.<iv>.<tag>.<ciphertext>" (base64url), so a changed
// AUTH_SECRET or a tampered value fails to open instead of yielding garbage.

const VERSION = "v1";

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "recall-secret-box", `recall:${purpose}`, 32));
}

export function sealSecret(plain: string, { secret, purpose }: { secret: string; purpose: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The plain text, or throws when the value was not sealed with this secret and purpose. */
export function openSecret(sealed: string, { secret, purpose }: { secret: string; purpose: string }): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", keyFor(secret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** What a client may see of a secret: never more than its last 4 characters, and only of a long one. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : "••••";
}
