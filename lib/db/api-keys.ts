import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/types";
import { db, type TxOption } from "./client";
import { inTx } from "./transaction";

// API keys for the OpenAI-compatible /v1 API (docs/decisions/013-api-keys.md). A key is `rk_` + 32 random bytes
// (base64url); only its SHA-256 is stored — a fast hash is right for a secret with 256 bits of entropy, which no
// dictionary or brute force can reach, and it lets a request find its key with one indexed lookup. The first
// characters (`prefix`) are kept in clear so people can tell their keys apart.

const KEY_PREFIX = "rk_";
const PREFIX_CHARS = 10;
/** lastUsedAt is written at most this often per key, so using a key does not cost a write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const apiKeySelect = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
} as const;

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

const notFound = () => new AppError("not_found", "This API key does not exist or is not yours.");

/** A new key for the user; the returned `key` is the only copy there will ever be. */
export async function createApiKey(
  { userId, name }: { userId: string; name: string },
  { tx = db }: TxOption = {},
) {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await tx.apiKey.create({
    data: { userId, name, prefix: key.slice(0, PREFIX_CHARS), keyHash: hashApiKey(key) },
    select: { id: true, name: true, prefix: true },
  });
  return { ...row, key };
}

/** The user's keys that still work, newest first. */
export async function listApiKeysByUserId(
  { userId }: { userId: string },
  { tx = db }: TxOption = {},
): Promise<ApiKeyView[]> {
  return tx.apiKey.findMany({
    where: { userId, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: apiKeySelect,
  });
}

/** Revokes one of the user's keys; another user's (or an already revoked) key is a 404. */
export async function revokeApiKeyForUser(
  { userId, keyId }: { userId: string; keyId: string },
  { tx = db }: TxOption = {},
) {
  const { count } = await tx.apiKey.updateMany({
    where: { id: keyId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound();
}

export interface ApiKeyUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * The enabled user a key belongs to, or null when the key is unknown, revoked or its user disabled. Records the
 * use, at most once a minute per key (a conditional update: concurrent requests write at most once).
 */
export async function authenticateApiKey(
  { key, now = new Date() }: { key: string; now?: Date },
  { tx = db }: TxOption = {},
): Promise<ApiKeyUser | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const row = await tx.apiKey.findUnique({
    where: { keyHash: hashApiKey(key) },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } },
    },
  });
  if (!row || row.revokedAt || row.user.disabledAt) return null;
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    await tx.apiKey.updateMany({
      where: { id: row.id, revokedAt: null, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] },
      data: { lastUsedAt: now },
    });
  }
  const { disabledAt: _disabled, ...user } = row.user;
  return user;
}

/** Working keys per user, for the admin user list (one grouped query for a page of users). */
export async function countApiKeysByUserIds(
  { userIds }: { userIds: string[] },
  { tx = db }: TxOption = {},
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.apiKey.groupBy({
    by: ["userId"],
    where: { userId: { in: userIds }, revokedAt: null },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.userId, r._count._all]));
}

/** An administrator revokes every working key of a user; one audit entry with the count (never a key). */
export async function revokeUserApiKeysForAdmin(
  { actorId, userId }: { actorId: string; userId: string },
  { tx }: TxOption = {},
) {
  return inTx({ tx }, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new AppError("not_found", "This user does not exist (they may have been deleted).");
    const { count } = await tx.apiKey.updateMany({
      where: { userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await tx.auditLog.create({
      data: {
        actorId,
        action: "user.revoke_api_keys",
        targetType: "User",
        targetId: userId,
        details: { count },
      },
    });
    return { revoked: count };
  });
}
