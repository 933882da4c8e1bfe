import { afterEach, describe, expect, it } from "vitest";
import { readTurnEvents, type TurnEvent } from "@/lib/chat/sse";
import { answerIdOf, answerOf, closeApps, createUserWithSession, loadApp } from "@/lib/chat/test-helpers";

// The batched heartbeat (lib/db/heartbeats.ts, lib/chat/heartbeats.ts) against the real database of this run:
// the two statements on their own, then many answers streaming at once in one process.

afterEach(closeApps);

async function withLease(app: Awaited<ReturnType<typeof loadApp>>, leaseId: string, leaseUntil: Date) {
  const { userId, sessionId } = await createUserWithSession(app.db);
  await app.db.chatSession.update({ where: { id: sessionId }, data: { leaseId, leaseUntil } });
  return { userId, sessionId };
}

describe("batched heartbeat statements", () => {
  it("renewLeases extends exactly the leases still held and says which", async () => {
    const app = await loadApp({});
    const { renewLeases, leaseKey } = await import("./heartbeats");
    const soon = new Date(Date.now() + 2000);
    const held = await Promise.all([1, 2, 3].map((i) => withLease(app, `held-${i}`, soon)));
    const takenOver = await withLease(app, "newer-turn", soon);
    const deleted = await withLease(app, "deleted", soon);
    await app.db.chatSession.delete({ where: { id: deleted.sessionId } });

    const leases = [
      ...held.map((h, i) => ({ sessionId: h.sessionId, leaseId: `held-${i + 1}` })),
      { sessionId: takenOver.sessionId, leaseId: "stale-turn" },
      { sessionId: deleted.sessionId, leaseId: "deleted" },
    ];
    const renewed = await renewLeases({ leases, leaseSeconds: 60 });
    expect([...renewed].sort()).toEqual(leases.slice(0, 3).map(leaseKey).sort());
    const rows = await app.db.chatSession.findMany({
      where: { id: { in: [...held, takenOver].map((h) => h.sessionId) } },
      select: { id: true, leaseId: true, leaseUntil: true },
    });
    for (const row of rows) {
      if (row.id === takenOver.sessionId) {
        expect([row.leaseId, row.leaseUntil?.getTime()]).toEqual(["newer-turn", soon.getTime()]);
      } else {
        expect(row.leaseUntil?.getTime()).toBeGreaterThan(Date.now() + 50_000);
      }
    }
  });

  it("saveAnswerDrafts writes each streaming answer's own text and leaves finished answers alone", async () => {
    const app = await loadApp({});
    const { saveAnswerDrafts } = await import("./heartbeats");
    const { sessionId } = await createUserWithSession(app.db);
    await app.db.chatMessage.createMany({
      data: [
        { sessionId, seq: 1, role: "assistant", text: "", status: "streaming" },
        { sessionId, seq: 2, role: "assistant", text: "", status: "streaming" },
        { sessionId, seq: 3, role: "assistant", text: "final answer", status: "complete" },
      ],
    });
    const [a, b, done] = await app.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    const texts = ["It's a \"quoted\" 'text' — 你好 ; DROP TABLE x; --", "second\nline"];
    await saveAnswerDrafts({
      drafts: [
        { answerId: a?.id ?? "", text: texts[0] ?? "" },
        { answerId: b?.id ?? "", text: texts[1] ?? "" },
        { answerId: done?.id ?? "", text: "a late draft" },
      ],
    });
    const rows = await app.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => [r.text, r.status])).toEqual([
      [texts[0], "streaming"],
      [texts[1], "streaming"],
      ["final answer", "complete"],
    ]);
  });
});

describe("many answers streaming at once in one process", () => {
  it("keeps every lease alive and every draft saved, and stops only the answer whose lease was taken over", async () => {
    const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "80", TURN_LEASE_SECONDS: "3" });
    const n = 8;
    const turns = await Promise.all(
      Array.from({ length: n }, async () => {
        const { userId, sessionId } = await createUserWithSession(app.db);
        // Short words: the offline model's reply quotes the question, one token per word (~50 tokens, ~4 s).
        const content = `${"a b c d e f g h i j ".repeat(8)}`;
        const stream = await app.startTurn({ sessionId, userId, input: { content } });
        const taken = await app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
        return { sessionId, stream, leaseUntil: taken.leaseUntil?.getTime() ?? 0 };
      }),
    );
    const events = turns.map(() => [] as TurnEvent[]);
    const reading = turns.map(async (t, i) => {
      for await (const event of readTurnEvents(t.stream)) events[i]?.push(event);
    });
    await new Promise((r) => setTimeout(r, 2200)); // two beats
    const answers = await app.db.chatMessage.findMany({
      where: { id: { in: events.map(answerIdOf) } },
      select: { id: true, text: true, status: true },
    });
    const sessions = await app.db.chatSession.findMany({
      where: { id: { in: turns.map((t) => t.sessionId) } },
      select: { id: true, leaseUntil: true },
    });
    expect(answers).toHaveLength(n);
    for (const answer of answers) {
      expect(answer.status).toBe("streaming");
      expect(answer.text.length).toBeGreaterThan(0);
    }
    for (const t of turns) {
      const until = sessions.find((s) => s.id === t.sessionId)?.leaseUntil?.getTime() ?? 0;
      expect(until).toBeGreaterThan(t.leaseUntil);
    }

    // Another process takes the first conversation over (its lease ran out there): that answer is stopped at the
    // next beat; the others stream on and complete.
    const lost = turns[0]?.sessionId ?? "";
    await app.db.chatSession.update({
      where: { id: lost },
      data: { leaseId: "another-process", leaseUntil: new Date(Date.now() + 60_000) },
    });
    await Promise.all(reading);
    expect(events[0]?.at(-1)).toMatchObject({ type: "error", code: "turn_in_progress" });
    for (const e of events.slice(1)) expect(e.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const stored = await app.db.chatMessage.findMany({
      where: { id: { in: events.map(answerIdOf) } },
      select: { id: true, text: true, status: true },
    });
    for (const [i, e] of events.entries()) {
      const row = stored.find((r) => r.id === answerIdOf(e));
      // The answer whose lease was taken over is left to the new lease holder.
      if (i === 0) expect(row?.status).toBe("streaming");
      else expect([row?.status, row?.text]).toEqual(["complete", answerOf(e)]);
    }
  });
});
