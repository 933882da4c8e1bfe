import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as adminModel from "@/app/api/admin/models/[id]/route";
import * as adminModels from "@/app/api/admin/models/route";
import * as models from "@/app/api/models/route";
import * as messages from "@/app/api/sessions/[id]/messages/route";
import * as session from "@/app/api/sessions/[id]/route";
import { POST as completions } from "@/app/v1/chat/completions/route";
import { GET as v1Models } from "@/app/v1/models/route";
import { sessionClaims } from "@/lib/auth/session-token";
import { drain } from "@/lib/chat/test-helpers";
import { createApiKey } from "@/lib/db/api-keys";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { openSecret } from "@/lib/security/secret-box";
import { invalidateModelRegistry } from "./registry";
import { startTestProvider, type TestProvider } from "./test-provider";

// The model registry on SQLite and PostgreSQL: the admin API (keys sealed, never returned), MODELS_CONFIG's
// read-only models, the conversation's pick (422s), and turns, regenerations and /v1 requests reaching the chosen
// model's server — two OpenAI-compatible servers on loopback ports.

vi.hoisted(() => {
  process.env.MODELS_CONFIG = JSON.stringify([
    { id: "deployed-off", name: "Deployed but off", provider: "Deploy", modelId: "off", enabled: false },
  ]);
});
vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
vi.mock("@/lib/security/csrf", () => ({ assertSameOrigin: () => {} }));

const kind = databaseKind(env.DATABASE_URL);
const base = "http://localhost/api";
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const signedIn = (id: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
const req = (path: string, method: string, body?: unknown) =>
  new Request(`${base}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

let a: TestProvider;
let b: TestProvider;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestProvider("provider-a"), startTestProvider("provider-b")]);
});
afterEach(async () => {
  await db.llmModel.deleteMany({});
  invalidateModelRegistry();
  a.requests.length = 0;
  b.requests.length = 0;
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await db.$disconnect();
});

async function createUser(role: "USER" | "ADMIN" = "USER") {
  return db.user.create({
    data: { email: `m-${randomUUID()}@example.test`, name: "T", passwordHash: "x", role },
  });
}

async function addModel(adminId: string, body: Record<string, unknown>) {
  signedIn(adminId);
  const res = await adminModels.POST(req("/admin/models", "POST", body), ctx({}));
  return {
    status: res.status,
    body: (await res.json()) as { model: Record<string, unknown> & { id: string } },
  };
}

const providerModel = (p: TestProvider, name: string, over: Record<string, unknown> = {}) => ({
  name,
  provider: "Local",
  baseUrl: p.url,
  apiKey: `sk-${name}-secret-0123456789`,
  modelId: `${name}-id`,
  contextTokens: 32_000,
  ...over,
});

async function ask(sessionId: string, content: string) {
  const res = await messages.POST(
    req(`/sessions/${sessionId}/messages`, "POST", { content }),
    ctx({ id: sessionId }),
  );
  expect(res.status).toBe(200);
  return drain(res.body as ReadableStream<Uint8Array>);
}

const answerIdOf = (events: Awaited<ReturnType<typeof ask>>) => {
  const meta = events.find((e) => e.type === "meta");
  if (meta?.type !== "meta") throw new Error(`no meta event: ${JSON.stringify(events)}`);
  return meta.assistantMessage.id;
};

describe(`models (${kind})`, () => {
  it("admin CRUD: the key is stored sealed and never returned; 401/403/404/409/422", async () => {
    const admin = await createUser("ADMIN");
    const created = await addModel(admin.id, providerModel(a, "alpha"));
    expect(created.status).toBe(201);
    expect(created.body.model).toMatchObject({
      name: "alpha",
      hasApiKey: true,
      readOnly: false,
      enabled: true,
    });
    expect(JSON.stringify(created.body)).not.toContain("secret");

    const row = await db.llmModel.findUniqueOrThrow({ where: { id: created.body.model.id } });
    expect(row.apiKeySealed).not.toContain("secret");
    expect(openSecret(row.apiKeySealed as string, { secret: env.AUTH_SECRET, purpose: "llm-models" })).toBe(
      "sk-alpha-secret-0123456789",
    );

    const listed = await (await adminModels.GET(req("/admin/models", "GET"), ctx({}))).json();
    expect(JSON.stringify(listed)).not.toContain("secret");
    expect(listed.models.map((m: { id: string }) => m.id)).toEqual(
      expect.arrayContaining([env.model, "deployed-off", created.body.model.id]),
    );

    const id = created.body.model.id;
    const patched = await adminModel.PATCH(
      req(`/admin/models/${id}`, "PATCH", { contextTokens: 4000 }),
      ctx({ id }),
    );
    expect(await patched.json()).toMatchObject({ model: { contextTokens: 4000, hasApiKey: true } });
    const noKey = await adminModel.PATCH(req(`/admin/models/${id}`, "PATCH", { apiKey: null }), ctx({ id }));
    expect(await noKey.json()).toMatchObject({ model: { hasApiKey: false } });
    expect((await db.llmModel.findUniqueOrThrow({ where: { id } })).apiKeySealed).toBeNull();

    expect((await addModel(admin.id, providerModel(a, "alpha"))).status).toBe(409);
    expect((await addModel(admin.id, { ...providerModel(a, "beta"), contextTokens: 10 })).status).toBe(422);
    expect((await addModel(admin.id, { ...providerModel(a, "beta"), baseUrl: "ftp://x" })).status).toBe(422);
    const readOnly = await adminModel.PATCH(
      req("/admin/models/deployed-off", "PATCH", { enabled: true }),
      ctx({ id: "deployed-off" }),
    );
    expect(readOnly.status).toBe(409);

    const user = await createUser();
    signedIn(user.id);
    expect((await adminModels.GET(req("/admin/models", "GET"), ctx({}))).status).toBe(403);
    expect((await adminModel.DELETE(req(`/admin/models/${id}`, "DELETE"), ctx({ id }))).status).toBe(403);
    signedIn(null);
    expect(
      (await adminModels.POST(req("/admin/models", "POST", providerModel(a, "x")), ctx({}))).status,
    ).toBe(401);

    signedIn(admin.id);
    expect((await adminModel.DELETE(req(`/admin/models/${id}`, "DELETE"), ctx({ id }))).status).toBe(204);
    expect((await adminModel.DELETE(req(`/admin/models/${id}`, "DELETE"), ctx({ id }))).status).toBe(404);
    expect(await db.llmModel.count({ where: { id } })).toBe(0);
    const audit = await db.auditLog.findMany({ where: { targetId: id } });
    expect(audit.map((e) => e.action).sort()).toEqual([
      "model.create",
      "model.delete",
      "model.update",
      "model.update",
    ]);
    expect(JSON.stringify(audit)).not.toContain("secret");
  });

  it("GET /api/models lists the enabled ones; PATCH /api/sessions/:id { model } 422s unknown and disabled", async () => {
    const admin = await createUser("ADMIN");
    const on = (await addModel(admin.id, providerModel(a, "on"))).body.model.id;
    const off = (await addModel(admin.id, providerModel(a, "off", { enabled: false }))).body.model.id;
    const user = await createUser();
    signedIn(user.id);
    const list = (await (await models.GET(req("/models", "GET"), ctx({}))).json()) as { id: string }[];
    expect(list.map((m) => m.id)).toEqual([env.model, on]);
    expect(list[1]).toEqual({
      id: on,
      name: "on",
      provider: "Local",
      contextTokens: 32_000,
      vision: false,
      tools: true,
    });

    const s = await db.chatSession.create({ data: { userId: user.id, title: "t" } });
    const patch = (model: unknown) =>
      session.PATCH(req(`/sessions/${s.id}`, "PATCH", { model }), ctx({ id: s.id }));
    for (const bad of ["nope", off, "deployed-off"]) {
      const res = await patch(bad);
      expect(res.status).toBe(422);
      expect((await res.json()).error.code).toBe("validation_failed");
    }
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: s.id } })).model).toBeNull();
    const ok = await patch(on);
    expect(await ok.json()).toMatchObject({ session: { model: on } });
    expect((await patch(null)).status).toBe(200);
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: s.id } })).model).toBeNull();

    signedIn((await createUser()).id);
    expect((await patch(on)).status).toBe(404);
  });

  it("a turn reaches the conversation's model; regenerate with another records it; tools follow the model", async () => {
    const admin = await createUser("ADMIN");
    const alpha = (await addModel(admin.id, providerModel(a, "alpha"))).body.model.id;
    const beta = (await addModel(admin.id, providerModel(b, "beta", { tools: false }))).body.model.id;
    const user = await createUser();
    signedIn(user.id);
    const s = await db.chatSession.create({ data: { userId: user.id, title: "t" } });
    await session.PATCH(req(`/sessions/${s.id}`, "PATCH", { model: alpha }), ctx({ id: s.id }));

    const answerId = answerIdOf(await ask(s.id, "Hello alpha"));
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(0);
    expect(a.requests[0]?.authorization).toBe("Bearer sk-alpha-secret-0123456789");
    expect(a.requests[0]?.body.model).toBe("alpha-id");
    expect(a.requests[0]?.body.tools).toBeDefined();
    const answer = await db.chatMessage.findUniqueOrThrow({ where: { id: answerId } });
    expect(answer).toMatchObject({ model: alpha, status: "complete" });
    expect((await db.turnContext.findUniqueOrThrow({ where: { messageId: answerId } })).model).toBe(alpha);

    const res = await messages.POST(
      req(`/sessions/${s.id}/messages`, "POST", { regenerate: answerId, model: beta }),
      ctx({ id: s.id }),
    );
    const again = answerIdOf(await drain(res.body as ReadableStream<Uint8Array>));
    expect(b.requests).toHaveLength(1);
    expect(b.requests[0]?.body.model).toBe("beta-id");
    expect(b.requests[0]?.body.tools).toBeUndefined();
    const version = await db.chatMessage.findUniqueOrThrow({ where: { id: again } });
    expect(version).toMatchObject({ model: beta, parentId: answer.parentId, status: "complete" });
    expect((await db.turnContext.findUniqueOrThrow({ where: { messageId: again } })).model).toBe(beta);
    // The conversation keeps its own pick: the next question goes to alpha again.
    await ask(s.id, "And again");
    expect(a.requests).toHaveLength(2);

    const unknown = await messages.POST(
      req(`/sessions/${s.id}/messages`, "POST", { regenerate: answerId, model: "nope" }),
      ctx({ id: s.id }),
    );
    expect(unknown.status).toBe(422);
  });

  it("the budget follows the model's context window", async () => {
    const admin = await createUser("ADMIN");
    const small = (await addModel(admin.id, providerModel(a, "small", { contextTokens: 2000 }))).body.model
      .id;
    const user = await createUser();
    signedIn(user.id);
    const s = await db.chatSession.create({ data: { userId: user.id, title: "t" } });
    const long = Array.from({ length: 700 }, (_, i) => `word${i}`).join(" ");
    // The default model's window holds it.
    answerIdOf(await ask(s.id, long));
    await session.PATCH(req(`/sessions/${s.id}`, "PATCH", { model: small }), ctx({ id: s.id }));
    const res = await messages.POST(
      req(`/sessions/${s.id}/messages`, "POST", { content: long }),
      ctx({ id: s.id }),
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("question_too_long");
    expect(body.error.details.budget).toBeLessThan(2000);
    expect(a.requests).toHaveLength(0);
  });

  it("/v1/models lists what the key's user may use; `model` picks one; unknown is a 404 model_not_found", async () => {
    const admin = await createUser("ADMIN");
    const beta = (await addModel(admin.id, providerModel(b, "beta"))).body.model.id;
    const user = await createUser();
    const { key } = await createApiKey({ userId: user.id, name: "t" });
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const listed = await (
      await v1Models(new Request("http://127.0.0.1/v1/models", { headers }), ctx({}))
    ).json();
    expect(listed.data.map((m: { id: string }) => m.id)).toEqual([env.model, beta]);

    const post = (model: string) =>
      completions(
        new Request("http://127.0.0.1/v1/chat/completions", {
          method: "POST",
          headers,
          body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi there" }] }),
        }),
        ctx({}),
      );
    const ok = await post(beta);
    expect(ok.status).toBe(200);
    expect(b.requests).toHaveLength(1);
    const missing = await post("gpt-nope");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("model_not_found");
    expect(b.requests).toHaveLength(1);
  });
});
