import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import type { Db } from "@/lib/db/client";
import type { Model } from "@/lib/llm";
import { createModelFetch } from "@/lib/llm/wire";
import { expectConsoleWarn } from "@/test/console";
import type { TurnEvent } from "./sse";
import { answerOf, closeApps, contextOf, createUserWithSession, loadApp } from "./test-helpers";

// Extraction after each answer (issue 24) on the database of this run with the demo model: off / suggest / auto,
// facts only from the turn's own user message (never the assistant's words, injected or recalled text), a failure
// that stores nothing and is audited, accept / edit-then-accept / dismiss through the routes, and suggestions that
// are never injected.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
afterEach(closeApps);

const signedIn = (id: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const origin = "http://127.0.0.1";
const call = (method: string, path: string, body?: unknown) =>
  new Request(`${origin}${path}`, {
    method,
    headers: {
      host: "127.0.0.1",
      origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp({ OFFLINE_MODEL: "demo", ...vars });
  const job = await import("./extraction-job");
  const turn = async (sessionId: string, userId: string, content: string) => {
    const events = await loaded.turn(sessionId, userId, content);
    await job.extractionsSettled();
    return events;
  };
  return {
    ...loaded,
    job,
    turn,
    memories: await import("@/app/api/memories/route"),
    memory: await import("@/app/api/memories/[id]/route"),
    settings: await import("@/app/api/me/settings/route"),
  };
}

const setMode = (db: Db, userId: string, mode: "off" | "suggest" | "auto" | null) =>
  db.user.update({ where: { id: userId }, data: { memoryExtraction: mode } });
const factsOf = (db: Db, userId: string) =>
  db.memoryFact.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
const questionOf = async (db: Db, sessionId: string, seq: number) =>
  (await db.chatMessage.findFirstOrThrow({ where: { sessionId, seq } })).id;
const factEntries = async (db: Db, events: TurnEvent[]) => {
  const meta = events.find((e) => e.type === "meta");
  const id = meta?.type === "meta" ? meta.assistantMessage.id : "";
  return (await contextOf(db, id)).entries.filter((e) => e.source === "fact");
};

describe("extraction after an answer", () => {
  it("suggest: the user's stated facts wait as suggestions with their source, never injected until accepted", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "suggest");
    await a.turn(sessionId, userId, "I'm vegetarian and I live in Lyon");
    const source = await questionOf(a.db, sessionId, 1);
    const facts = await factsOf(a.db, userId);
    expect(facts.map((f) => [f.text, f.status, f.extracted, f.sourceMessageId, f.sourceSessionId])).toEqual([
      ["I'm vegetarian", "suggested", true, source, sessionId],
      ["I live in Lyon", "suggested", true, source, sessionId],
    ]);

    // Not injected: a new conversation knows nothing, and its context has no long-term section.
    const fresh = (await a.db.chatSession.create({ data: { userId, title: "new" } })).id;
    const before = await a.turn(fresh, userId, "What do you know about me?");
    expect(answerOf(before)).toContain("I don't have any long-term memories");
    expect(await factEntries(a.db, before)).toEqual([]);

    // The chips' read and the review list.
    signedIn(userId);
    const chips = await (
      await a.memories.GET(call("GET", `/api/memories?messageId=${source}`), ctx({}))
    ).json();
    expect(chips.memories.map((m: { text: string; status: string }) => [m.text, m.status])).toEqual([
      ["I'm vegetarian", "suggested"],
      ["I live in Lyon", "suggested"],
    ]);
    const review = await (
      await a.memories.GET(call("GET", "/api/memories?status=suggested"), ctx({}))
    ).json();
    expect(review.memories).toHaveLength(2);
    const active = await (await a.memories.GET(call("GET", "/api/memories"), ctx({}))).json();
    expect(active.memories).toEqual([]);

    // Accept one as it is, edit the other then accept.
    const [veg, lyon] = facts;
    const accept = (id: string, body: unknown) =>
      a.memory.PATCH(call("PATCH", `/api/memories/${id}`, body), ctx({ id }));
    const first = await accept(veg?.id ?? "", { status: "active" });
    expect((await first.json()).memory).toMatchObject({ text: "I'm vegetarian", status: "active" });
    const second = await accept(lyon?.id ?? "", { status: "active", text: "I live in Lyon, France" });
    expect((await second.json()).memory).toMatchObject({ text: "I live in Lyon, France", status: "active" });

    const after = await a.turn(fresh, userId, "What do you know about me?");
    expect(answerOf(after)).toContain("I'm vegetarian");
    expect(answerOf(after)).toContain("I live in Lyon, France");
    expect(await factEntries(a.db, after)).toHaveLength(1);
  });

  it("dismissing deletes the suggestion; a bad accept is a 422 and someone else's a 404, changing nothing", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "suggest");
    await a.turn(sessionId, userId, "I like jazz");
    const [fact] = await factsOf(a.db, userId);
    const id = fact?.id ?? "";
    const other = await createUserWithSession(a.db);
    signedIn(other.userId);
    expect(
      (await a.memory.PATCH(call("PATCH", `/api/memories/${id}`, { status: "active" }), ctx({ id }))).status,
    ).toBe(404);
    expect((await a.memory.DELETE(call("DELETE", `/api/memories/${id}`), ctx({ id }))).status).toBe(404);
    signedIn(null);
    expect(
      (await a.memory.PATCH(call("PATCH", `/api/memories/${id}`, { status: "active" }), ctx({ id }))).status,
    ).toBe(401);
    signedIn(userId);
    for (const bad of [
      { status: "suggested" },
      { status: "active", text: "" },
      {},
      { status: "active", extra: 1 },
    ]) {
      expect((await a.memory.PATCH(call("PATCH", `/api/memories/${id}`, bad), ctx({ id }))).status).toBe(422);
    }
    expect(await factsOf(a.db, userId)).toEqual([fact]);
    expect((await a.memories.GET(call("GET", "/api/memories?status=maybe"), ctx({}))).status).toBe(400);
    const gone = await a.memory.DELETE(call("DELETE", `/api/memories/${id}`), ctx({ id }));
    expect(await gone.json()).toEqual({ deleted: { MemoryFact: 1 } });
    expect(await factsOf(a.db, userId)).toEqual([]);
  });

  it("auto: facts are saved active and injected from the next turn; the same fact twice is stored once", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "auto");
    await a.turn(sessionId, userId, "My favourite colour is teal");
    await a.turn(sessionId, userId, "my favourite colour is teal.");
    const facts = await factsOf(a.db, userId);
    expect(facts.map((f) => [f.text, f.status, f.extracted])).toEqual([
      ["My favourite colour is teal", "active", true],
    ]);
    const next = await a.turn(sessionId, userId, "What do you know about me?");
    expect(answerOf(next)).toContain("My favourite colour is teal");
    // Undo is the DELETE of the fact.
    signedIn(userId);
    const id = facts[0]?.id ?? "";
    expect((await a.memory.DELETE(call("DELETE", `/api/memories/${id}`), ctx({ id }))).status).toBe(200);
  });

  it("a temporary chat is never learned from, even in auto mode", async () => {
    const a = await app();
    const { userId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "auto");
    const temp = await a.db.chatSession.create({ data: { userId, title: "temporary", temporary: true } });
    await a.turn(temp.id, userId, "I live in Lyon and I'm vegetarian");
    expect(await factsOf(a.db, userId)).toEqual([]);
  });

  it("suggestions are not made of what is already remembered (same text, normalized)", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "auto");
    await a.turn(sessionId, userId, "I live in Lyon");
    await setMode(a.db, userId, "suggest");
    await a.turn(sessionId, userId, "i live in lyon. I like tea");
    const facts = await factsOf(a.db, userId);
    expect(facts.map((f) => [f.text, f.status])).toEqual([
      ["I live in Lyon", "active"],
      ["I like tea", "suggested"],
    ]);
  });

  it("off (the user's choice, or MEMORY_EXTRACTION for users without one) extracts nothing; MEMORY_EXTRACTION=auto saves", async () => {
    const off = await app({ MEMORY_EXTRACTION: "off" });
    const one = await createUserWithSession(off.db);
    await off.turn(one.sessionId, one.userId, "I live in Lyon");
    expect(await factsOf(off.db, one.userId)).toEqual([]);
    await setMode(off.db, one.userId, "off");
    await closeApps();

    const auto = await app({ MEMORY_EXTRACTION: "auto" });
    await auto.turn(one.sessionId, one.userId, "I live in Lyon");
    expect(await factsOf(auto.db, one.userId)).toEqual([]);
    const two = await createUserWithSession(auto.db);
    signedIn(two.userId);
    expect(await (await auto.settings.GET(call("GET", "/api/me/settings"), ctx({}))).json()).toEqual({
      longTermMemory: true,
      memoryExtraction: "auto",
    });
    await auto.turn(two.sessionId, two.userId, "I live in Lyon");
    expect((await factsOf(auto.db, two.userId)).map((f) => f.status)).toEqual(["active"]);
    const patched = await auto.settings.PATCH(
      call("PATCH", "/api/me/settings", { memoryExtraction: "suggest" }),
      ctx({}),
    );
    expect(await patched.json()).toEqual({ longTermMemory: true, memoryExtraction: "suggest" });
    const bad = await auto.settings.PATCH(
      call("PATCH", "/api/me/settings", { memoryExtraction: "always" }),
      ctx({}),
    );
    expect(bad.status).toBe(422);
    expect((await auto.db.user.findUniqueOrThrow({ where: { id: two.userId } })).memoryExtraction).toBe(
      "suggest",
    );
  });

  it("never takes a fact from the assistant's words, the window, injected facts or recalled messages", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await a.turn(sessionId, userId, "I live in Paris");
    await a.turn(sessionId, userId, "I like jazz");
    await setMode(a.db, userId, "auto");
    // The window and the answer both hold "I live in Paris": the demo quotes the first message back.
    const quoted = await a.turn(sessionId, userId, "What did I say first?");
    expect(answerOf(quoted)).toContain("I live in Paris");
    expect(await factsOf(a.db, userId)).toEqual([]);

    // Recalled from another conversation (scope all), and an injected fact listed back by the answer.
    const { updateMemorySettings } = await import("./memory-settings");
    const wide = (await a.db.chatSession.create({ data: { userId, title: "wide" } })).id;
    await updateMemorySettings({ sessionId: wide, userId, change: { recall: "all" } });
    const recalled = await a.turn(wide, userId, "Paris?");
    const entries = (
      await contextOf(
        a.db,
        (recalled.find((e) => e.type === "meta") as { assistantMessage: { id: string } }).assistantMessage.id,
      )
    ).entries;
    expect(entries.some((e) => e.source === "recalled" && e.preview === "I live in Paris")).toBe(true);
    expect(await factsOf(a.db, userId)).toEqual([]);
  });

  it("a failed extraction stores nothing and is audited with counts only", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await setMode(a.db, userId, "auto");
    await a.turn(sessionId, userId, "Hello there");
    const messageId = await questionOf(a.db, sessionId, 1);
    const prose: Model = {
      client: new OpenAI({
        apiKey: "x",
        baseURL: "http://offline.recall.invalid/v1",
        maxRetries: 0,
        fetch: createModelFetch(
          () => ({ reply: "You live in Lyon, I think." }),
          { firstTokenDelayMs: 0, tokenDelayMs: 0 },
          "prose",
        ),
      }),
      model: "prose",
      style: "chat",
      offline: true,
      firstByteTimeoutMs: 5000,
      idleTimeoutMs: 5000,
    };
    expectConsoleWarn(/extraction for message .* failed \(unreadable_answer\)/);
    const input = { userId, sessionId, messageId, text: "I live in Lyon" };
    expect(await a.job.extractFacts(input, prose)).toEqual({ status: "failed", reason: "unreadable_answer" });
    const broken = {
      ...prose,
      client: new OpenAI({ apiKey: "x", baseURL: "http://127.0.0.1:9/v1", maxRetries: 0 }),
    };
    expectConsoleWarn(/extraction for message .* failed \(model_error\)/);
    expect(await a.job.extractFacts(input, broken)).toEqual({ status: "failed", reason: "model_error" });
    expect(await factsOf(a.db, userId)).toEqual([]);
    const audit = await a.db.auditLog.findMany({
      where: { targetId: messageId },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((e) => [e.action, e.targetType, e.details])).toEqual([
      ["memory.extraction_failed", "ChatMessage", { reason: "unreadable_answer", facts: 0 }],
      ["memory.extraction_failed", "ChatMessage", { reason: "model_error", facts: 0 }],
    ]);
    expect(JSON.stringify(audit)).not.toContain("Lyon");
  });
});
