import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { env } from "@/lib/env";
import type { Role } from "@/lib/types";
import { listUsersForAdmin } from "./admin-users";
import { databaseKind, db } from "./client";
import { longTermMemoryState } from "./memories";
import { rowsReferring as rowsReferringIn, zeroEverywhere } from "./test-rows";

// The management side of long-term memory through its route handlers, on SQLite and PostgreSQL: the
// list and its pages, editing and deleting (never someone else's fact), the setting, the admin's delete-all, and
// facts dying with their conversation or user. Facts are made directly here; the turn's tools are tested elsewhere.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

const memories = await import("@/app/api/memories/route");
const memory = await import("@/app/api/memories/[id]/route");
const settings = await import("@/app/api/me/settings/route");
const adminMemories = await import("@/app/api/admin/users/[id]/memories/route");
const session = await import("@/app/api/sessions/[id]/route");
const adminUser = await import("@/app/api/admin/users/[id]/route");

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

/** A valid, unrevoked token of user `id` (token version 0, as created). */
const signedIn = (id: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });

const origin = "http://127.0.0.1";
/** A request as the app's own page sends it (same Origin, JSON body), so the real CSRF guard lets it through. */
function call(method: string, path: string, body?: unknown) {
  return new Request(`${origin}${path}`, {
    method,
    headers: {
      host: "127.0.0.1",
      origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function createUser(role: Role = "USER") {
  return db.user.create({
    data: { email: `mem-${randomUUID()}@example.test`, name: "Mem", passwordHash: "x", role },
  });
}

/** A conversation with one user message per fact, and the facts learned from them (oldest first). */
async function conversationWithFacts(userId: string, texts: string[], title = "Where I said it") {
  const s = await db.chatSession.create({ data: { userId, title, lastSeq: texts.length } });
  const base = Date.now() - 60_000 * (texts.length + 1);
  const facts = [];
  for (const [i, text] of texts.entries()) {
    const message = await db.chatMessage.create({
      data: { sessionId: s.id, seq: i + 1, role: "user", text: `Remember that ${text}` },
    });
    const at = new Date(base + i * 1000);
    facts.push(
      await db.memoryFact.create({
        data: {
          userId,
          text,
          sourceSessionId: s.id,
          sourceMessageId: message.id,
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
  }
  return { sessionId: s.id, facts };
}

interface ListedFact {
  id: string;
  text: string;
  sourceSessionId: string;
  sourceMessageId: string;
  sourceSessionTitle: string;
  createdAt: string;
  updatedAt: string;
  supersededById?: string | null;
}

async function list(query = "") {
  const res = await memories.GET(call("GET", `/api/memories${query}`), ctx({}));
  return {
    status: res.status,
    body: (await res.json()) as { memories: ListedFact[]; nextCursor: string | null },
  };
}

/** Every page of the caller's facts, following nextCursor. */
async function listAll(include = "", limit = 2) {
  const all: ListedFact[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams({ limit: String(limit), ...(include ? { include } : {}) });
    if (cursor) params.set("cursor", cursor);
    const { status, body } = await list(`?${params}`);
    expect(status).toBe(200);
    expect(body.memories.length).toBeLessThanOrEqual(limit);
    all.push(...body.memories);
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  return { all, pages };
}

const rowsReferring = (ids: string[]) => rowsReferringIn(db, env.DATABASE_URL, ids);

describe(`long-term memory list (${kind})`, () => {
  it("pages through the active facts newest first, each with its source; include=superseded adds the replaced", async () => {
    const user = await createUser();
    const { sessionId, facts } = await conversationWithFacts(user.id, [
      "my favourite colour is teal",
      "I live in Lisbon",
      "I have a dog called Rex",
      "my favourite colour is amber",
      "I prefer short answers",
    ]);
    const [teal, , , amber] = facts;
    if (!teal || !amber) throw new Error("facts missing");
    await db.memoryFact.update({ where: { id: teal.id }, data: { supersededById: amber.id } });
    signedIn(user.id);

    const active = await listAll();
    expect(active.pages).toBe(2);
    expect(active.all.map((f) => f.text)).toEqual([
      "I prefer short answers",
      "my favourite colour is amber",
      "I have a dog called Rex",
      "I live in Lisbon",
    ]);
    const first = active.all[0];
    expect(Object.keys(first ?? {}).sort()).toEqual([
      "createdAt",
      "expiresAt",
      "extracted",
      "id",
      "projectId",
      "sourceMessageId",
      "sourceSessionId",
      "sourceSessionTitle",
      "status",
      "text",
      "updatedAt",
    ]);
    const source = facts[4];
    expect(first).toMatchObject({
      id: source?.id,
      sourceSessionId: sessionId,
      sourceMessageId: source?.sourceMessageId,
      sourceSessionTitle: "Where I said it",
      createdAt: source?.createdAt.toISOString(),
    });

    const withReplaced = await listAll("superseded");
    expect(withReplaced.pages).toBe(3);
    expect(withReplaced.all.map((f) => [f.text, f.supersededById])).toEqual([
      ["I prefer short answers", null],
      ["my favourite colour is amber", null],
      ["I have a dog called Rex", null],
      ["I live in Lisbon", null],
      ["my favourite colour is teal", amber.id],
    ]);

    expect((await list("?include=everything")).status).toBe(400);
    expect((await list("?cursor=garbage")).status).toBe(400);
    signedIn(null);
    expect((await list()).status).toBe(401);
  });
});

describe(`long-term memory belongs to its user (${kind})`, () => {
  it("another user can neither read nor edit nor delete a fact: 404, and the fact is unchanged", async () => {
    const owner = await createUser();
    const other = await createUser();
    const {
      facts: [fact],
    } = await conversationWithFacts(owner.id, ["my code word is PELICAN"]);
    if (!fact) throw new Error("fact missing");

    signedIn(other.id);
    expect((await list("?include=superseded")).body.memories).toEqual([]);
    const edit = await memory.PATCH(
      call("PATCH", `/api/memories/${fact.id}`, { text: "hijacked" }),
      ctx({ id: fact.id }),
    );
    expect(edit.status).toBe(404);
    expect(await edit.json()).toMatchObject({ error: { code: "not_found" } });
    const del = await memory.DELETE(call("DELETE", `/api/memories/${fact.id}`), ctx({ id: fact.id }));
    expect(del.status).toBe(404);

    const stored = await db.memoryFact.findUniqueOrThrow({ where: { id: fact.id } });
    expect(stored.text).toBe("my code word is PELICAN");
    expect(stored.updatedAt).toEqual(fact.updatedAt);
  });

  it("the owner edits (trimmed, 1..500 characters, updatedAt moves) and deletes; a write without Origin is refused", async () => {
    const owner = await createUser();
    const {
      facts: [fact],
    } = await conversationWithFacts(owner.id, ["my code word is PELICAN"]);
    if (!fact) throw new Error("fact missing");
    signedIn(owner.id);
    const patch = (text: unknown) =>
      memory.PATCH(call("PATCH", `/api/memories/${fact.id}`, { text }), ctx({ id: fact.id }));

    for (const bad of ["   ", "x".repeat(501), 7]) {
      const res = await patch(bad);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ error: { code: "validation_failed" } });
    }
    const crossSite = await memory.PATCH(
      new Request(`${origin}/api/memories/${fact.id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "from elsewhere" }),
      }),
      ctx({ id: fact.id }),
    );
    expect(crossSite.status).toBe(403);
    expect((await db.memoryFact.findUniqueOrThrow({ where: { id: fact.id } })).text).toBe(
      "my code word is PELICAN",
    );

    const res = await patch("  my code word is HERON  ");
    expect(res.status).toBe(200);
    const { memory: edited } = (await res.json()) as { memory: ListedFact };
    expect(edited).toMatchObject({
      id: fact.id,
      text: "my code word is HERON",
      sourceMessageId: fact.sourceMessageId,
      createdAt: fact.createdAt.toISOString(),
    });
    expect(new Date(edited.updatedAt).getTime()).toBeGreaterThan(fact.updatedAt.getTime());
    expect((await list()).body.memories.map((f) => f.text)).toEqual(["my code word is HERON"]);
    expect(await patch("x".repeat(500)).then((r) => r.status)).toBe(200);

    const del = await memory.DELETE(call("DELETE", `/api/memories/${fact.id}`), ctx({ id: fact.id }));
    expect(await del.json()).toEqual({ deleted: { MemoryFact: 1 } });
    expect(await db.memoryFact.count({ where: { id: fact.id } })).toBe(0);
    const again = await memory.DELETE(call("DELETE", `/api/memories/${fact.id}`), ctx({ id: fact.id }));
    expect(again.status).toBe(404);
  });

  it("deleting a fact deletes the earlier ones it replaced, so an old version does not come back", async () => {
    const owner = await createUser();
    const { facts } = await conversationWithFacts(owner.id, [
      "my favourite colour is teal",
      "my favourite colour is amber",
    ]);
    const [teal, amber] = facts;
    if (!teal || !amber) throw new Error("facts missing");
    await db.memoryFact.update({ where: { id: teal.id }, data: { supersededById: amber.id } });
    signedIn(owner.id);

    const del = await memory.DELETE(call("DELETE", `/api/memories/${amber.id}`), ctx({ id: amber.id }));
    expect(await del.json()).toEqual({ deleted: { MemoryFact: 2 } });
    expect((await list("?include=superseded")).body.memories).toEqual([]);
    const audit = await db.auditLog.findFirstOrThrow({
      where: { action: "memory.delete", targetId: amber.id },
    });
    expect(audit).toMatchObject({ actorId: owner.id, targetType: "MemoryFact", details: { MemoryFact: 2 } });
  });
});

describe(`damaged supersede links and concurrent deletes (${kind})`, () => {
  // The 5 s limit is the hang detector: before the walk kept a visited set, this DELETE never answered.
  it("a loop of replaced facts stored in the database cannot hang a delete: both go, nothing else", async () => {
    const owner = await createUser();
    const { facts } = await conversationWithFacts(owner.id, ["I like tea", "I like coffee", "I like water"]);
    const [tea, coffee, water] = facts;
    if (!tea || !coffee || !water) throw new Error("facts missing");
    await db.memoryFact.update({ where: { id: tea.id }, data: { supersededById: coffee.id } });
    await db.memoryFact.update({ where: { id: coffee.id }, data: { supersededById: tea.id } });
    signedIn(owner.id);

    const del = await memory.DELETE(call("DELETE", `/api/memories/${tea.id}`), ctx({ id: tea.id }));
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ deleted: { MemoryFact: 2 } });
    const left = await db.memoryFact.findMany({ where: { userId: owner.id }, select: { id: true } });
    expect(left).toEqual([{ id: water.id }]);
  }, 5_000);

  it("a link into another user's facts is never followed: deleting one's own fact leaves theirs", async () => {
    const owner = await createUser();
    const other = await createUser();
    const {
      facts: [mine],
    } = await conversationWithFacts(owner.id, ["my code word is HERON"]);
    const {
      facts: [theirs],
    } = await conversationWithFacts(other.id, ["my code word is OTTER"]);
    if (!mine || !theirs) throw new Error("facts missing");
    // Damaged rows: each points at the other user's fact.
    await db.memoryFact.update({ where: { id: theirs.id }, data: { supersededById: mine.id } });
    await db.memoryFact.update({ where: { id: mine.id }, data: { supersededById: theirs.id } });
    signedIn(owner.id);

    const del = await memory.DELETE(call("DELETE", `/api/memories/${mine.id}`), ctx({ id: mine.id }));
    expect(await del.json()).toEqual({ deleted: { MemoryFact: 1 } });
    expect(await db.memoryFact.count({ where: { id: theirs.id } })).toBe(1);
  }, 5_000);

  it("five concurrent deletes of one fact: exactly one 200, the others 404, one audit entry", async () => {
    const owner = await createUser();
    const { facts } = await conversationWithFacts(owner.id, ["my colour is red", "my colour is blue"]);
    const [red, blue] = facts;
    if (!red || !blue) throw new Error("facts missing");
    await db.memoryFact.update({ where: { id: red.id }, data: { supersededById: blue.id } });
    signedIn(owner.id);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        memory.DELETE(call("DELETE", `/api/memories/${blue.id}`), ctx({ id: blue.id })),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404]);
    expect(await db.memoryFact.count({ where: { userId: owner.id } })).toBe(0);
    expect(await db.auditLog.count({ where: { action: "memory.delete", targetId: blue.id } })).toBe(1);
  });
});

describe(`the long-term memory setting (${kind})`, () => {
  it("is on by default, and switching it off persists (the turn reads it) until switched on again", async () => {
    const user = await createUser();
    signedIn(user.id);
    const get = async () => (await settings.GET(call("GET", "/api/me/settings"), ctx({}))).json();
    const patch = (body: unknown) => settings.PATCH(call("PATCH", "/api/me/settings", body), ctx({}));

    // Integration runs set MEMORY_EXTRACTION=off (vitest.config.mts): the default a user without a choice gets.
    expect(await get()).toEqual({ longTermMemory: true, memoryExtraction: "off" });
    const off = await patch({ longTermMemory: false });
    expect(await off.json()).toEqual({ longTermMemory: false, memoryExtraction: "off" });
    expect(await get()).toEqual({ longTermMemory: false, memoryExtraction: "off" });
    expect((await longTermMemoryState({ userId: user.id })).enabled).toBe(false);

    for (const bad of [{ longTermMemory: "no" }, {}, { longTermMemory: true, theme: "dark" }]) {
      const res = await patch(bad);
      expect(res.status).toBe(422);
    }
    expect(await get()).toEqual({ longTermMemory: false, memoryExtraction: "off" });

    await patch({ longTermMemory: true });
    expect((await longTermMemoryState({ userId: user.id })).enabled).toBe(true);
    // Someone else's setting is not touched.
    const other = await createUser();
    expect((await longTermMemoryState({ userId: other.id })).enabled).toBe(true);
  });
});

describe(`admin: a user's memories (${kind})`, () => {
  it("counts facts per user and deletes all of one user's, with an audit entry that holds no fact text", async () => {
    const admin = await createUser("ADMIN");
    const owner = await createUser();
    const bystander = await createUser();
    await conversationWithFacts(owner.id, ["my secret is AARDVARK", "I live in Lisbon"]);
    await conversationWithFacts(owner.id, ["my pin hint is OCELOT"]);
    await conversationWithFacts(bystander.id, ["I like tea"]);

    const { users } = await listUsersForAdmin({ q: "mem-", limit: 100 });
    const count = (id: string) => users.find((u) => u.id === id)?.memoryFactCount;
    expect([count(owner.id), count(bystander.id), count(admin.id)]).toEqual([3, 1, 0]);

    const del = () =>
      adminMemories.DELETE(call("DELETE", `/api/admin/users/${owner.id}/memories`), ctx({ id: owner.id }));
    signedIn(owner.id);
    expect((await del()).status).toBe(403);
    expect(await db.memoryFact.count({ where: { userId: owner.id } })).toBe(3);

    signedIn(admin.id);
    const res = await del();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: { MemoryFact: 3 } });
    expect(await db.memoryFact.count({ where: { userId: owner.id } })).toBe(0);
    expect(await db.memoryFact.count({ where: { userId: bystander.id } })).toBe(1);

    const audit = await db.auditLog.findFirstOrThrow({
      where: { action: "user.delete_memories", targetId: owner.id },
    });
    expect(audit).toMatchObject({ actorId: admin.id, targetType: "User", details: { MemoryFact: 3 } });
    const logged = JSON.stringify(audit);
    for (const secret of ["AARDVARK", "Lisbon", "OCELOT"]) expect(logged).not.toContain(secret);

    const gone = await adminMemories.DELETE(
      call("DELETE", "/api/admin/users/nobody/memories"),
      ctx({ id: "nobody" }),
    );
    expect(gone.status).toBe(404);
  });
});

describe(`facts die with their source (${kind})`, () => {
  it("deleting the source conversation deletes its facts, the receipt counts them, and no row refers to them", async () => {
    const owner = await createUser();
    const a = await conversationWithFacts(owner.id, ["my favourite colour is teal", "I live in Lisbon"]);
    const b = await conversationWithFacts(owner.id, ["my favourite colour is amber"]);
    const [teal] = a.facts;
    const [amber] = b.facts;
    if (!teal || !amber) throw new Error("facts missing");
    // A fact of A was replaced by one of B: B's fact stays, and nothing refers to A's any more.
    await db.memoryFact.update({ where: { id: teal.id }, data: { supersededById: amber.id } });
    const ids = [a.sessionId, ...a.facts.flatMap((f) => [f.id, f.sourceMessageId as string])];
    signedIn(owner.id);
    // The deletion dialog's number: every fact learned there, the replaced one included, as the receipt counts.
    const read = async (id: string) => {
      const got = await session.GET(call("GET", `/api/sessions/${id}?limit=1`), ctx({ id }));
      return { status: got.status, body: (await got.json()) as { session?: { factCount: number } } };
    };
    expect((await read(a.sessionId)).body.session?.factCount).toBe(2);
    expect((await read(b.sessionId)).body.session?.factCount).toBe(1);
    signedIn((await createUser()).id);
    expect((await read(a.sessionId)).status).toBe(404);
    signedIn(owner.id);

    const res = await session.DELETE(
      call("DELETE", `/api/sessions/${a.sessionId}`),
      ctx({ id: a.sessionId }),
    );
    expect(res.status).toBe(200);
    const { receipt } = (await res.json()) as { receipt: { deleted: Record<string, number> } };
    expect(receipt.deleted).toMatchObject({ ChatSession: 1, ChatMessage: 2, MemoryFact: 2 });
    expect((await read(b.sessionId)).body.session?.factCount).toBe(1);

    const after = await rowsReferring(ids);
    expect(after).toEqual(zeroEverywhere(after));
    expect((await list("?include=superseded")).body.memories.map((f) => f.text)).toEqual([
      "my favourite colour is amber",
    ]);
  });

  it("deleting the user leaves zero fact rows", async () => {
    const admin = await createUser("ADMIN");
    const owner = await createUser();
    const a = await conversationWithFacts(owner.id, ["my favourite colour is teal", "I live in Lisbon"]);
    const b = await conversationWithFacts(owner.id, ["my favourite colour is amber"]);
    const facts = [...a.facts, ...b.facts];
    // The user's own deletion of a fact leaves an audit entry (actor: the user) that must not keep them either.
    signedIn(owner.id);
    const lisbon = a.facts[1];
    if (!lisbon) throw new Error("fact missing");
    await memory.DELETE(call("DELETE", `/api/memories/${lisbon.id}`), ctx({ id: lisbon.id }));

    signedIn(admin.id);
    const res = await adminUser.DELETE(call("DELETE", `/api/admin/users/${owner.id}`), ctx({ id: owner.id }));
    expect(res.status).toBe(200);
    const { receipt } = (await res.json()) as { receipt: { deleted: Record<string, number> } };
    expect(receipt.deleted).toMatchObject({ User: 1, ChatSession: 2, MemoryFact: 2 });

    expect(await db.memoryFact.count({ where: { userId: owner.id } })).toBe(0);
    const after = await rowsReferring([
      owner.id,
      a.sessionId,
      b.sessionId,
      ...facts.flatMap((f) => [f.id, f.sourceMessageId as string]),
    ]);
    expect(after).toEqual(zeroEverywhere(after));
  });
});
