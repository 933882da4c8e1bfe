import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as importRoute from "@/app/api/import/route";
import * as exportRoute from "@/app/api/me/export/route";
import * as instructionsRoute from "@/app/api/me/instructions/route";
import * as memoryRoute from "@/app/api/sessions/[id]/memory/route";
import * as messagesRoute from "@/app/api/sessions/[id]/messages/route";
import * as sessionRoute from "@/app/api/sessions/[id]/route";
import { POST as chatCompletionsPost } from "@/app/v1/chat/completions/route";
import { sessionClaims } from "@/lib/auth/session-token";
import { createApiKey } from "@/lib/db/api-keys";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { CONVERSATION_INSTRUCTIONS_HEADER, USER_INSTRUCTIONS_HEADER } from "@/lib/memory/instructions";
import { answerIdOf, contextOf, drain } from "./test-helpers";

// Instructions (issue 25): the user's "About me" / "How to answer" and a conversation's system prompt — their
// routes, the context entries a turn records for them (order, trace, budget), /v1, and export/import.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
vi.mock("@/lib/security/csrf", () => ({ assertSameOrigin: () => {} }));

const kind = databaseKind(env.DATABASE_URL);
const base = "http://localhost/api";
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const signedIn = (id: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
const req = (url: string, method = "GET", body?: unknown) =>
  new Request(`${base}${url}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

afterAll(async () => {
  await db.$disconnect();
});

async function newUser() {
  const user = await db.user.create({
    data: { email: `i-${randomUUID()}@example.test`, name: "T", passwordHash: "x" },
  });
  signedIn(user.id);
  return user.id;
}

async function newSession(userId: string) {
  return (await db.chatSession.create({ data: { userId, title: "instructions" } })).id;
}

const getInstructions = () => instructionsRoute.GET(req("/me/instructions"), ctx({}));
const patchInstructions = (body: unknown) =>
  instructionsRoute.PATCH(req("/me/instructions", "PATCH", body), ctx({}));
const patchSession = (id: string, body: unknown) =>
  sessionRoute.PATCH(req(`/sessions/${id}`, "PATCH", body), ctx({ id }));
const getSession = (id: string) => sessionRoute.GET(req(`/sessions/${id}`), ctx({ id }));

async function ask(sessionId: string, content: string) {
  const res = await messagesRoute.POST(
    req(`/sessions/${sessionId}/messages`, "POST", { content }),
    ctx({ id: sessionId }),
  );
  expect(res.status).toBe(200);
  const events = await drain(res.body as ReadableStream<Uint8Array>);
  return contextOf(db, answerIdOf(events));
}

type Entry = { source: string; role: string; tokens: number; preview: string; scope?: string };

describe(`GET/PATCH /api/me/instructions (${kind})`, () => {
  it("401 signed out; empty at first; saves each field; 422 over 4 000 characters changes nothing; null clears", async () => {
    signedIn(null);
    expect((await getInstructions()).status).toBe(401);
    expect((await patchInstructions({ aboutMe: "x" })).status).toBe(401);

    const userId = await newUser();
    expect(await (await getInstructions()).json()).toEqual({ aboutMe: "", howToAnswer: "" });
    const saved = await patchInstructions({
      aboutMe: "  I live in Lyon.  ",
      howToAnswer: "Reply in French.",
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ aboutMe: "I live in Lyon.", howToAnswer: "Reply in French." });
    // One field alone leaves the other.
    expect(await (await patchInstructions({ howToAnswer: "Be brief." })).json()).toEqual({
      aboutMe: "I live in Lyon.",
      howToAnswer: "Be brief.",
    });

    const max = await patchInstructions({ aboutMe: "a".repeat(4000) });
    expect(max.status).toBe(200);
    for (const body of [
      { aboutMe: "b".repeat(4001) },
      { howToAnswer: "c".repeat(4001), aboutMe: "ok" },
      { aboutMe: 5 },
      {},
      { other: "x" },
    ]) {
      const res = await patchInstructions(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    }
    const row = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect([row.aboutMe.length, row.howToAnswer]).toEqual([4000, "Be brief."]);

    expect(await (await patchInstructions({ aboutMe: null, howToAnswer: "" })).json()).toEqual({
      aboutMe: "",
      howToAnswer: "",
    });
  });
});

describe(`PATCH /api/sessions/:id { systemPrompt } (${kind})`, () => {
  it("saves, GET returns it, 422 over 4 000 changes nothing, null clears; 401 and 404 for someone else's", async () => {
    const owner = await newUser();
    const sessionId = await newSession(owner);
    const before = (await (await getSession(sessionId)).json()) as { session: { systemPrompt: unknown } };
    expect(before.session.systemPrompt).toBeNull();

    const saved = await patchSession(sessionId, { systemPrompt: "Answer as a pirate." });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { session: { systemPrompt: string } }).session.systemPrompt).toBe(
      "Answer as a pirate.",
    );
    const read = (await (await getSession(sessionId)).json()) as { session: { systemPrompt: string } };
    expect(read.session.systemPrompt).toBe("Answer as a pirate.");

    const over = await patchSession(sessionId, { systemPrompt: "x".repeat(4001), title: "New title" });
    expect(over.status).toBe(422);
    const row = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect([row.systemPrompt, row.title]).toEqual(["Answer as a pirate.", "instructions"]);
    expect((await patchSession(sessionId, { systemPrompt: 7 })).status).toBe(422);

    const cleared = await patchSession(sessionId, { systemPrompt: null });
    expect(
      ((await cleared.json()) as { session: { systemPrompt: unknown } }).session.systemPrompt,
    ).toBeNull();
    await patchSession(sessionId, { systemPrompt: "again" });
    await patchSession(sessionId, { systemPrompt: "   " });
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } })).systemPrompt).toBeNull();

    await newUser();
    expect((await patchSession(sessionId, { systemPrompt: "mine now" })).status).toBe(404);
    expect((await getSession(sessionId)).status).toBe(404);
    signedIn(null);
    expect((await patchSession(sessionId, { systemPrompt: "x" })).status).toBe(401);
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } })).systemPrompt).toBeNull();
  });
});

describe(`instructions in the turn's context (${kind})`, () => {
  it("are sent after the system prompt, the user's then the conversation's, traced with their scope and counted", async () => {
    const userId = await newUser();
    const sessionId = await newSession(userId);
    const plain = await ask(sessionId, "Hello there");
    expect(plain.entries.map((e) => e.source)).not.toContain("instructions");

    await patchInstructions({ aboutMe: "My name is Ana.", howToAnswer: "Reply in French." });
    await patchSession(sessionId, { systemPrompt: "You are a pirate." });
    const context = await ask(sessionId, "Hello again");
    const entries = context.entries as unknown as Entry[];
    const sources = entries.map((e) => e.source);
    expect(sources.slice(0, 3)).toEqual(["system", "instructions", "instructions"]);
    expect(sources.at(-1)).toBe("current");
    expect(sources.filter((s) => s === "instructions")).toHaveLength(2);
    const [user, conversation] = entries.filter((e) => e.source === "instructions");
    expect(user).toMatchObject({ role: "system", scope: "user" });
    expect(user?.preview.startsWith(USER_INSTRUCTIONS_HEADER)).toBe(true);
    expect(conversation).toMatchObject({ role: "system", scope: "conversation" });
    expect(conversation?.preview).toBe(`${CONVERSATION_INSTRUCTIONS_HEADER}\n\nYou are a pirate.`);
    // Counted: each entry has its tokens, and the record's total is the entries' sum plus the reply priming.
    for (const e of [user, conversation]) expect(e?.tokens).toBeGreaterThan(5);
    const sum = [...entries, ...(context.tools as unknown as Entry[])].reduce((n, e) => n + e.tokens, 0);
    expect(context.tokenEstimate).toBe(sum + 3);
    // The offline model answered as usual.
    const answer = await db.chatMessage.findFirstOrThrow({ where: { sessionId, seq: 4 } });
    expect(answer.status).toBe("complete");
    expect(answer.text.length).toBeGreaterThan(0);
  });

  it("take their place in the token budget: the window gives way, and one that cannot fit is left out", async () => {
    const userId = await newUser();
    const sessionId = await newSession(userId);
    const set = await memoryRoute.PATCH(
      req(`/sessions/${sessionId}/memory`, "PATCH", { policy: "tokens", maxTokens: 300 }),
      ctx({ id: sessionId }),
    );
    expect(set.status).toBe(200);
    for (const n of [1, 2, 3])
      await ask(sessionId, `Message ${n}: ${"lorem ipsum dolor sit amet ".repeat(8)}`);
    const without = await ask(sessionId, "How many?");
    const historyWithout = without.entries.filter((e) => e.source === "history").length;

    await patchSession(sessionId, { systemPrompt: "Keep it short. ".repeat(20) });
    const withPrompt = await ask(sessionId, "How many now?");
    const historyWith = withPrompt.entries.filter((e) => e.source === "history").length;
    expect(withPrompt.entries.some((e) => e.source === "instructions")).toBe(true);
    expect(historyWith).toBeLessThan(historyWithout);
    expect(withPrompt.tokenEstimate).toBeLessThanOrEqual(300);

    // An instruction larger than the whole budget is dropped rather than failing the turn.
    await patchSession(sessionId, { systemPrompt: "word ".repeat(790) });
    const dropped = await ask(sessionId, "Still there?");
    expect(dropped.entries.some((e) => e.source === "instructions")).toBe(false);
    expect(dropped.tokenEstimate).toBeLessThanOrEqual(300);
  });

  it("reach /v1 turns too, after a system message the client sends", async () => {
    const userId = await newUser();
    await patchInstructions({ howToAnswer: "Reply in French." });
    const { key } = await createApiKey({ userId, name: "v1" });
    const res = await chatCompletionsPost(
      new Request("http://127.0.0.1/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: (await import("@/lib/env")).env.model,
          messages: [
            { role: "system", content: "Client system prompt." },
            { role: "user", content: "Bonjour" },
          ],
        }),
      }),
      ctx({}),
    );
    expect(res.status).toBe(200);
    const sessionId = res.headers.get("x-recall-session") as string;
    const row = await db.turnContext.findFirstOrThrow({ where: { sessionId } });
    const entries = row.entries as unknown as Entry[];
    expect(entries.slice(0, 2).map((e) => [e.source, e.scope ?? null])).toEqual([
      ["system", null],
      ["instructions", "user"],
    ]);
    expect(entries[0]?.preview).toBe("Client system prompt.");
    expect(entries[1]?.preview).toContain("Reply in French.");
  });
});

describe(`export and import of instructions (${kind})`, () => {
  it("round-trips the user's instructions and each conversation's system prompt, never over instructions already set", async () => {
    const from = await newUser();
    await patchInstructions({ aboutMe: "I live in Lyon.", howToAnswer: "Reply in French." });
    const sessionId = await newSession(from);
    await patchSession(sessionId, { systemPrompt: "You are a pirate." });
    await ask(sessionId, "Ahoy");
    const file = await (await exportRoute.GET(req("/me/export"), ctx({}))).text();
    const parsed = JSON.parse(file) as { instructions: unknown; conversations: { systemPrompt: unknown }[] };
    expect(parsed.instructions).toEqual({ aboutMe: "I live in Lyon.", howToAnswer: "Reply in French." });
    expect(parsed.conversations.map((c) => c.systemPrompt)).toEqual(["You are a pirate."]);

    // Into an account without instructions: both are filled; the conversation keeps its prompt.
    const to = await newUser();
    const imported = await importRoute.POST(
      new Request(`${base}/import`, { method: "POST", body: file }),
      ctx({}),
    );
    expect(imported.status).toBe(201);
    const { imported: result } = (await imported.json()) as { imported: { conversations: { id: string }[] } };
    expect(await (await getInstructions()).json()).toEqual({
      aboutMe: "I live in Lyon.",
      howToAnswer: "Reply in French.",
    });
    const copy = await db.chatSession.findFirstOrThrow({
      where: { id: result.conversations[0]?.id, userId: to },
    });
    expect(copy.systemPrompt).toBe("You are a pirate.");
    const context = await ask(copy.id, "Ahoy again");
    expect(context.entries.filter((e) => e.source === "instructions")).toHaveLength(2);

    // Into an account with its own "About me": that one stays, the empty one is filled.
    await newUser();
    await patchInstructions({ aboutMe: "I live in Oslo." });
    const again = await importRoute.POST(
      new Request(`${base}/import`, { method: "POST", body: file }),
      ctx({}),
    );
    expect(again.status).toBe(201);
    expect(await (await getInstructions()).json()).toEqual({
      aboutMe: "I live in Oslo.",
      howToAnswer: "Reply in French.",
    });

    // Over the limit in a file: 422, nothing imported.
    const bad = JSON.stringify({
      ...JSON.parse(file),
      instructions: { aboutMe: "x".repeat(4001), howToAnswer: "" },
    });
    const before = await db.chatSession.count();
    const refused = await importRoute.POST(
      new Request(`${base}/import`, { method: "POST", body: bad }),
      ctx({}),
    );
    expect(refused.status).toBe(422);
    expect(await db.chatSession.count()).toBe(before);
  });
});
