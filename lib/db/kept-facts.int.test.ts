import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { loadLongTermMemory } from "@/lib/chat/long-term";
import { env } from "@/lib/env";
import { importExportFile } from "@/lib/export/import";
import { exportAccountStream } from "@/lib/export/read";
import { databaseKind, db } from "./client";
import { rememberFact } from "./memories";
import { createProject, deleteProjectForUser, listProjectsByUserId, moveFactForUser } from "./projects";
import { rowsReferring as rowsReferringIn, zeroEverywhere } from "./test-rows";
import { withTransaction } from "./transaction";

// Decision 038: deleting a conversation (or a project's conversations) may keep the long-term facts learned there,
// their source becoming "a deleted conversation"; by default they go with it. Through the route for the query
// parameter, through lib/db for the project, and through export and import for a fact without a source.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
const sessionRoute = await import("@/app/api/sessions/[id]/route");
const memoriesRoute = await import("@/app/api/memories/route");

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

const signedIn = (id: string) => vi.mocked(sessionClaims).mockResolvedValue({ uid: id, ver: 0, sid: null });
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const origin = "http://127.0.0.1";
const call = (method: string, path: string) =>
  new Request(`${origin}${path}`, { method, headers: { host: "127.0.0.1", origin } });
const rowsReferring = (ids: string[]) => rowsReferringIn(db, env.DATABASE_URL, ids);

async function createUser() {
  return db.user.create({
    data: { email: `kept-${randomUUID()}@example.test`, name: "K", passwordHash: "x" },
  });
}

/** A conversation (in `projectId` when given) with one user message per fact, each fact remembered from it. */
async function conversationWithFacts(userId: string, texts: string[], projectId?: string) {
  const session = await db.chatSession.create({
    data: { userId, title: "Where I said it", lastSeq: texts.length, ...(projectId ? { projectId } : {}) },
  });
  const messageIds: string[] = [];
  const factIds: string[] = [];
  for (const [i, text] of texts.entries()) {
    const message = await db.chatMessage.create({
      data: { sessionId: session.id, seq: i + 1, role: "user", text: `Remember that ${text}` },
    });
    messageIds.push(message.id);
    const { fact } = await withTransaction((tx) =>
      rememberFact(
        { userId, text, subject: null, sourceSessionId: session.id, sourceMessageId: message.id },
        { tx },
      ),
    );
    factIds.push(fact.id);
  }
  return { sessionId: session.id, messageIds, factIds };
}

describe(`keeping the facts of a deleted conversation (${kind})`, () => {
  it("keeps them without a source when asked, still used and listed; the receipt says so; nothing refers to the conversation", async () => {
    const user = await createUser();
    const a = await conversationWithFacts(user.id, ["my favourite colour is teal", "I live in Lisbon"]);
    const b = await conversationWithFacts(user.id, ["I have a dog called Rex"]);
    signedIn(user.id);

    const bad = await sessionRoute.DELETE(
      call("DELETE", `/api/sessions/${a.sessionId}?keepFacts=yes`),
      ctx({ id: a.sessionId }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("bad_request");
    expect(await db.chatSession.count({ where: { id: a.sessionId } })).toBe(1);

    const res = await sessionRoute.DELETE(
      call("DELETE", `/api/sessions/${a.sessionId}?keepFacts=true`),
      ctx({ id: a.sessionId }),
    );
    expect(res.status).toBe(200);
    const { receipt } = (await res.json()) as {
      receipt: { deleted: Record<string, number>; kept?: { MemoryFact: number } };
    };
    expect(receipt.deleted).toMatchObject({ ChatSession: 1, ChatMessage: 2, MemoryFact: 0 });
    expect(receipt.kept).toEqual({ MemoryFact: 2 });

    const kept = await db.memoryFact.findMany({ where: { id: { in: a.factIds } }, orderBy: { text: "asc" } });
    expect(kept.map((f) => [f.text, f.sourceSessionId, f.sourceMessageId])).toEqual([
      ["I live in Lisbon", null, null],
      ["my favourite colour is teal", null, null],
    ]);
    // Their history stays, no longer naming a message of the deleted conversation.
    const versions = await db.memoryFactVersion.findMany({ where: { factId: { in: a.factIds } } });
    expect(versions.length).toBeGreaterThanOrEqual(2);
    expect(versions.every((v) => v.sourceMessageId === null)).toBe(true);
    expect(await rowsReferring([a.sessionId, ...a.messageIds])).toEqual(
      zeroEverywhere(await rowsReferring([a.sessionId, ...a.messageIds])),
    );

    const injected = (await loadLongTermMemory({ userId: user.id, projectId: null })).facts.map(
      (f) => f.text,
    );
    expect(injected.sort()).toEqual([
      "I have a dog called Rex",
      "I live in Lisbon",
      "my favourite colour is teal",
    ]);
    const listed = (await (await memoriesRoute.GET(call("GET", "/api/memories"), ctx({}))).json()) as {
      memories: { text: string; sourceSessionId: string | null; sourceSessionTitle: string | null }[];
    };
    expect(listed.memories.find((m) => m.text === "I live in Lisbon")).toMatchObject({
      sourceSessionId: null,
      sourceSessionTitle: null,
    });

    // The default is unchanged: without the parameter the facts go with their conversation.
    const plain = await sessionRoute.DELETE(
      call("DELETE", `/api/sessions/${b.sessionId}`),
      ctx({ id: b.sessionId }),
    );
    const plainReceipt = (
      (await plain.json()) as { receipt: { deleted: Record<string, number>; kept?: unknown } }
    ).receipt;
    expect(plainReceipt.deleted.MemoryFact).toBe(1);
    expect(plainReceipt.kept).toBeUndefined();
    expect(await db.memoryFact.count({ where: { id: { in: b.factIds } } })).toBe(0);
  });

  it("a project's deletion counts its facts beforehand and keeps them (global) with keepFacts, or deletes them all", async () => {
    for (const keepFacts of [true, false]) {
      const user = await createUser();
      const project = await createProject({ userId: user.id, name: "Client A" });
      const inside = await conversationWithFacts(
        user.id,
        ["the codename is Falcon", "the budget is 40k"],
        project.id,
      );
      const outside = await conversationWithFacts(user.id, ["the deadline is March"]);
      const unrelated = await conversationWithFacts(user.id, ["I like tea"]);
      // One fact learned inside moved to global, one learned outside moved into the project: both are the project's.
      await moveFactForUser({ userId: user.id, factId: inside.factIds[1] as string, projectId: null });
      await moveFactForUser({ userId: user.id, factId: outside.factIds[0] as string, projectId: project.id });
      const [listed] = await listProjectsByUserId({ userId: user.id });
      expect(listed).toMatchObject({ id: project.id, sessionCount: 1, factCount: 3 });

      const receipt = await deleteProjectForUser({
        projectId: project.id,
        userId: user.id,
        keep: false,
        keepFacts,
      });
      expect(receipt.deleted).toMatchObject({ Project: 1, ChatSession: 1, ChatMessage: 2 });
      const left = await db.memoryFact.findMany({ where: { userId: user.id }, orderBy: { text: "asc" } });
      if (keepFacts) {
        expect(receipt.deleted.MemoryFact).toBe(0);
        expect(left.map((f) => [f.text, f.projectId, f.sourceSessionId])).toEqual([
          ["I like tea", null, unrelated.sessionId],
          ["the budget is 40k", null, null],
          ["the codename is Falcon", null, null],
          ["the deadline is March", null, outside.sessionId],
        ]);
      } else {
        expect(receipt.deleted.MemoryFact).toBe(3);
        expect(left.map((f) => f.text)).toEqual(["I like tea"]);
      }
    }
  });

  it("a kept fact travels through export and import without a source", async () => {
    const user = await createUser();
    const a = await conversationWithFacts(user.id, ["I live in Lisbon"]);
    await conversationWithFacts(user.id, ["I have a dog called Rex"]);
    signedIn(user.id);
    const res = await sessionRoute.DELETE(
      call("DELETE", `/api/sessions/${a.sessionId}?keepFacts=true`),
      ctx({ id: a.sessionId }),
    );
    expect(res.status).toBe(200);

    const text = await new Response(
      exportAccountStream({ userId: user.id, attachments: "reference" }),
    ).text();
    const file = JSON.parse(text) as {
      longTermMemory: {
        facts: { text: string; conversationLocalId: string | null; messageLocalId: string | null }[];
      };
    };
    expect(file.longTermMemory.facts.find((f) => f.text === "I live in Lisbon")).toMatchObject({
      conversationLocalId: null,
      messageLocalId: null,
    });

    const other = await createUser();
    await importExportFile({ userId: other.id, bytes: new TextEncoder().encode(text) });
    const imported = await db.memoryFact.findMany({ where: { userId: other.id }, orderBy: { text: "asc" } });
    expect(imported.map((f) => [f.text, f.sourceSessionId === null])).toEqual([
      ["I have a dog called Rex", false],
      ["I live in Lisbon", true],
    ]);
  });
});
