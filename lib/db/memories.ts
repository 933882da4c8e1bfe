import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { checkpointed } from "./checkpoint";
import { db, type TxOption } from "./client";
import { type Cursor, keysetArgs, keysetPage } from "./cursor";
import { notExpired, recordFactVersion } from "./fact-history";
import { projectOfSession } from "./projects";
import { asBoolean, queryRows } from "./sql";
import { withTransaction } from "./transaction";

// Long-term facts (MemoryFact; docs/decisions/014-long-term-memory.md). Every query names the user, so a fact never
// crosses users. The turn's side (what is injected, what the tools do) is first; the management API follows.

export const factSelect = {
  id: true,
  text: true,
  subject: true,
  sourceSessionId: true,
  sourceMessageId: true,
  supersededById: true,
  status: true,
  extracted: true,
  createdAt: true,
  updatedAt: true,
  expiresAt: true,
  projectId: true,
} as const;

export interface FactRow {
  id: string;
  text: string;
  subject: string | null;
  sourceSessionId: string | null;
  sourceMessageId: string | null;
  supersededById: string | null;
  /** Suggested facts (found after an answer, not yet accepted) are never injected, recalled or offered to tools. */
  status: "active" | "suggested";
  extracted: boolean;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  /** The project whose conversations see it (null: global). */
  projectId: string | null;
}

/**
 * The facts a conversation sees: global ones, plus its project's when it is in one (decision 036). `undefined`
 * scope: every fact of the user (the management side).
 */
const inProjectScope = (projectId: string | null | undefined) =>
  projectId === undefined ? {} : { OR: [{ projectId: null }, ...(projectId ? [{ projectId }] : [])] };

/** Replacements followed back from a forgotten fact (one indexed read each); no real chain is this long. */
const MAX_SUPERSEDE_STEPS = 1000;

/**
 * The user's switch and a fingerprint of their active facts (count and newest change), in one statement served by
 * the (userId, supersededById, updatedAt) index: a turn reads the facts themselves only when the fingerprint moved.
 * A missing user reads as off.
 */
export async function longTermMemoryState({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  // Written out (sql.ts): read before every turn.
  const [row] = await queryRows(
    tx,
    `SELECT u."longTermMemory" AS "on", COUNT(f."id") AS "n", MAX(f."updatedAt") AS "at"
     FROM "User" u LEFT JOIN "MemoryFact" f ON f."userId" = u."id" AND f."status" = 'active' AND f."supersededById" IS NULL
     WHERE u."id" = ?
     GROUP BY u."longTermMemory"`,
    [userId],
  );
  if (!row) return { enabled: false, stamp: "" };
  const at = row.at instanceof Date ? row.at.getTime() : String(row.at ?? "");
  return { enabled: row.on === true || Number(row.on) === 1, stamp: `${String(row.n)}:${at}` };
}

/**
 * The user's active (not superseded, not expired) facts, most recently changed first; with `projectId` only those
 * a conversation of that project (a string) or outside any project (null) sees.
 */
export async function listActiveFacts(
  { userId, projectId }: { userId: string; projectId?: string | null | undefined },
  { tx = db }: TxOption = {},
) {
  return tx.memoryFact.findMany({
    where: {
      userId,
      status: "active",
      supersededById: null,
      ...notExpired(new Date()),
      AND: [inProjectScope(projectId)],
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    select: factSelect,
  });
}

/**
 * Stores a fact learned from `sourceMessageId`. When it has a subject, the user's active facts on the same subject
 * are superseded by it (kept, marked replaced). The same text already active is not stored twice: it is returned
 * (with the new expiry when one is given). Each change is a version (lib/db/fact-history.ts); `tx` must be a
 * transaction.
 */
export async function rememberFact(
  {
    userId,
    text,
    subject,
    sourceSessionId,
    sourceMessageId,
    expiresAt = null,
    by = "model",
    extracted = false,
  }: {
    userId: string;
    text: string;
    subject: string | null;
    sourceSessionId: string;
    sourceMessageId: string;
    expiresAt?: Date | null;
    by?: "user" | "model";
    extracted?: boolean;
  },
  { tx = db }: TxOption = {},
): Promise<{ fact: FactRow; superseded: FactRow[]; duplicate: boolean }> {
  const now = new Date();
  // Learned in a project's conversation: the project's fact (decision 036).
  const projectId = await projectOfSession({ sessionId: sourceSessionId }, { tx });
  const same = await tx.memoryFact.findFirst({
    where: {
      userId,
      status: "active",
      supersededById: null,
      text,
      ...notExpired(now),
      AND: [inProjectScope(projectId)],
    },
    select: factSelect,
  });
  if (same) {
    if (!expiresAt) return { fact: same, superseded: [], duplicate: true };
    const [renewed] = await tx.memoryFact.updateManyAndReturn({
      where: { id: same.id, userId },
      data: { expiresAt, updatedAt: now },
      select: factSelect,
    });
    return { fact: renewed ?? same, superseded: [], duplicate: true };
  }
  const fact = await tx.memoryFact.create({
    data: {
      userId,
      text,
      subject,
      sourceSessionId,
      sourceMessageId,
      projectId,
      extracted,
      createdAt: now,
      updatedAt: now,
      expiresAt,
    },
    select: factSelect,
  });
  await recordFactVersion(tx, {
    factId: fact.id,
    text,
    change: "created",
    by,
    sourceMessageId,
    changedAt: now,
  });
  const superseded = subject
    ? await supersedeBySubject({ userId, subject, factId: fact.id, projectId }, { tx })
    : [];
  for (const old of superseded) {
    await recordFactVersion(tx, {
      factId: old.id,
      text,
      change: "replaced",
      by,
      sourceMessageId,
      changedAt: now,
    });
  }
  return { fact, superseded, duplicate: false };
}

/**
 * The user's other active facts on `subject` in the same scope (`projectId`: that project's; null: global ones) are
 * replaced by `factId` (kept, marked replaced). A project's fact never replaces a global one or another project's.
 */
async function supersedeBySubject(
  {
    userId,
    subject,
    factId,
    projectId,
  }: { userId: string; subject: string; factId: string; projectId: string | null },
  { tx = db }: TxOption = {},
) {
  return tx.memoryFact.updateManyAndReturn({
    where: { userId, subject, projectId, status: "active", supersededById: null, id: { not: factId } },
    data: { supersededById: factId },
    select: factSelect,
  });
}

/**
 * Stores facts the extraction found in `sourceMessageId` as suggestions (never injected until accepted). Texts
 * already suggested from that message are skipped; deduplication against active facts is the caller's.
 */
export async function suggestFacts(
  {
    userId,
    facts,
    sourceSessionId,
    sourceMessageId,
  }: {
    userId: string;
    facts: { text: string; subject: string | null }[];
    sourceSessionId: string;
    sourceMessageId: string;
  },
  { tx = db }: TxOption = {},
): Promise<FactRow[]> {
  const there = await tx.memoryFact.findMany({
    where: { userId, sourceMessageId, status: "suggested" },
    select: { text: true },
  });
  const known = new Set(there.map((f) => f.text));
  const projectId = await projectOfSession({ sessionId: sourceSessionId }, { tx });
  const stored: FactRow[] = [];
  for (const { text, subject } of facts) {
    if (known.has(text)) continue;
    known.add(text);
    stored.push(
      await tx.memoryFact.create({
        data: {
          userId,
          text,
          subject,
          sourceSessionId,
          sourceMessageId,
          projectId,
          status: "suggested",
          extracted: true,
        },
        select: factSelect,
      }),
    );
  }
  return stored;
}

/**
 * Accepts one of the user's facts (a suggestion becomes active, optionally with corrected text) and lets it
 * replace the active facts on its subject. Someone else's fact is a 404.
 */
export async function acceptFactForUser(
  {
    userId,
    factId,
    text,
    subject,
  }: {
    userId: string;
    factId: string;
    text?: string | undefined;
    /** The subject of the accepted text (the caller's reading of it); used only when `text` is given. */
    subject: string | null;
  },
  { tx = db }: TxOption = {},
) {
  const [row] = await tx.memoryFact.updateManyAndReturn({
    where: { id: factId, userId },
    data: { status: "active", ...(text === undefined ? {} : { text, subject }), updatedAt: new Date() },
    select: factSelect,
  });
  if (!row) throw factNotFound();
  await recordFactVersion(tx, {
    factId: row.id,
    text: row.text,
    change: "accepted",
    by: "user",
    sourceMessageId: row.sourceMessageId,
  });
  const replaced = row.subject
    ? await supersedeBySubject(
        { userId, subject: row.subject, factId: row.id, projectId: row.projectId },
        { tx },
      )
    : [];
  for (const old of replaced) {
    await recordFactVersion(tx, {
      factId: old.id,
      text: row.text,
      change: "replaced",
      by: "user",
      sourceMessageId: row.sourceMessageId,
    });
  }
  const { subject: _subject, ...fact } = row;
  return fact;
}

/** The facts extraction found in one of the user's messages, oldest first; `status` narrows them. */
export async function listExtractedFactsByMessageId(
  {
    userId,
    messageId,
    status,
  }: { userId: string; messageId: string; status?: "active" | "suggested" | undefined },
  { tx = db }: TxOption = {},
) {
  const rows = await tx.memoryFact.findMany({
    where: { userId, sourceMessageId: messageId, extracted: true, ...(status ? { status } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { ...factSelect, sourceSession: { select: { title: true } } },
  });
  return rows.map(({ subject: _subject, sourceSession, ...f }) => ({
    ...f,
    sourceSessionTitle: sourceSession?.title ?? null,
  }));
}

/**
 * Deletes the user's facts with these ids, and the facts they had replaced (forgetting a subject forgets its
 * history too). Returns the deleted facts; ids that are not the user's are ignored.
 */
export async function forgetFacts(
  { userId, ids }: { userId: string; ids: string[] },
  { tx = db }: TxOption = {},
) {
  if (ids.length === 0) return [];
  const chosen = await tx.memoryFact.findMany({ where: { userId, id: { in: ids } }, select: factSelect });
  const all = [...chosen];
  // Damaged rows may link in a loop: a fact is visited once, and the walk is bounded in steps whatever the rows.
  const seen = new Set(chosen.map((f) => f.id));
  let frontier = [...seen];
  for (let step = 0; frontier.length > 0 && step < MAX_SUPERSEDE_STEPS; step++) {
    const older = (
      await tx.memoryFact.findMany({
        where: { userId, supersededById: { in: frontier } },
        select: factSelect,
      })
    ).filter((f) => !seen.has(f.id));
    for (const f of older) seen.add(f.id);
    all.push(...older);
    frontier = older.map((f) => f.id);
  }
  const { count } = await tx.memoryFact.deleteMany({ where: { userId, id: { in: [...seen] } } });
  // Nothing left to delete: a concurrent forget got there first, and it alone reports the facts.
  return count === 0 ? [] : all;
}

// ---------------------------------------------------------------------------------------------------------------
// Management: the /memory page, /api/memories, /api/me/settings and the admin's user list.

const factNotFound = () => new AppError("not_found", "This memory does not exist or is not yours.");

/** A fact as the management API shows it: where it came from, and (with superseded ones) what replaced it. */
export interface ManagedFact {
  id: string;
  text: string;
  /** Null (with the title) once the source conversation was deleted and the fact kept. */
  sourceSessionId: string | null;
  sourceMessageId: string | null;
  /** The source conversation's title, for the link back to it. */
  sourceSessionTitle: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** After this the fact is not used and the retention job deletes it; null: never. */
  expiresAt: Date | null;
  /** Only when superseded facts were asked for: the fact that replaced this one (null: active). */
  supersededById?: string | null;
  status: "active" | "suggested";
  /** Found by the extraction after an answer (else stored by the remember tool). */
  extracted: boolean;
  /** The project whose conversations see it (null: global). */
  projectId: string | null;
}

/**
 * The user's facts, most recently changed first, keyset-paginated on (updatedAt, id). Active ones only unless
 * `includeSuperseded`.
 */
export async function listFactsByUserId(
  {
    userId,
    cursor,
    limit,
    includeSuperseded = false,
    status = "active",
  }: {
    userId: string;
    cursor?: Cursor;
    limit: number;
    includeSuperseded?: boolean;
    /** Active facts (the default) or the suggestions waiting for review. */
    status?: "active" | "suggested";
  },
  { tx = db }: TxOption = {},
): Promise<{ facts: ManagedFact[]; nextCursor: Cursor | null }> {
  const { where, ...args } = keysetArgs({ key: "updatedAt", cursor, limit });
  const rows = await tx.memoryFact.findMany({
    ...args,
    where: { userId, status, ...(includeSuperseded ? {} : { supersededById: null }), ...where },
    select: { ...factSelect, sourceSession: { select: { title: true } } },
  });
  const { page, nextCursor } = keysetPage({ rows, limit, cursorOf: (f) => ({ at: f.updatedAt, id: f.id }) });
  const facts = page.map(({ subject: _subject, sourceSession, supersededById, ...f }) => ({
    ...f,
    sourceSessionTitle: sourceSession?.title ?? null,
    ...(includeSuperseded ? { supersededById } : {}),
  }));
  return { facts, nextCursor };
}

/**
 * Changes the text and/or the expiry of one of the user's facts (its source stays), a version for a new text;
 * someone else's fact is a 404.
 */
export async function updateFactForUser({
  userId,
  factId,
  text,
  expiresAt,
}: {
  userId: string;
  factId: string;
  text?: string | undefined;
  expiresAt?: Date | null | undefined;
}) {
  return withTransaction(async (tx) => {
    const current = await tx.memoryFact.findFirst({ where: { id: factId, userId }, select: { text: true } });
    if (!current) throw factNotFound();
    const now = new Date();
    const edited = text !== undefined && text !== current.text;
    const [row] = await tx.memoryFact.updateManyAndReturn({
      where: { id: factId, userId },
      data: {
        ...(text !== undefined ? { text } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        updatedAt: now,
      },
      select: factSelect,
    });
    if (!row) throw factNotFound();
    if (edited) {
      await recordFactVersion(tx, {
        factId,
        text: row.text,
        change: "edited",
        by: "user",
        sourceMessageId: null,
        changedAt: now,
      });
    }
    const { subject: _subject, ...fact } = row;
    return fact;
  });
}

/**
 * Deletes one of the user's facts, with the earlier facts it had replaced — the same rule as the `forget` tool, so
 * deleting the newest version of a subject does not bring an older one back. Someone else's fact is a 404. One
 * audit entry with the count (never the text).
 */
export async function deleteFactForUser({ userId, factId }: { userId: string; factId: string }) {
  const result = await withTransaction(async (tx) => {
    const gone = await forgetFacts({ userId, ids: [factId] }, { tx });
    if (gone.length === 0) throw factNotFound();
    const deleted = { MemoryFact: gone.length };
    await tx.auditLog.create({
      data: {
        actorId: userId,
        action: "memory.delete",
        targetType: "MemoryFact",
        targetId: factId,
        details: deleted,
      },
    });
    return { deleted };
  });
  return checkpointed(result);
}

export type MemoryExtraction = "off" | "suggest" | "auto";

export interface UserSettings {
  /** Long-term memory on: facts are injected into each turn and the remember tool is offered. */
  longTermMemory: boolean;
  /** What happens to facts found in the user's messages after each answer (the user's choice, else MEMORY_EXTRACTION). */
  memoryExtraction: MemoryExtraction;
}

const settingsSelect = { longTermMemory: true, memoryExtraction: true } as const;
const settingsOf = (u: {
  longTermMemory: boolean;
  memoryExtraction: MemoryExtraction | null;
}): UserSettings => ({
  longTermMemory: u.longTermMemory,
  memoryExtraction: u.memoryExtraction ?? env.MEMORY_EXTRACTION,
});

export async function getUserSettings(
  { userId }: { userId: string },
  { tx = db }: TxOption = {},
): Promise<UserSettings> {
  // Written out (sql.ts): read after every turn, by the extraction job.
  const [user] = await queryRows(
    tx,
    `SELECT "longTermMemory", "memoryExtraction" FROM "User" WHERE "id" = ?`,
    [userId],
  );
  if (!user) throw new AppError("not_found", "This account does not exist any more.");
  return settingsOf({
    longTermMemory: asBoolean(user.longTermMemory),
    memoryExtraction: (user.memoryExtraction ?? null) as MemoryExtraction | null,
  });
}

export async function updateUserSettings(
  {
    userId,
    settings,
  }: {
    userId: string;
    settings: Partial<UserSettings>;
  },
  { tx = db }: TxOption = {},
): Promise<UserSettings> {
  const [user] = await tx.user.updateManyAndReturn({
    where: { id: userId },
    data: settings,
    select: settingsSelect,
  });
  if (!user) throw new AppError("not_found", "This account does not exist any more.");
  return settingsOf(user);
}

/** Stored facts per user (active and replaced), for the admin user list: one grouped query for a page of users. */
export async function countFactsByUserIds(
  { userIds }: { userIds: string[] },
  { tx = db }: TxOption = {},
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.memoryFact.groupBy({
    by: ["userId"],
    where: { userId: { in: userIds } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.userId, r._count._all]));
}

/** An administrator deletes every fact of a user; one audit entry with the count (never a fact's text). */
export async function deleteUserFactsForAdmin({ actorId, userId }: { actorId: string; userId: string }) {
  const result = await withTransaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new AppError("not_found", "This user does not exist (they may have been deleted).");
    const { count } = await tx.memoryFact.deleteMany({ where: { userId } });
    const deleted = { MemoryFact: count };
    await tx.auditLog.create({
      data: {
        actorId,
        action: "user.delete_memories",
        targetType: "User",
        targetId: userId,
        details: deleted,
      },
    });
    return { deleted };
  });
  return checkpointed(result);
}
