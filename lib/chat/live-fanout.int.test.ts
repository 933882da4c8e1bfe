import { afterEach, describe, expect, it } from "vitest";
import { databaseKind } from "@/lib/db/client";
import type { LiveListener, LiveNotice } from "@/lib/db/live-channel";
import { readTurnEvents, type TurnEvent } from "./sse";
import { closeApps, createUserWithSession, drain, loadApp } from "./test-helpers";

// The live fan-out across instances (decision 033): the instance writing an answer NOTIFYs its text; a follower on
// another instance — here a listener with its own PostgreSQL connection, driving the route's remote path — gets
// all of it, in order, and its end; a Stop made there still stops the answer. On SQLite nothing is announced.

const kind = databaseKind(process.env.DATABASE_URL ?? "");
const listeners: LiveListener[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  await closeApps();
});

async function setup() {
  const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "30" });
  const live = await import("./live");
  const channel = await import("@/lib/db/live-channel");
  const { userId, sessionId } = await createUserWithSession(app.db);
  return { app, live, channel, userId, sessionId };
}

/** Another instance's listener: its own connection, already listening. */
async function otherInstance(channel: typeof import("@/lib/db/live-channel")) {
  const listener = channel.createLiveListener(process.env.DATABASE_URL as string);
  listeners.push(listener);
  listener.subscribe("warm-up", () => {});
  for (let i = 0; !listener.listening; i++) {
    if (i > 100) throw new Error("the listener never listened");
    await new Promise((r) => setTimeout(r, 20));
  }
  return listener;
}

/** Starts a turn; returns the answer's id (from meta) and the rest of its events. */
async function begin(s: Awaited<ReturnType<typeof setup>>, content: string) {
  const body = await s.app.startTurn({ sessionId: s.sessionId, userId: s.userId, input: { content } });
  const events = readTurnEvents(body)[Symbol.asyncIterator]();
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error("the turn ended before its meta");
    if (value.type === "meta") return { messageId: value.assistantMessage.id, events };
  }
}

const deltas = (events: TurnEvent[]) => events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("");

describe.runIf(kind === "postgresql")("live fan-out across instances (PostgreSQL LISTEN/NOTIFY)", () => {
  it("another instance's listener gets the whole text in order, then the end", async () => {
    const s = await setup();
    const listener = await otherInstance(s.channel);
    const { messageId, events } = await begin(s, "Tell me a story about the sea and the ships");
    const notices: LiveNotice[] = [];
    const ended = new Promise<void>((resolve) =>
      listener.subscribe(messageId, (n) => {
        notices.push(n);
        if ("end" in n) resolve();
      }),
    );
    while (!(await events.next()).done);
    await ended;
    const row = await s.app.db.chatMessage.findUniqueOrThrow({ where: { id: messageId } });
    expect(row.status).toBe("complete");
    expect(notices.at(-1)).toEqual({ a: messageId, end: true });
    const pieces = notices.slice(0, -1).map((n) => n as { o: number; t: string });
    expect(pieces.length).toBeGreaterThan(1);
    let offset = 0;
    for (const piece of pieces) {
      expect(piece.o).toBe(offset);
      offset += piece.t.length;
    }
    expect(pieces.map((p) => p.t).join("")).toBe(row.text);
  });

  it("a follower on another instance streams the answer from the channel and ends with what is stored", async () => {
    const s = await setup();
    const listener = await otherInstance(s.channel);
    const { messageId } = await begin(s, "Tell me a story about a lighthouse keeper");
    const args = { sessionId: s.sessionId, messageId, userId: s.userId };
    const first = await s.live.storedAnswer(args);
    const got = await drain(s.live.followStored(args, first, listener));
    const row = await s.app.db.chatMessage.findUniqueOrThrow({ where: { id: messageId } });
    expect(got.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(deltas(got)).toBe(row.text);
    // Growth came from the channel, in many small deltas, not from the once-a-second draft alone.
    expect(got.filter((e) => e.type === "delta").length).toBeGreaterThan(3);
  });

  it("a Stop made on the follower's instance still stops the answer; the follower ends interrupted", async () => {
    const s = await setup();
    const listener = await otherInstance(s.channel);
    const { messageId } = await begin(
      s,
      "Tell me a long story about a lighthouse keeper, the sea and the storms",
    );
    const args = { sessionId: s.sessionId, messageId, userId: s.userId };
    const followed = drain(s.live.followStored(args, await s.live.storedAnswer(args), listener));
    await new Promise((r) => setTimeout(r, 300));
    const { requestAnswerStop } = await import("@/lib/db/live-answers");
    expect(await requestAnswerStop(args)).toBe(true);
    const got = await followed;
    const row = await s.app.db.chatMessage.findUniqueOrThrow({ where: { id: messageId } });
    expect(row.status).toBe("interrupted");
    expect(got.at(-1)).toMatchObject({ type: "done", status: "interrupted" });
    expect(deltas(got)).toBe(row.text);
  });

  it("a long piece is cut into payloads PostgreSQL accepts, in order", async () => {
    const { channel } = await setup();
    const text = `${"é".repeat(5000)}${"😀".repeat(3000)}`;
    const notices = channel.textNotices("a1", 10, text);
    expect(notices.length).toBeGreaterThan(2);
    for (const n of notices) expect(Buffer.byteLength(JSON.stringify(n))).toBeLessThan(8000);
    expect(notices.map((n) => ("t" in n ? n.t : "")).join("")).toBe(text);
    const listener = await otherInstance(channel);
    const got: LiveNotice[] = [];
    const all = new Promise<void>((resolve) =>
      listener.subscribe("a1", (n) => {
        got.push(n);
        if (got.length === notices.length) resolve();
      }),
    );
    await channel.notifyLive(notices);
    await all;
    expect(got).toEqual(notices);
  });
});

describe.runIf(kind === "sqlite")("live fan-out on SQLite", () => {
  it("announces nothing and has no listener: followers on other instances read the stored draft", async () => {
    const { channel } = await setup();
    const { livePublisher } = await import("./live-fanout");
    expect(channel.liveListener()).toBeNull();
    expect(livePublisher("any")).toBeNull();
  });
});
