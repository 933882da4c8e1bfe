import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as sessionShare from "@/app/api/sessions/[id]/share/route";
import * as sessionsRoute from "@/app/api/sessions/route";
import * as shareRoute from "@/app/api/shares/[id]/route";
import * as sharesRoute from "@/app/api/shares/route";
import { sessionClaims } from "@/lib/auth/session-token";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { unsafeDeleteSessionById } from "./sessions";
import { getPublicShare } from "./shares";
import { rowsReferring, zeroEverywhere } from "./test-rows";

// Share links and temporary chats through their routes, on SQLite and PostgreSQL (the database is shared with
// the other integration files: every test makes its own users).

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
vi.mock("@/lib/security/csrf", () => ({ assertSameOrigin: () => {} }));

const kind = databaseKind(env.DATABASE_URL);
const base = "http://127.0.0.1:3000/api";

afterAll(async () => {
  await db.$disconnect();
});

const as = (userId: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(userId ? { uid: userId, ver: 0, sid: null } : null);
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });

async function createUser() {
  return db.user.create({
    data: { email: `share-${randomUUID()}@example.test`, name: "S", passwordHash: "x" },
  });
}

/**
 * A conversation: question 1 with two answers (versions; the first is the one on the active path), a tool step,
 * question 2 and its answer; a recorded context, a memory snapshot and a long-term fact learned in it.
 */
async function conversation(userId: string) {
  const session = await db.chatSession.create({ data: { userId, title: "Trip to Lyon", lastSeq: 7 } });
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i));
  const m = (seq: number, role: "user" | "assistant" | "tool", text: string, parentId: string | null) =>
    db.chatMessage.create({ data: { sessionId: session.id, seq, role, text, parentId, createdAt: at(seq) } });
  const q1 = await m(1, "user", "Where should I stay in Lyon?", null);
  const a1 = await m(2, "assistant", "Stay in Vieux Lyon.", q1.id);
  await m(3, "assistant", "Another version: Croix-Rousse.", q1.id);
  const tool = await m(4, "tool", '{"secret":"tool output"}', a1.id);
  const q2 = await m(5, "user", "And what should I eat?", tool.id);
  const a2 = await m(6, "assistant", "Try a bouchon.", q2.id);
  await db.chatSession.update({ where: { id: session.id }, data: { activeLeafId: a2.id, activeLeafSeq: 6 } });
  await db.turnContext.create({
    data: {
      sessionId: session.id,
      messageId: a2.id,
      entries: [{ source: "longTerm", role: "system", preview: "MEMORY-SECRET context" }],
      tokenEstimate: 5,
      policy: "window:20",
      model: "recall-offline",
    },
  });
  await db.memorySnapshot.create({
    data: {
      sessionId: session.id,
      items: [{ role: "user", text: "SNAPSHOT-SECRET" }],
      policy: "window:20",
      throughSeq: 6,
    },
  });
  await db.memoryFact.create({
    data: {
      userId,
      text: "FACT-SECRET: I am vegetarian",
      sourceSessionId: session.id,
      sourceMessageId: q2.id,
    },
  });
  return { sessionId: session.id, q2 };
}

async function share(userId: string, sessionId: string) {
  as(userId);
  return sessionShare.POST(
    new Request(`${base}/sessions/${sessionId}/share`, { method: "POST" }),
    ctx({ id: sessionId }),
  );
}

describe(`share links (${kind})`, () => {
  it("snapshots the active path's role, text and time only, and the page reads it until it is revoked", async () => {
    const user = await createUser();
    const { sessionId, q2 } = await conversation(user.id);
    const res = await share(user.id, sessionId);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; url: string };
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(body.url).toMatch(new RegExp(`/s/${body.id}$`));

    const row = await db.share.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.messages).toEqual([
      { role: "user", text: "Where should I stay in Lyon?", createdAt: "2026-01-01T00:01:00.000Z" },
      { role: "assistant", text: "Stay in Vieux Lyon.", createdAt: "2026-01-01T00:02:00.000Z" },
      { role: "user", text: "And what should I eat?", createdAt: "2026-01-01T00:05:00.000Z" },
      { role: "assistant", text: "Try a bouchon.", createdAt: "2026-01-01T00:06:00.000Z" },
    ]);
    const stored = JSON.stringify(row);
    for (const secret of ["MEMORY-SECRET", "SNAPSHOT-SECRET", "FACT-SECRET", "tool output", "Croix-Rousse"])
      expect(stored).not.toContain(secret);

    // A snapshot: what is said later is not in it.
    const later = await db.chatMessage.create({
      data: { sessionId, seq: 7, role: "user", text: "A later question", parentId: q2.id },
    });
    expect(later.id).toBeTruthy();
    const page = await getPublicShare({ shareId: body.id });
    expect(page?.title).toBe("Trip to Lyon");
    expect(page?.messages.map((m) => m.text)).not.toContain("A later question");
    expect(page?.messages).toHaveLength(4);

    as(user.id);
    const list = (await (await sharesRoute.GET(new Request(`${base}/shares`), ctx({}))).json()) as {
      id: string;
      messages: number;
      sessionId: string;
    }[];
    expect(list).toEqual([expect.objectContaining({ id: body.id, sessionId, messages: 4 })]);

    const del = await shareRoute.DELETE(
      new Request(`${base}/shares/${body.id}`, { method: "DELETE" }),
      ctx({ id: body.id }),
    );
    expect(del.status).toBe(204);
    expect(await getPublicShare({ shareId: body.id })).toBeNull();
    const again = await shareRoute.DELETE(
      new Request(`${base}/shares/${body.id}`, { method: "DELETE" }),
      ctx({ id: body.id }),
    );
    expect(again.status).toBe(404);
  });

  it("another user cannot share, list or revoke it; signed out is 401", async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const { sessionId } = await conversation(owner.id);
    const { id } = (await (await share(owner.id, sessionId)).json()) as { id: string };

    expect((await share(other.id, sessionId)).status).toBe(404);
    as(other.id);
    expect(await (await sharesRoute.GET(new Request(`${base}/shares`), ctx({}))).json()).toEqual([]);
    const del = await shareRoute.DELETE(
      new Request(`${base}/shares/${id}`, { method: "DELETE" }),
      ctx({ id }),
    );
    expect(del.status).toBe(404);
    expect(await getPublicShare({ shareId: id })).not.toBeNull();

    as(null);
    expect((await sharesRoute.GET(new Request(`${base}/shares`), ctx({}))).status).toBe(401);
    expect((await share(null as unknown as string, sessionId)).status).toBe(401);
    as(null);
    expect(
      (await shareRoute.DELETE(new Request(`${base}/shares/${id}`, { method: "DELETE" }), ctx({ id })))
        .status,
    ).toBe(401);
  });

  it("an empty conversation or a temporary chat cannot be shared (409, nothing written)", async () => {
    const user = await createUser();
    const empty = await db.chatSession.create({ data: { userId: user.id, title: "empty" } });
    const res = await share(user.id, empty.id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("conflict");
    const temp = await db.chatSession.create({ data: { userId: user.id, title: "t", temporary: true } });
    expect((await share(user.id, temp.id)).status).toBe(409);
    expect(await db.share.count({ where: { userId: user.id } })).toBe(0);
  });

  it("deleting the conversation deletes its shares, counted in the receipt; deleting the user too", async () => {
    const user = await createUser();
    const { sessionId } = await conversation(user.id);
    const { id } = (await (await share(user.id, sessionId)).json()) as { id: string };
    await share(user.id, sessionId);
    const receipt = await unsafeDeleteSessionById({ sessionId, actorId: user.id });
    expect(receipt.deleted).toMatchObject({ ChatSession: 1, Share: 2, MemoryFact: 1 });
    expect(await getPublicShare({ shareId: id })).toBeNull();
    const left = await rowsReferring(db, env.DATABASE_URL, [sessionId]);
    expect(left).toEqual(zeroEverywhere(left));

    const second = await conversation(user.id);
    await share(user.id, second.sessionId);
    await db.user.delete({ where: { id: user.id } });
    expect(await db.share.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe(`temporary chats through the routes (${kind})`, () => {
  it("POST /api/sessions { temporary: true } makes one that GET /api/sessions does not list", async () => {
    const user = await createUser();
    as(user.id);
    const post = (body: unknown) =>
      sessionsRoute.POST(
        new Request(`${base}/sessions`, {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
        ctx({}),
      );
    const temp = (await (await post({ title: "secret", temporary: true })).json()) as {
      session: { id: string; temporary: boolean };
    };
    expect(temp.session.temporary).toBe(true);
    const normal = (await (await post({ title: "normal" })).json()) as {
      session: { id: string; temporary: boolean };
    };
    expect(normal.session.temporary).toBe(false);

    const bad = await post({ temporary: "yes" });
    expect(bad.status).toBe(422);
    expect(await db.chatSession.count({ where: { userId: user.id } })).toBe(2);

    const list = (await (await sessionsRoute.GET(new Request(`${base}/sessions`), ctx({}))).json()) as {
      sessions: { id: string }[];
    };
    expect(list.sessions.map((s) => s.id)).toEqual([normal.session.id]);
  });
});
