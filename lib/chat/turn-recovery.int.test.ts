import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { expectConsoleError, expectConsoleWarn } from "@/test/console";
import { readTurnEvents, type TurnEvent } from "./sse";
import {
  answerIdOf,
  answerOf,
  closeApps,
  contextOf,
  createUserWithSession,
  drain,
  loadApp,
} from "./test-helpers";

// What a turn does when things go wrong — a hung or cut-off model, a lost lease, a database that fails at commit
// time — against the real database of this run (SQLite or PostgreSQL) and the offline model or a real HTTP
// provider on loopback. Nothing is mocked.

afterEach(closeApps);

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.close(r);
          // Kept-alive and hung connections would otherwise hold close() for the keep-alive timeout.
          s.closeAllConnections();
        }),
    ),
  );
});

/**
 * An OpenAI-compatible provider on 127.0.0.1 that answers every chat request with `frames`, then ends — or, with
 * `frames` null, accepts the request and never answers.
 */
async function provider(frames: string[] | null): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (!frames) return;
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const frame of frames) res.write(frame);
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  })}\n\n`;

const historySeqs = (entries: { source: string; seq?: number }[]) =>
  entries.filter((e) => e.source === "history").map((e) => e.seq);

describe("model timeouts and honest outcomes", () => {
  it("a model that never starts answering times out into `failed` with a clear message", async () => {
    expectConsoleError(/model_timeout: The model did not start answering/);
    const hung = await provider(null);
    const app = await loadApp({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: hung,
      MODEL_FIRST_BYTE_TIMEOUT_MS: "300",
    });
    const { userId, sessionId } = await createUserWithSession(app.db);
    const started = Date.now();
    const events = await app.turn(sessionId, userId, "hello?");
    expect(Date.now() - started).toBeLessThan(10_000); // 300 ms plus a loaded machine, not the SDK's 600 s
    expect(events.at(-1)).toMatchObject({ type: "error", code: "model_timeout" });
    const answer = await app.db.chatMessage.findUniqueOrThrow({ where: { id: answerIdOf(events) } });
    expect(answer.status).toBe("failed");
    const session = await app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.leaseId).toBeNull();
  });

  it("a model that falls silent mid-answer fails with the text it had sent", async () => {
    expectConsoleError(/model_timeout: The model stopped answering/);
    const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "5000", MODEL_IDLE_TIMEOUT_MS: "300" });
    const { userId, sessionId } = await createUserWithSession(app.db);
    const events = await app.turn(sessionId, userId, "tell me a long story please");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "model_timeout" });
    const streamed = answerOf(events);
    expect(streamed.length).toBeGreaterThan(0);
    const answer = await app.db.chatMessage.findUniqueOrThrow({ where: { id: answerIdOf(events) } });
    expect([answer.status, answer.text]).toEqual(["failed", streamed]);
  });

  it("a stream cut off before its finish_reason is `failed`, keeps its text and stays out of memory", async () => {
    expectConsoleError(/model_error: The model stream ended before the reply was complete/);
    const cut = await provider([chunk("The capital is "), chunk("Par")]);
    const broken = await loadApp({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: cut });
    const { userId, sessionId } = await createUserWithSession(broken.db);
    const events = await broken.turn(sessionId, userId, "What is the capital of France?");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "model_error" });
    const answer = await broken.db.chatMessage.findUniqueOrThrow({ where: { id: answerIdOf(events) } });
    expect([answer.status, answer.text]).toEqual(["failed", "The capital is Par"]);

    const working = await loadApp({});
    const next = await working.turn(sessionId, userId, "and of Spain?");
    const { entries } = await contextOf(working.db, answerIdOf(next));
    expect(historySeqs(entries)).toEqual([1]);
    expect(entries.some((e) => e.preview.includes("The capital is Par"))).toBe(false);
  });
});

describe("retry", () => {
  it("sends the full window of history before the retried question", async () => {
    expectConsoleError(/answer failed: model_error/);
    const window = 20;
    const working = await loadApp({ MEMORY_MAX_MESSAGES: String(window) });
    const { userId, sessionId } = await createUserWithSession(working.db);
    for (let i = 0; i < 12; i++) await working.turn(sessionId, userId, `filler ${i}`);

    const broken = await loadApp({
      MEMORY_MAX_MESSAGES: String(window),
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    });
    const failed = await broken.turn(sessionId, userId, "the question that failed");
    const failedId = answerIdOf(failed);

    const again = await loadApp({ MEMORY_MAX_MESSAGES: String(window) });
    const retried = await drain(
      await again.startTurn({ sessionId, userId, input: { retryMessageId: failedId } }),
    );
    expect(retried.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const { entries } = await contextOf(again.db, failedId);
    expect(historySeqs(entries)).toEqual(Array.from({ length: window }, (_, i) => i + 5));
    expect(entries.filter((e) => e.source === "current").map((e) => e.seq)).toEqual([25]);

    // The next ordinary turn still sees a full window, with the retried pair in it.
    const next = await again.turn(sessionId, userId, "after the retry");
    const after = await contextOf(again.db, answerIdOf(next));
    expect(historySeqs(after.entries)).toEqual(Array.from({ length: window }, (_, i) => i + 7));
  });
});

describe("concurrent turns", () => {
  it("a turn started while another holds the lease is refused with turn_in_progress; nothing is duplicated", async () => {
    // The first answer is held back by the model, so the second request certainly meets a held lease.
    const app = await loadApp({ OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: "1500" });
    const { userId, sessionId } = await createUserWithSession(app.db);
    const first = await app.startTurn({ sessionId, userId, input: { content: "first" } });
    await expect(app.startTurn({ sessionId, userId, input: { content: "second" } })).rejects.toMatchObject({
      code: "turn_in_progress",
      status: 409,
    });
    await drain(first);
    const rows = await app.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.role, m.text === "first" || m.role === "assistant"])).toEqual([
      [1, "user", true],
      [2, "assistant", true],
    ]);
    await app.turn(sessionId, userId, "third");
    expect(await app.db.chatMessage.count({ where: { sessionId } })).toBe(4);
  });
});

describe("leases that heal", () => {
  it("renews the lease and saves the partial answer about every second while streaming", async () => {
    const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "400", TURN_LEASE_SECONDS: "3" });
    const { userId, sessionId } = await createUserWithSession(app.db);
    const stream = await app.startTurn({
      sessionId,
      userId,
      input: { content: "tell me a long story please" },
    });
    const taken = await app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    const events: TurnEvent[] = [];
    let sampled: { text: string; status: string; leaseUntil: Date | null } | undefined;
    const started = Date.now();
    for await (const event of readTurnEvents(stream)) {
      events.push(event);
      if (!sampled && Date.now() - started > 2300) {
        const [answer, session] = await Promise.all([
          app.db.chatMessage.findUniqueOrThrow({ where: { id: answerIdOf(events) } }),
          app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } }),
        ]);
        sampled = { text: answer.text, status: answer.status, leaseUntil: session.leaseUntil };
      }
    }
    if (!sampled) throw new Error("the answer finished before it could be sampled; make it slower");
    expect(sampled.status).toBe("streaming");
    expect(sampled.text.length).toBeGreaterThan(0);
    expect(answerOf(events).startsWith(sampled.text)).toBe(true);
    expect(sampled.leaseUntil?.getTime()).toBeGreaterThan(taken.leaseUntil?.getTime() ?? Infinity);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
  });

  it("a late commit after a lease takeover changes nothing: no status flip, no snapshot moved back", async () => {
    const slow = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "60", TURN_LEASE_SECONDS: "3" });
    const { userId, sessionId } = await createUserWithSession(slow.db);
    const stale = await slow.startTurn({
      sessionId,
      userId,
      input: { content: "tell me a long story please" },
    });
    const staleEvents: TurnEvent[] = [];
    const reader = readTurnEvents(stale);
    while (!staleEvents.some((e) => e.type === "delta")) {
      const { value, done } = await reader.next();
      if (done) throw new Error("the stale turn ended before its first delta");
      staleEvents.push(value);
    }
    // The stale turn's process stalls: its lease runs out and a newer turn takes the conversation over. (The
    // expired lease is given an id the stale turn does not hold, so its heartbeat cannot renew it in between.)
    const fresh = await loadApp({});
    await slow.db.chatSession.update({
      where: { id: sessionId },
      data: { leaseId: "stalled", leaseUntil: new Date(Date.now() - 1000) },
    });
    const newer = await fresh.turn(sessionId, userId, "are you there?");
    expect(newer.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const before = await fresh.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    expect(before.throughSeq).toBe(4);

    for await (const event of reader) staleEvents.push(event);
    expect(staleEvents.at(-1)).toMatchObject({ type: "error" });

    const rows = await fresh.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.status])).toEqual([
      [1, "complete"],
      [2, "interrupted"],
      [3, "complete"],
      [4, "complete"],
    ]);
    expect(rows[1]?.text.length).toBeGreaterThan(0);
    const after = await fresh.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    expect([after.throughSeq, after.version]).toEqual([before.throughSeq, before.version]);
    const session = await fresh.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect([session.lastSeq, session.leaseId]).toEqual([4, null]);
  });

  it("a streaming answer whose lease ran out reads as interrupted with its saved text", async () => {
    const app = await loadApp({});
    const { getMessagesBySessionId } = await import("@/lib/db/sessions");
    const { userId, sessionId } = await createUserWithSession(app.db);
    await app.db.chatSession.update({
      where: { id: sessionId },
      data: { lastSeq: 2, leaseId: "crashed", leaseUntil: new Date(Date.now() + 60_000) },
    });
    await app.db.chatMessage.createMany({
      data: [
        { sessionId, seq: 1, role: "user", text: "question" },
        { sessionId, seq: 2, role: "assistant", text: "what the user saw", status: "streaming" },
      ],
    });
    let { messages } = await getMessagesBySessionId({ sessionId, limit: 10 });
    expect(messages.at(-1)?.status).toBe("streaming");

    await app.db.chatSession.update({
      where: { id: sessionId },
      data: { leaseUntil: new Date(Date.now() - 1) },
    });
    ({ messages } = await getMessagesBySessionId({ sessionId, limit: 10 }));
    expect(messages.at(-1)).toMatchObject({ status: "interrupted", text: "what the user saw" });

    // And it can be retried right away: the retry takes the dead lease over.
    const answerId = messages.at(-1)?.id ?? "";
    const retried = await drain(
      await app.startTurn({ sessionId, userId, input: { retryMessageId: answerId } }),
    );
    expect(retried.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const rows = await app.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.status])).toEqual([
      [1, "complete"],
      [2, "complete"],
    ]);
  });
});

describe("storage failures at commit time", () => {
  it("retries the commit; the answer is stored once the database answers again", async () => {
    expectConsoleWarn(/commit in session .* failed, retrying/);
    const app = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "5" });
    const { userId, sessionId } = await createUserWithSession(app.db);
    await app.turn(sessionId, userId, "first");
    const sqlite =
      (await import("@/lib/db/client")).databaseKind(process.env.DATABASE_URL ?? "") === "sqlite";
    const table = sqlite ? "MemorySnapshot" : '"MemorySnapshot"';
    const hidden = sqlite ? "MemorySnapshotAway" : '"MemorySnapshotAway"';
    const stream = await app.startTurn({ sessionId, userId, input: { content: "second question here" } });
    const events: TurnEvent[] = [];
    let restore: Promise<void> | undefined;
    for await (const event of readTurnEvents(stream)) {
      events.push(event);
      if (event.type === "meta") {
        // The snapshot table disappears while the answer streams and comes back 1.5 s later.
        await app.db.$executeRawUnsafe(`ALTER TABLE ${table} RENAME TO ${hidden}`);
        restore = new Promise((r) => setTimeout(r, 1500)).then(async () => {
          await app.db.$executeRawUnsafe(`ALTER TABLE ${hidden} RENAME TO ${table}`);
        });
      }
    }
    await restore;
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const answer = await app.db.chatMessage.findUniqueOrThrow({ where: { id: answerIdOf(events) } });
    expect([answer.status, answer.text]).toEqual(["complete", answerOf(events)]);
    const snap = await app.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    expect(snap.throughSeq).toBe(4);
    const session = await app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.leaseId).toBeNull();
  });
});
