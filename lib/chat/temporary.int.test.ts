import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { databaseKind } from "@/lib/db/client";
import { rowsReferring, zeroEverywhere } from "@/lib/db/test-rows";
import { env } from "@/lib/env";
import { answerOf, closeApps, loadApp } from "./test-helpers";

// Temporary chats with real turns (offline model) on SQLite and PostgreSQL: nothing said in one is remembered,
// searched or recalled elsewhere, and the retention job deletes one a day old.

afterEach(closeApps);

const kind = databaseKind(env.DATABASE_URL);
const word = () => `zt${randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function setup() {
  const app = await loadApp({});
  const user = await app.db.user.create({
    data: { email: `temp-${randomUUID()}@example.test`, name: "T", passwordHash: "x" },
  });
  const { createSession } = await import("@/lib/db/sessions");
  const temp = await createSession({ userId: user.id, title: "temporary", temporary: true });
  const normal = await createSession({ userId: user.id, title: "normal" });
  return { ...app, userId: user.id, temp: temp.id, normal: normal.id };
}

describe(`temporary chats (${kind})`, () => {
  it("the remember tool refuses in a temporary chat: no long-term fact is written", async () => {
    const { db, turn, userId, temp, normal } = await setup();
    const events = await turn(temp, userId, "Remember that my favourite colour is teal");
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ type: "tool_result", name: "remember", ok: false });
    expect(await db.memoryFact.count({ where: { userId } })).toBe(0);
    // The same words in an ordinary conversation are remembered (the refusal is the temporary chat's).
    await turn(normal, userId, "Remember that my favourite colour is teal");
    expect(await db.memoryFact.count({ where: { userId } })).toBe(1);
  });

  it("is not searchable and not recalled into another conversation with scope all", async () => {
    const { turn, userId, temp, normal } = await setup();
    const [hidden, seen] = [word(), word()];
    await turn(temp, userId, `My locker code is ${hidden}`);
    await turn(normal, userId, `My bike lock code is ${seen}`);
    const { searchMessagesForUser } = await import("@/lib/db/search");
    expect((await searchMessagesForUser({ userId, q: hidden })).results).toEqual([]);
    const found = (await searchMessagesForUser({ userId, q: seen })).results;
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((r) => r.sessionId))).toEqual(new Set([normal]));

    const { recallCandidates } = await import("@/lib/db/recall");
    const { createSession } = await import("@/lib/db/sessions");
    const third = await createSession({ userId, title: "third" });
    const recall = (question: string, sessionId: string) =>
      recallCandidates({ userId, sessionId, scope: "all", question, leafSeq: 1, limit: 10 });
    // Any-term ranking may bring the ordinary conversation's "code" messages; never the temporary chat's.
    const leak = await recall(`what is my locker code ${hidden}`, third.id);
    expect(leak.map((h) => h.sessionId)).not.toContain(temp);
    expect(leak.some((h) => h.text.includes(hidden) || h.partner?.text.includes(hidden))).toBe(false);
    const hits = await recall(`what is my bike lock code ${seen}`, third.id);
    expect(hits.map((h) => h.sessionId)).toContain(normal);
    // Inside the temporary chat itself its own earlier messages still count.
    const own = await recallCandidates({
      userId,
      sessionId: temp,
      scope: "conversation",
      question: `locker code ${hidden}`,
      leafSeq: 3,
      limit: 10,
    });
    expect(own.map((h) => h.sessionId)).toContain(temp);
  });

  it("the answer still comes, and retention deletes a temporary chat a day old, leaving zero rows", async () => {
    const { db, turn, userId, temp, normal } = await setup();
    const events = await turn(temp, userId, "Hello there");
    expect(answerOf(events).length).toBeGreaterThan(0);
    const { deleteStaleTemporarySessions } = await import("@/lib/db/temporary");
    const now = new Date();
    // Under a day old: kept.
    await deleteStaleTemporarySessions({ now });
    expect(await db.chatSession.count({ where: { id: temp } })).toBe(1);

    const old = new Date(now.getTime() - 25 * 60 * 60 * 1000);
    await db.chatSession.updateMany({ where: { id: { in: [temp, normal] } }, data: { createdAt: old } });
    const round = await deleteStaleTemporarySessions({ now });
    expect(round.sessions).toBeGreaterThanOrEqual(1);
    const left = await rowsReferring(db, env.DATABASE_URL, [temp]);
    expect(left).toEqual(zeroEverywhere(left));
    expect(await db.chatSession.count({ where: { id: normal } })).toBe(1);
    expect(await db.auditLog.count({ where: { targetId: temp, actorId: null } })).toBe(1);
  });
});
