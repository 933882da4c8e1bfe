import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { POST as chatCompletionsPost } from "@/app/v1/chat/completions/route";
import { GET as modelsGet } from "@/app/v1/models/route";
import { titlesSettled } from "@/lib/chat/auto-title";
import { listUsersForAdmin } from "@/lib/db/admin-users";
import {
  authenticateApiKey,
  countApiKeysByUserIds,
  createApiKey,
  hashApiKey,
  LAST_USED_RESOLUTION_MS,
  listApiKeysByUserId,
  revokeApiKeyForUser,
  revokeUserApiKeysForAdmin,
} from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";

// API keys and the /v1 handlers against the real database of this project run and the offline model.

afterAll(async () => {
  await db.$disconnect();
});

async function newUser(role: "USER" | "ADMIN" = "USER") {
  const user = await db.user.create({
    data: { email: `k-${randomUUID()}@example.test`, name: "Key tester", passwordHash: "unused", role },
  });
  return user.id;
}

const noCtx = { params: Promise.resolve({}) };

function completions(key: string, body: unknown, headers: Record<string, string> = {}) {
  return chatCompletionsPost(
    new Request("http://127.0.0.1/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    noCtx,
  );
}

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  model: env.model,
  messages: [{ role: "user", content }],
  ...extra,
});

/** The `data:` payloads of an SSE body, in order. */
async function sseData(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.startsWith("data: "))
    .map((b) => b.slice(6));
}

describe("API keys", () => {
  it("stores only the key's SHA-256, lists without the key, authenticates until revoked", async () => {
    const userId = await newUser();
    const created = await createApiKey({ userId, name: "script" });
    expect(created.key).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.keyHash).toBe(hashApiKey(created.key));
    expect(Object.values(row)).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(created.prefix.length));

    const listed = await listApiKeysByUserId({ userId });
    expect(listed).toEqual([
      { id: created.id, name: "script", prefix: created.prefix, createdAt: row.createdAt, lastUsedAt: null },
    ]);

    expect(await authenticateApiKey({ key: created.key })).toMatchObject({ id: userId });
    expect(await authenticateApiKey({ key: `${created.key}x` })).toBeNull();
    await revokeApiKeyForUser({ userId, keyId: created.id });
    expect(await authenticateApiKey({ key: created.key })).toBeNull();
    expect(await listApiKeysByUserId({ userId })).toEqual([]);
  });

  it("another user's key is a 404 and stays valid", async () => {
    const owner = await newUser();
    const other = await newUser();
    const { id, key } = await createApiKey({ userId: owner, name: "mine" });
    await expect(revokeApiKeyForUser({ userId: other, keyId: id })).rejects.toMatchObject({
      code: "not_found",
      status: 404,
    });
    expect(await authenticateApiKey({ key })).toMatchObject({ id: owner });
  });

  it("writes lastUsedAt at most once a minute", async () => {
    const userId = await newUser();
    const { id, key } = await createApiKey({ userId, name: "busy" });
    const t0 = new Date("2030-01-01T00:00:00Z");
    await authenticateApiKey({ key, now: t0 });
    await authenticateApiKey({ key, now: new Date(t0.getTime() + 30_000) });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(t0);
    const later = new Date(t0.getTime() + LAST_USED_RESOLUTION_MS + 1);
    await authenticateApiKey({ key, now: later });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(later);
  });

  it("a disabled account's keys fail; an admin revokes all of a user's keys with an audit entry", async () => {
    const admin = await newUser("ADMIN");
    const userId = await newUser();
    const a = await createApiKey({ userId, name: "a" });
    const b = await createApiKey({ userId, name: "b" });
    expect((await countApiKeysByUserIds({ userIds: [userId] })).get(userId)).toBe(2);
    const email = (await db.user.findUniqueOrThrow({ where: { id: userId } })).email;
    const { users } = await listUsersForAdmin({ q: email, limit: 10 });
    expect(users).toEqual([expect.objectContaining({ id: userId, apiKeyCount: 2 })]);

    const { revoked } = await revokeUserApiKeysForAdmin({ actorId: admin, userId });
    expect(revoked).toBe(2);
    expect(await authenticateApiKey({ key: a.key })).toBeNull();
    expect(await authenticateApiKey({ key: b.key })).toBeNull();
    expect((await countApiKeysByUserIds({ userIds: [userId] })).get(userId)).toBeUndefined();
    const audit = await db.auditLog.findFirstOrThrow({
      where: { action: "user.revoke_api_keys", targetId: userId },
    });
    expect(audit).toMatchObject({ actorId: admin, details: { count: 2 } });
    expect(JSON.stringify(audit)).not.toContain(a.key);

    const c = await createApiKey({ userId, name: "c" });
    await db.user.update({ where: { id: userId }, data: { disabledAt: new Date() } });
    expect(await authenticateApiKey({ key: c.key })).toBeNull();
  });
});

describe("/v1 handlers", () => {
  it("GET /v1/models lists the configured model; no or a bad key is a 401 in OpenAI's shape", async () => {
    const userId = await newUser();
    const { key } = await createApiKey({ userId, name: "m" });
    const ok = await modelsGet(
      new Request("http://127.0.0.1/v1/models", { headers: { authorization: `Bearer ${key}` } }),
      noCtx,
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ object: "list", data: [{ id: env.model, object: "model" }] });

    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer rk_nope" },
      { cookie: "next-auth.session-token=x" },
    ];
    for (const headers of attempts) {
      const res = await modelsGet(new Request("http://127.0.0.1/v1/models", { headers }), noCtx);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: { type: "authentication_error", code: "invalid_api_key", message: expect.any(String) },
      });
    }
  });

  it("server-side memory: the second request sends only the new question; both turns are recorded", async () => {
    const userId = await newUser();
    const { key } = await createApiKey({ userId, name: "recall" });

    const first = await completions(key, ask("My code word is PELICAN-42."));
    expect(first.status).toBe(200);
    const sessionId = first.headers.get("x-recall-session");
    expect(sessionId).toBeTruthy();
    const one = await first.json();
    expect(one).toMatchObject({
      object: "chat.completion",
      model: env.model,
      choices: [{ index: 0, message: { role: "assistant" }, finish_reason: "stop" }],
    });
    expect(one.id).toMatch(/^chatcmpl-/);
    expect(typeof one.created).toBe("number");
    expect(one.usage.prompt_tokens).toBeGreaterThan(0);
    expect(one.usage.total_tokens).toBe(one.usage.prompt_tokens + one.usage.completion_tokens);

    const second = await completions(key, ask("What is my code word?"), {
      "X-Recall-Session": sessionId as string,
    });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-recall-session")).toBe(sessionId);
    const two = await second.json();
    expect(two.choices[0].message.content).toContain("PELICAN-42");

    // The conversation is named after its first answer, off the turn's path: wait for that.
    await titlesSettled();
    const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId as string } });
    expect(session).toMatchObject({
      userId,
      lastSeq: 4,
      title: "My code word is PELICAN-42",
      titleByUser: false,
    });
    expect(await db.turnContext.count({ where: { sessionId: sessionId as string } })).toBe(2);
    // The completion id names the stored answer.
    const answer = await db.chatMessage.findUniqueOrThrow({
      where: { id: two.id.slice("chatcmpl-".length) },
    });
    expect(answer).toMatchObject({ sessionId, seq: 4, role: "assistant", status: "complete" });

    // A new conversation, without the header, knows nothing of it.
    const fresh = await (await completions(key, ask("What is my code word?"))).json();
    expect(fresh.choices[0].message.content).not.toContain("PELICAN-42");
  });

  it("streams chunks in OpenAI's format with a usage chunk and [DONE]; metadata.recall_session names the conversation", async () => {
    const userId = await newUser();
    const { key } = await createApiKey({ userId, name: "stream" });
    const first = await completions(key, ask("My code word is OTTER-7."));
    const sessionId = first.headers.get("x-recall-session") as string;
    await first.json();

    const res = await completions(
      key,
      ask("What is my code word?", {
        stream: true,
        stream_options: { include_usage: true },
        metadata: { recall_session: sessionId },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-recall-session")).toBe(sessionId);
    const data = await sseData(res);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    for (const c of chunks) {
      expect(c).toMatchObject({ object: "chat.completion.chunk", model: env.model, id: chunks[0].id });
    }
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    const text = chunks
      .flatMap((c) => c.choices.map((ch: { delta: { content?: string } }) => ch.delta.content ?? ""))
      .join("");
    expect(text).toContain("OTTER-7");
    const finish = chunks.at(-2);
    expect(finish.choices[0].finish_reason).toBe("stop");
    const usage = chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.usage.completion_tokens).toBeGreaterThan(0);
  });

  it("a leading system message replaces the system prompt for the turn and is recorded", async () => {
    const userId = await newUser();
    const { key } = await createApiKey({ userId, name: "sys" });
    const res = await completions(key, {
      messages: [
        { role: "system", content: "You are a terse test assistant." },
        { role: "user", content: [{ type: "text", text: "hello there" }] },
      ],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const context = await db.turnContext.findUniqueOrThrow({
      where: { messageId: body.id.slice("chatcmpl-".length) },
    });
    const entries = context.entries as Array<{ source: string; preview: string }>;
    expect(entries[0]).toMatchObject({ source: "system", preview: "You are a terse test assistant." });
  });

  it("X-Recall-Memory: client sends the given messages as the context and still records the turn", async () => {
    const userId = await newUser();
    const { key } = await createApiKey({ userId, name: "client" });
    const res = await completions(
      key,
      {
        messages: [
          { role: "user", content: "My code word is HERON-3." },
          { role: "assistant", content: "Noted." },
          { role: "user", content: "What is my code word?" },
        ],
      },
      { "X-Recall-Memory": "client" },
    );
    expect(res.status).toBe(200);
    const sessionId = res.headers.get("x-recall-session") as string;
    const body = await res.json();
    expect(body.choices[0].message.content).toContain("HERON-3");
    // Recorded: the question and answer only (the resent messages were context, not new history).
    expect(await db.chatMessage.count({ where: { sessionId } })).toBe(2);
    const context = await db.turnContext.findUniqueOrThrow({
      where: { messageId: body.id.slice("chatcmpl-".length) },
    });
    expect((context.entries as unknown[]).length).toBe(4); // system, the two resent messages, the question

    const bad = await completions(
      key,
      {
        messages: [
          { role: "tool", content: "x", tool_call_id: "t" },
          { role: "user", content: "hi" },
        ],
      },
      { "X-Recall-Memory": "client" },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: "invalid_request_error", code: "bad_request" });
  });

  it("refuses bad requests with 400, another user's conversation with 404, a running turn with 409", async () => {
    const userId = await newUser();
    const other = await newUser();
    const { key } = await createApiKey({ userId, name: "errors" });
    const { key: otherKey } = await createApiKey({ userId: other, name: "other" });

    for (const body of [
      { messages: [] },
      { messages: [{ role: "assistant", content: "hi" }] },
      { messages: [{ role: "user", content: "   " }] },
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://x" } }] }] },
      { messages: [{ role: "user", content: "hi" }], n: 2 },
    ]) {
      const res = await completions(key, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.type).toBe("invalid_request_error");
    }
    const before = await db.chatSession.count({ where: { userId } });
    expect(before).toBe(0); // refused requests leave no conversation behind

    const first = await completions(key, ask("hello"));
    const sessionId = first.headers.get("x-recall-session") as string;
    await first.json();
    const foreign = await completions(otherKey, ask("hello"), { "X-Recall-Session": sessionId });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toMatchObject({ type: "not_found_error", code: "not_found" });

    // Hold the session's lease as a running turn would.
    await db.chatSession.update({
      where: { id: sessionId },
      data: { leaseId: "someone", leaseUntil: new Date(Date.now() + 60_000) },
    });
    const busy = await completions(key, ask("again"), { "X-Recall-Session": sessionId });
    expect(busy.status).toBe(409);
    expect(busy.headers.get("x-should-retry")).toBe("false");
    expect(busy.headers.get("x-recall-session")).toBe(sessionId);
    expect((await busy.json()).error).toMatchObject({ code: "turn_in_progress" });
  });
});
