import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { loadLongTermMemory } from "@/lib/chat/long-term";
import { runTool } from "@/lib/chat/tools";
import { db } from "./client";
import { recordFactVersion } from "./fact-history";
import { runRetentionRound } from "./retention";
import { withTransaction } from "./transaction";

// Fact history and expiry (docs/decisions/030-fact-history.md) on SQLite and PostgreSQL: versions written by the
// remember tool and by edits, the GET shape, expiry hiding a fact from the turn and the retention round deleting it,
// and the history dying with its fact.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

const memory = await import("@/app/api/memories/[id]/route");

afterAll(async () => {
  await db.$disconnect();
});

const signedIn = (id: string) => vi.mocked(sessionClaims).mockResolvedValue({ uid: id, ver: 0, sid: null });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const origin = "http://127.0.0.1";
const call = (method: string, id: string, body?: unknown) =>
  new Request(`${origin}/api/memories/${id}`, {
    method,
    headers: {
      host: "127.0.0.1",
      origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A user with one conversation and `n` user messages in it (the sources of what the tool remembers). */
async function setup(n = 2) {
  const user = await db.user.create({
    data: { email: `hist-${randomUUID()}@example.test`, name: "H", passwordHash: "x", longTermMemory: true },
  });
  const session = await db.chatSession.create({ data: { userId: user.id, title: "Where", lastSeq: n } });
  const messages = [];
  for (let i = 1; i <= n; i++) {
    messages.push(
      await db.chatMessage.create({
        data: { sessionId: session.id, seq: i, role: "user", text: `m${i}` },
      }),
    );
  }
  return { userId: user.id, sessionId: session.id, messageIds: messages.map((m) => m.id) };
}

async function remember(s: Awaited<ReturnType<typeof setup>>, at: number, args: Record<string, unknown>) {
  const result = await runTool(
    { id: randomUUID(), name: "remember", arguments: JSON.stringify(args) },
    {
      userId: s.userId,
      sessionId: s.sessionId,
      questionId: s.messageIds[at] as string,
      longTermMemory: true,
    },
  );
  return JSON.parse(result.text) as { remembered?: { id: string; expiresAt?: string }; error?: string };
}

async function getFact(id: string) {
  const res = await memory.GET(call("GET", id), ctx(id));
  return {
    status: res.status,
    body: (await res.json()) as { memory: Record<string, unknown>; error?: unknown },
  };
}

describe("fact history", () => {
  it("records created, replaced and edited versions, oldest first, with who and which message", async () => {
    const s = await setup();
    signedIn(s.userId);
    const first = await remember(s, 0, { fact: "My favourite colour is teal", subject: "favourite colour" });
    const second = await remember(s, 1, {
      fact: "My favourite colour is amber",
      subject: "favourite colour",
    });
    const oldId = first.remembered?.id as string;
    const newId = second.remembered?.id as string;

    const edit = await memory.PATCH(
      call("PATCH", newId, { text: "My favourite colour is dark amber" }),
      ctx(newId),
    );
    expect(edit.status).toBe(200);

    const old = await getFact(oldId);
    expect(old.status).toBe(200);
    expect(old.body.memory).toMatchObject({
      id: oldId,
      text: "My favourite colour is teal",
      expiresAt: null,
    });
    expect(old.body.memory.history).toEqual([
      expect.objectContaining({
        text: "My favourite colour is teal",
        change: "created",
        by: "model",
        sourceMessageId: s.messageIds[0],
      }),
      expect.objectContaining({
        text: "My favourite colour is amber",
        change: "replaced",
        by: "model",
        sourceMessageId: s.messageIds[1],
      }),
    ]);
    const current = await getFact(newId);
    const history = current.body.memory.history as {
      text: string;
      change: string;
      by: string;
      changedAt: string;
      sourceMessageId: string | null;
    }[];
    expect(history.map((v) => [v.change, v.by, v.text, v.sourceMessageId])).toEqual([
      ["created", "model", "My favourite colour is amber", s.messageIds[1]],
      ["edited", "user", "My favourite colour is dark amber", null],
    ]);
    expect(Number.isNaN(Date.parse(history[0]?.changedAt ?? ""))).toBe(false);
  });

  it("an edit that changes nothing, or only the expiry, adds no text version", async () => {
    const s = await setup(1);
    signedIn(s.userId);
    const { remembered } = await remember(s, 0, { fact: "I play the cello" });
    const id = remembered?.id as string;
    await memory.PATCH(call("PATCH", id, { text: "I play the cello" }), ctx(id));
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const res = await memory.PATCH(call("PATCH", id, { expiresAt: until }), ctx(id));
    expect(res.status).toBe(200);
    const { body } = await getFact(id);
    expect((body.memory.history as unknown[]).length).toBe(1);
    expect(body.memory.expiresAt).toBe(until);
  });

  it("someone else's fact is a 404 for GET and PATCH, and bad input is a 422 that changes nothing", async () => {
    const s = await setup(1);
    const { remembered } = await remember(s, 0, { fact: "I live in Lyon" });
    const id = remembered?.id as string;
    const other = await setup(1);
    signedIn(other.userId);
    expect((await getFact(id)).status).toBe(404);
    expect((await memory.PATCH(call("PATCH", id, { expiresAt: null }), ctx(id))).status).toBe(404);

    signedIn(s.userId);
    for (const body of [{}, { expiresAt: "soon" }, { expiresAt: "2001-01-01T00:00:00Z" }, { expiresAt: 5 }]) {
      const res = await memory.PATCH(call("PATCH", id, body), ctx(id));
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    }
    const row = await db.memoryFact.findUniqueOrThrow({ where: { id } });
    expect(row.expiresAt).toBeNull();
    expect(row.text).toBe("I live in Lyon");
  });

  it("deleting a fact deletes its history", async () => {
    const s = await setup(1);
    signedIn(s.userId);
    const { remembered } = await remember(s, 0, { fact: "I have a dog" });
    const id = remembered?.id as string;
    await withTransaction((tx) =>
      recordFactVersion(tx, {
        factId: id,
        text: "I have a dog",
        change: "accepted",
        by: "user",
        sourceMessageId: null,
      }),
    );
    expect(await db.memoryFactVersion.count({ where: { factId: id } })).toBe(2);
    expect((await memory.DELETE(call("DELETE", id), ctx(id))).status).toBe(200);
    expect(await db.memoryFactVersion.count({ where: { factId: id } })).toBe(0);
  });
});

describe("a deleted conversation leaves nothing in another fact's history", () => {
  it("the replaced version learned in it goes with it; the older fact keeps its own", async () => {
    const s = await setup(1);
    signedIn(s.userId);
    const first = await remember(s, 0, { fact: "My favourite city is Oslo", subject: "favourite city" });
    const other = await db.chatSession.create({ data: { userId: s.userId, title: "Later", lastSeq: 1 } });
    const m = await db.chatMessage.create({ data: { sessionId: other.id, seq: 1, role: "user", text: "x" } });
    await remember({ ...s, sessionId: other.id, messageIds: [m.id] }, 0, {
      fact: "My favourite city is Bergen",
      subject: "favourite city",
    });
    const oldId = first.remembered?.id as string;
    expect((await getFact(oldId)).body.memory.history).toHaveLength(2);
    await db.chatSession.delete({ where: { id: other.id } });
    const after = await getFact(oldId);
    expect(after.body.memory).toMatchObject({ supersededById: null, text: "My favourite city is Oslo" });
    expect(JSON.stringify(after.body)).not.toContain("Bergen");
    expect(after.body.memory.history).toEqual([expect.objectContaining({ change: "created" })]);
  });
});

describe("expiry", () => {
  it("the remember tool stores expiresAt from days; an expired fact is not injected, and retention deletes it", async () => {
    const s = await setup(2);
    const before = Date.now();
    const trip = await remember(s, 0, { fact: "I am in Tokyo for the next two weeks", days: 14 });
    const expires = Date.parse(trip.remembered?.expiresAt ?? "");
    expect(expires - before).toBeGreaterThanOrEqual(14 * 86_400_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(14 * 86_400_000 + 5000);
    const lasting = await remember(s, 1, { fact: "I live in Lyon" });

    const loaded = await loadLongTermMemory({ userId: s.userId, projectId: null });
    expect(loaded.facts.map((f) => f.text).sort()).toEqual([
      "I am in Tokyo for the next two weeks",
      "I live in Lyon",
    ]);

    // Fifteen days later the trip is over: the cached section drops it, a fresh read does not return it either.
    const tripId = trip.remembered?.id as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 15 * 86_400_000);
    expect((await loadLongTermMemory({ userId: s.userId, projectId: null })).facts.map((f) => f.id)).toEqual([
      lasting.remembered?.id,
    ]);
    const search = await runTool(
      { id: "s", name: "search_memories", arguments: JSON.stringify({ query: "Tokyo" }) },
      {
        userId: s.userId,
        sessionId: s.sessionId,
        questionId: s.messageIds[1] as string,
        longTermMemory: true,
      },
    );
    expect(JSON.parse(search.text)).toEqual({ memories: [] });

    const round = await runRetentionRound({ days: 36_500 });
    expect(round.expiredFacts).toBeGreaterThanOrEqual(1);
    expect(await db.memoryFact.count({ where: { id: tripId } })).toBe(0);
    expect(await db.memoryFactVersion.count({ where: { factId: tripId } })).toBe(0);
    expect(await db.memoryFact.count({ where: { id: lasting.remembered?.id as string } })).toBe(1);
    expect(await db.auditLog.count({ where: { action: "memory.expire", targetId: s.userId } })).toBe(1);
    vi.useRealTimers();
  });

  it("the user sets and clears the expiry; a past expiresAt from the model remembers nothing", async () => {
    const s = await setup(1);
    signedIn(s.userId);
    const { remembered } = await remember(s, 0, { fact: "I work from home" });
    const id = remembered?.id as string;
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await memory.PATCH(call("PATCH", id, { expiresAt: until }), ctx(id));
    expect((await db.memoryFact.findUniqueOrThrow({ where: { id } })).expiresAt?.toISOString()).toBe(until);
    const cleared = await memory.PATCH(call("PATCH", id, { expiresAt: null }), ctx(id));
    expect(((await cleared.json()) as { memory: { expiresAt: unknown } }).memory.expiresAt).toBeNull();

    const past = await remember(s, 0, { fact: "I was in Rome", expiresAt: "2001-01-01T00:00:00Z" });
    expect(past.error).toMatch(/past/);
    expect(await db.memoryFact.count({ where: { userId: s.userId, text: "I was in Rome" } })).toBe(0);
  });
});
