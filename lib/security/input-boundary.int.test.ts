import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";

// A NUL (U+0000) is refused the same way on both databases — a 422 naming the field, nothing stored — where
// PostgreSQL used to answer 503 storage_error and SQLite stored it. A NUL in the address is a 400.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

const sessions = await import("@/app/api/sessions/route");
const session = await import("@/app/api/sessions/[id]/route");
const messages = await import("@/app/api/sessions/[id]/messages/route");
const keys = await import("@/app/api/keys/route");
const memory = await import("@/app/api/memories/[id]/route");
const register = await import("@/app/api/register/route");
const search = await import("@/app/api/search/route");
const importRoute = await import("@/app/api/import/route");

const kind = databaseKind(env.DATABASE_URL);
const origin = "http://127.0.0.1";

afterAll(async () => {
  await db.$disconnect();
});

const call = (method: string, path: string, body?: unknown) =>
  new Request(`${origin}${path}`, {
    method,
    headers: {
      host: "127.0.0.1",
      origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const ctx = <P extends object = Record<string, never>>(params?: P) => ({
  params: Promise.resolve((params ?? {}) as P),
});

async function refusal(res: Response) {
  return { status: res.status, body: (await res.json()) as { error: { code: string; details?: unknown } } };
}

describe(`NUL characters (${kind})`, () => {
  it("in a title, message, key name, fact, registration or import: 422 naming the field, nothing stored", async () => {
    const user = await db.user.create({
      data: { email: `nul-${randomUUID()}@example.test`, name: "Nul", passwordHash: "x" },
    });
    const s = await db.chatSession.create({ data: { userId: user.id, title: "Clean" } });
    const m = await db.chatMessage.create({ data: { sessionId: s.id, seq: 1, role: "user", text: "hi" } });
    const fact = await db.memoryFact.create({
      data: { userId: user.id, text: "clean fact", sourceSessionId: s.id, sourceMessageId: m.id },
    });
    await db.chatSession.update({
      where: { id: s.id },
      data: { lastSeq: 1, activeLeafId: m.id, activeLeafSeq: 1 },
    });
    vi.mocked(sessionClaims).mockResolvedValue({ uid: user.id, ver: 0, sid: null });
    const before = {
      sessions: await db.chatSession.findMany({ where: { userId: user.id }, select: { title: true } }),
      messages: await db.chatMessage.count({ where: { sessionId: s.id } }),
      keys: await db.apiKey.count({ where: { userId: user.id } }),
      facts: await db.memoryFact.findMany({ where: { userId: user.id }, select: { text: true } }),
      users: await db.user.count(),
    };

    const cases: [string, Promise<Response>][] = [
      ["title", sessions.POST(call("POST", "/api/sessions", { title: "a\u0000b" }), ctx())],
      [
        "title",
        session.PATCH(call("PATCH", `/api/sessions/${s.id}`, { title: "x\u0000" }), ctx({ id: s.id })),
      ],
      [
        "content",
        messages.POST(
          call("POST", `/api/sessions/${s.id}/messages`, { content: "\u0000" }),
          ctx({ id: s.id }),
        ),
      ],
      ["name", keys.POST(call("POST", "/api/keys", { name: "key\u0000" }), ctx())],
      [
        "text",
        memory.PATCH(call("PATCH", `/api/memories/${fact.id}`, { text: "f\u0000" }), ctx({ id: fact.id })),
      ],
      [
        "name",
        register.POST(
          call("POST", "/api/register", {
            email: `new-${randomUUID()}@example.test`,
            password: "long enough password",
            name: "N\u0000",
          }),
          ctx(),
        ),
      ],
    ];
    for (const [field, pending] of cases) {
      const { status, body } = await refusal(await pending);
      expect({ field, status, code: body.error.code }).toEqual({
        field,
        status: 422,
        code: "validation_failed",
      });
      expect(body.error.details).toEqual([{ path: field, message: expect.stringContaining("NUL") }]);
    }

    const file = {
      format: "recall-export",
      version: 1,
      exportedAt: new Date().toISOString(),
      attachments: "reference",
      conversations: [{ localId: "c1", title: "t\u0000", messages: [] }],
    };
    const imported = await refusal(await importRoute.POST(call("POST", "/api/import", file), ctx()));
    expect(imported.status).toBe(422);
    expect(imported.body.error.details).toEqual([
      { path: "conversations.0.title", message: expect.stringContaining("NUL") },
    ]);

    expect({
      sessions: await db.chatSession.findMany({ where: { userId: user.id }, select: { title: true } }),
      messages: await db.chatMessage.count({ where: { sessionId: s.id } }),
      keys: await db.apiKey.count({ where: { userId: user.id } }),
      facts: await db.memoryFact.findMany({ where: { userId: user.id }, select: { text: true } }),
      users: await db.user.count(),
    }).toEqual(before);
  });

  it("in the address (a path parameter or a query): 400 bad_request before the database is asked", async () => {
    const user = await db.user.create({
      data: { email: `nul-${randomUUID()}@example.test`, name: "Nul", passwordHash: "x" },
    });
    vi.mocked(sessionClaims).mockResolvedValue({ uid: user.id, ver: 0, sid: null });
    const byId = await refusal(await session.GET(call("GET", "/api/sessions/%00"), ctx({ id: "\u0000" })));
    expect(byId).toMatchObject({ status: 400, body: { error: { code: "bad_request" } } });
    const query = await refusal(await search.GET(call("GET", "/api/search?q=a%00b"), ctx()));
    expect(query).toMatchObject({ status: 400, body: { error: { code: "bad_request" } } });
  });
});
