import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { readTurnEvents, type TurnEvent } from "./sse";
import { answerOf, closeApps, createUserWithSession, drain, loadApp } from "./test-helpers";

// Answers that keep going (decision 033), against the real database of this run and the offline model, slowed
// down so an answer is still being written while the tests leave, come back and stop it.

afterEach(closeApps);

const QUESTION = "Tell me a long story about a lighthouse keeper and the sea";

async function slowApp(delayMs = 40) {
  const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: String(delayMs) });
  const live = await import("./live");
  return { ...app, live };
}

/** Starts a turn and reads it up to its first delta; returns the answer's id and the reader of the rest. */
async function begin(app: Awaited<ReturnType<typeof slowApp>>, sessionId: string, userId: string) {
  const body = await app.startTurn({ sessionId, userId, input: { content: QUESTION } });
  const events = readTurnEvents(body)[Symbol.asyncIterator]();
  let messageId = "";
  const seen: TurnEvent[] = [];
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error("the turn ended before its first delta");
    seen.push(value);
    if (value.type === "meta") messageId = value.assistantMessage.id;
    if (value.type === "delta") break;
  }
  return { messageId, body, seen, events };
}

async function settled(db: Db, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.chatMessage.findUniqueOrThrow({ where: { id } });
    if (row.status !== "streaming") return row;
    if (Date.now() > deadline) throw new Error("the answer never ended");
    await sleep(100);
  }
}

describe("answers that keep going", () => {
  it("a client that goes away does not stop the answer: it completes and is stored", async () => {
    const app = await slowApp();
    const { userId, sessionId } = await createUserWithSession(app.db);
    const { messageId, events } = await begin(app, sessionId, userId);
    await events.return?.(undefined);
    const row = await settled(app.db, messageId);
    expect(row.status).toBe("complete");
    expect(row.text).toContain(`Offline model reply to: "${QUESTION}"`);
  });

  it("an answer nobody follows from its start is still finished and stored", async () => {
    const app = await slowApp(5);
    const { userId, sessionId } = await createUserWithSession(app.db);
    const body = await app.startTurn({ sessionId, userId, input: { content: QUESTION } });
    await body.cancel();
    await sleep(200);
    const answer = await app.db.chatMessage.findFirstOrThrow({ where: { sessionId, role: "assistant" } });
    const row = await settled(app.db, answer.id);
    expect(row.status).toBe("complete");
    expect(row.text).toContain("Offline model reply to");
  });

  it("resume gives the text so far, the rest live and done; it equals what is stored", async () => {
    const app = await slowApp();
    const { userId, sessionId } = await createUserWithSession(app.db);
    const { messageId, events } = await begin(app, sessionId, userId);
    await events.return?.(undefined);
    await sleep(300);
    const resumed = await drain(await app.live.resumeAnswer({ sessionId, messageId, userId }));
    expect(resumed[0]?.type).toBe("meta");
    expect(resumed.filter((e) => e.type === "delta").length).toBeGreaterThan(1);
    expect(resumed.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const row = await settled(app.db, messageId);
    expect(answerOf(resumed)).toBe(row.text);
  });

  it("resume of a finished answer sends its stored text and done at once", async () => {
    const app = await slowApp(0);
    const { userId, sessionId } = await createUserWithSession(app.db);
    const first = await drain(await app.startTurn({ sessionId, userId, input: { content: "hello there" } }));
    const meta = first.find((e) => e.type === "meta");
    if (meta?.type !== "meta") throw new Error("no meta");
    const messageId = meta.assistantMessage.id;
    const started = Date.now();
    const resumed = await drain(await app.live.resumeAnswer({ sessionId, messageId, userId }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(resumed.map((e) => e.type)).toEqual(["delta", "done"]);
    expect(answerOf(resumed)).toBe(answerOf(first));
    expect(resumed.at(-1)).toMatchObject({ type: "done", status: "complete" });
  });

  it("stop stops the answer and stores it interrupted; stopping again is a 200 that changes nothing", async () => {
    const app = await slowApp();
    const { userId, sessionId } = await createUserWithSession(app.db);
    const { messageId, events } = await begin(app, sessionId, userId);
    const follower = drain(await app.live.resumeAnswer({ sessionId, messageId, userId }));
    expect(await app.live.stopAnswer({ sessionId, messageId, userId })).toMatchObject({
      id: messageId,
      stopping: true,
    });
    const rest: TurnEvent[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ type: "done", status: "interrupted" });
    expect((await follower).at(-1)).toMatchObject({ type: "done", status: "interrupted" });
    const row = await settled(app.db, messageId);
    expect(row.status).toBe("interrupted");
    expect(row.text.length).toBeGreaterThan(0);
    expect(row.text.length).toBeLessThan(`Offline model reply to: "${QUESTION}"`.length + 200);
    expect(await app.live.stopAnswer({ sessionId, messageId, userId })).toEqual({
      id: messageId,
      stopping: false,
      status: "interrupted",
    });
  });

  it("another user's answer is not found (404) for stop and resume, and keeps going", async () => {
    const app = await slowApp();
    const { userId, sessionId } = await createUserWithSession(app.db);
    const other = await createUserWithSession(app.db);
    const { messageId, events } = await begin(app, sessionId, userId);
    for (const as of [
      { sessionId, userId: other.userId },
      { sessionId: other.sessionId, userId: other.userId },
    ]) {
      await expect(app.live.stopAnswer({ ...as, messageId })).rejects.toMatchObject({ code: "not_found" });
      await expect(app.live.resumeAnswer({ ...as, messageId })).rejects.toMatchObject({ code: "not_found" });
    }
    await events.return?.(undefined);
    expect((await settled(app.db, messageId)).status).toBe("complete");
  });

  it("a stop requested through the database (another instance's Stop) stops the answer running here", async () => {
    const app = await slowApp();
    const { userId, sessionId } = await createUserWithSession(app.db);
    const { messageId, events } = await begin(app, sessionId, userId);
    await events.return?.(undefined);
    const { requestAnswerStop } = await import("@/lib/db/live-answers");
    expect(await requestAnswerStop({ sessionId, messageId, userId })).toBe(true);
    const row = await settled(app.db, messageId, 5_000);
    expect(row.status).toBe("interrupted");
  });

  it("without the live channel (SQLite, no LISTEN) follows an answer written elsewhere from its stored draft", async () => {
    const app = await slowApp(0);
    const { userId, sessionId } = await createUserWithSession(app.db);
    await app.db.chatSession.update({
      where: { id: sessionId },
      data: { leaseId: "elsewhere", leaseUntil: new Date(Date.now() + 60_000), lastSeq: 2 },
    });
    const question = await app.db.chatMessage.create({
      data: { sessionId, seq: 1, role: "user", text: "q" },
    });
    const answer = await app.db.chatMessage.create({
      data: {
        sessionId,
        seq: 2,
        parentId: question.id,
        role: "assistant",
        text: "Once",
        status: "streaming",
      },
    });
    const args = { sessionId, messageId: answer.id, userId };
    const events = drain(app.live.followStored(args, await app.live.storedAnswer(args), null));
    await sleep(400);
    await app.db.chatMessage.update({ where: { id: answer.id }, data: { text: "Once upon" } });
    await sleep(400);
    await app.db.chatMessage.update({
      where: { id: answer.id },
      data: { text: "Once upon a time.", status: "complete" },
    });
    const got = await events;
    expect(got.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : ""))).toEqual([
      "Once",
      " upon",
      " a time.",
    ]);
    expect(got.at(-1)).toMatchObject({ type: "done", status: "complete" });
  });
});
