import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { listAuditEntries } from "./admin-audit";
import { databaseKind, db } from "./client";
import {
  type Cursor,
  decodeCursor,
  decodeSessionListCursor,
  encodeCursor,
  encodeSessionListCursor,
  type SessionListCursor,
} from "./cursor";
import { getMessagesBySessionId, listSessionsByUserId } from "./sessions";

// The lists that share lib/db/cursor.ts, walked page by page through the cursor's URL form (as the routes do),
// with rows that tie on the timestamp so the id must break the tie. The database is shared with other files.

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

async function createUser() {
  return db.user.create({
    data: { email: `pages-${randomUUID()}@example.test`, name: "Pages", passwordHash: "x" },
  });
}

/** Follows nextCursor to the end, the way a client does (encoded, then decoded by the route). */
async function walk<T>(load: (cursor?: Cursor) => Promise<{ rows: T[]; nextCursor: Cursor | null }>) {
  const pages: T[][] = [];
  let cursor: Cursor | undefined;
  do {
    const { rows, nextCursor } = await load(cursor);
    pages.push(rows);
    cursor = decodeCursor(encodeCursor(nextCursor));
  } while (cursor);
  return pages;
}

describe(`keyset pagination (${kind})`, () => {
  it("pages a user's sessions newest first, ties broken by id, each once", async () => {
    const user = await createUser();
    const other = await createUser();
    const base = Date.now() - 1_000_000;
    const data = (userId: string) =>
      Array.from({ length: 7 }, (_, i) => ({
        userId,
        title: `s${i}`,
        updatedAt: new Date(base + Math.floor(i / 2) * 1000),
      }));
    await db.chatSession.createMany({ data: [...data(user.id), ...data(other.id)] });

    const pages: { id: string }[][] = [];
    let cursor: SessionListCursor | undefined;
    do {
      const page = await listSessionsByUserId({ userId: user.id, cursor, limit: 3 });
      pages.push(page.sessions);
      cursor = decodeSessionListCursor(encodeSessionListCursor(page.nextCursor));
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const expected = await db.chatSession.findMany({
      where: { userId: user.id },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    expect(pages.flat().map((s) => s.id)).toEqual(expected.map((s) => s.id));
  });

  it("a page that ends exactly at the last row has no next page", async () => {
    const user = await createUser();
    await db.chatSession.createMany({ data: [0, 1, 2].map((i) => ({ userId: user.id, title: `t${i}` })) });
    const page = await listSessionsByUserId({ userId: user.id, limit: 3 });
    expect(page.sessions).toHaveLength(3);
    expect(page.nextCursor).toBeNull();
  });

  it("pages the audit log newest first on (createdAt, id), entries sharing a timestamp included", async () => {
    const at = new Date(Date.now() - 500_000);
    await db.auditLog.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({
        action: "test.page",
        targetType: "Test",
        targetId: `t${i}`,
        details: {},
        createdAt: at,
      })),
    });
    const pages = await walk(async (cursor) => {
      const page = await listAuditEntries({ cursor, limit: 2 });
      return { rows: page.entries, nextCursor: page.nextCursor };
    });
    expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true);
    const expected = await db.auditLog.findMany({
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    expect(pages.flat().map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it("pages a session's history backwards by seq, each page in ascending order", async () => {
    const user = await createUser();
    const session = await db.chatSession.create({ data: { userId: user.id, title: "h", lastSeq: 5 } });
    await db.chatMessage.createMany({
      data: [1, 2, 3, 4, 5].map((seq) => ({
        sessionId: session.id,
        seq,
        role: seq % 2 ? ("user" as const) : ("assistant" as const),
        text: `m${seq}`,
      })),
    });
    const seqs = (page: { messages: { seq: number }[] }) => page.messages.map((m) => m.seq);
    const newest = await getMessagesBySessionId({ sessionId: session.id, limit: 2 });
    expect([seqs(newest), newest.hasMore]).toEqual([[4, 5], true]);
    const middle = await getMessagesBySessionId({ sessionId: session.id, beforeSeq: 4, limit: 2 });
    expect([seqs(middle), middle.hasMore]).toEqual([[2, 3], true]);
    const oldest = await getMessagesBySessionId({ sessionId: session.id, beforeSeq: 2, limit: 2 });
    expect([seqs(oldest), oldest.hasMore]).toEqual([[1], false]);
  });
});
