import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { contextOf, createUserWithSession, drain } from "@/lib/chat/test-helpers";
import { startTurn } from "@/lib/chat/turn";
import { env } from "@/lib/env";
import { databaseKind, db } from "./client";

// Rows a bug or a hand-edit left looping must not hang a request: every walk over parent links stops, on SQLite
// (where a statement that never ends blocks the whole server) and on PostgreSQL. The rows are damaged directly.
// The 5 s limits are the hang detectors.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

const sessionRoute = await import("@/app/api/sessions/[id]/route");
const adminSession = await import("@/app/api/admin/sessions/[id]/route");
const sessionExport = await import("@/app/api/sessions/[id]/export/route");

const kind = databaseKind(env.DATABASE_URL);
const origin = "http://127.0.0.1";

afterAll(async () => {
  await db.$disconnect();
});

const signedIn = (id: string) => vi.mocked(sessionClaims).mockResolvedValue({ uid: id, ver: 0, sid: null });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
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

/** Four messages m1 → m2 → m3 → m4 (active leaf m4), then m1's parent set to m4: a loop of parent links. */
async function loopedConversation() {
  const { userId, sessionId } = await createUserWithSession(db, "Looped");
  const ids: string[] = [];
  for (const [i, text] of ["My name is Ada.", "Hello Ada.", "What is my name?", "Ada."].entries()) {
    const m = await db.chatMessage.create({
      data: {
        sessionId,
        seq: i + 1,
        role: i % 2 === 0 ? "user" : "assistant",
        text,
        parentId: ids.at(-1) ?? null,
      },
    });
    ids.push(m.id);
  }
  const [m1, m2, , m4] = ids as [string, string, string, string];
  await db.chatMessage.update({ where: { id: m1 }, data: { parentId: m4 } });
  await db.chatSession.update({
    where: { id: sessionId },
    data: { lastSeq: 4, activeLeafId: m4, activeLeafSeq: 4 },
  });
  return { userId, sessionId, ids, m2, m4 };
}

describe(`looping parent links (${kind})`, () => {
  it("GET shows each message of the loop once and no more pages; a branch switch into it answers", async () => {
    const { userId, sessionId, ids, m2, m4 } = await loopedConversation();
    signedIn(userId);

    const got = await sessionRoute.GET(call("GET", `/api/sessions/${sessionId}`), ctx(sessionId));
    expect(got.status).toBe(200);
    const page = (await got.json()) as { messages: { id: string }[]; hasMore: boolean };
    expect(page.messages.map((m) => m.id)).toEqual(ids);
    expect(page.hasMore).toBe(false);

    const switched = await sessionRoute.PATCH(
      call("PATCH", `/api/sessions/${sessionId}`, { activeLeafId: m2 }),
      ctx(sessionId),
    );
    expect(switched.status).toBe(200);
    const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.activeLeafId).toBe(m4);
  }, 5_000);

  it("a turn on the loop reads each earlier message into memory once", async () => {
    const { userId, sessionId } = await loopedConversation();
    const events = await drain(await startTurn({ sessionId, userId, input: { content: "And now?" } }));
    const meta = events.find((e) => e.type === "meta");
    if (meta?.type !== "meta") throw new Error("no meta event");
    const context = await contextOf(db, meta.assistantMessage.id);
    const seqs = context.entries.filter((e) => e.source === "history").map((e) => e.seq);
    expect(seqs).toEqual([1, 2, 3, 4]);
  }, 5_000);

  it("the admin's review and the export of a looped conversation answer", async () => {
    const { userId, sessionId } = await loopedConversation();
    const admin = await db.user.update({ where: { id: userId }, data: { role: "ADMIN" } });
    signedIn(admin.id);
    const review = await adminSession.GET(call("GET", `/api/admin/sessions/${sessionId}`), ctx(sessionId));
    expect(review.status).toBe(200);
    const exported = await sessionExport.GET(
      call("GET", `/api/sessions/${sessionId}/export?format=json`),
      ctx(sessionId),
    );
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain("What is my name?");
  }, 5_000);
});
