import { afterEach, describe, expect, it } from "vitest";
import { expectConsoleError } from "@/test/console";
import {
  answerOf,
  closeApps,
  contextOf,
  createUserWithSession,
  drain,
  answerIdOf as lastAssistantId,
  loadApp,
  rowsForSession,
} from "./test-helpers";

// Configuration must really take effect: each test loads the app modules afresh with its own environment,
// exactly as a server started with those variables would, and inspects what the turn recorded.

afterEach(closeApps);

describe("memory configuration", () => {
  it("MEMORY_MAX_MESSAGES=3 sends exactly the last 3 history messages", async () => {
    // Recall off: this is the window alone (recall bringing the phrase back is tested in recall.int.test.ts).
    const { db, turn } = await loadApp({ MEMORY_MAX_MESSAGES: "3", MEMORY_RECALL: "off" });
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, "remember the phrase cobalt-9");
    await turn(sessionId, userId, "second");
    await turn(sessionId, userId, "third");
    const events = await turn(sessionId, userId, "What phrase did I ask you to remember?");
    const { entries, policy } = await contextOf(db, lastAssistantId(events));
    expect(policy).toBe("window:3");
    expect(entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([4, 5, 6]);
    // The fact fell out of the window, so the model cannot know it — but the history still has it.
    expect(answerOf(events)).not.toContain("cobalt-9");
    expect(
      await db.chatMessage.count({ where: { sessionId, role: "user", text: { contains: "cobalt-9" } } }),
    ).toBe(1);
  });

  it("MEMORY_ENABLED=false sends no history but still records every turn", async () => {
    const { db, turn } = await loadApp({ MEMORY_ENABLED: "false" });
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, "remember the phrase saffron-3");
    const events = await turn(sessionId, userId, "What phrase did I ask you to remember?");
    const { entries, policy } = await contextOf(db, lastAssistantId(events));
    expect(policy).toBe("none");
    expect(entries.map((e) => e.source)).toEqual(["system", "current"]);
    expect(answerOf(events)).not.toContain("saffron-3");
    expect(await rowsForSession(db, sessionId)).toEqual({
      ChatSession: 1,
      ChatMessage: 4,
      MemorySnapshot: 1,
      TurnContext: 2,
      MemoryFact: 0,
      Attachment: 0,
    });
  });

  it("CHAT_SYSTEM_PROMPT is the first thing sent", async () => {
    const { db, turn } = await loadApp({ CHAT_SYSTEM_PROMPT: "You are a pirate." });
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await turn(sessionId, userId, "hello");
    const { entries } = await contextOf(db, lastAssistantId(events));
    expect(entries[0]).toMatchObject({ source: "system", role: "system", preview: "You are a pirate." });
  });

  it("OPENAI_API_STYLE=responses runs the same turn through the Responses API", async () => {
    const { db, turn } = await loadApp({ OPENAI_API_STYLE: "responses" });
    const { userId, sessionId } = await createUserWithSession(db);
    expect(
      answerOf(
        await turn(sessionId, userId, "Memory check: remember the phrase 青云-4173 and reply only 'noted'"),
      ),
    ).toBe("noted");
    expect(answerOf(await turn(sessionId, userId, "What was the phrase?"))).toContain("青云-4173");
  });

  it("CHAT_MAX_INPUT_CHARS bounds a message", async () => {
    await loadApp({ CHAT_MAX_INPUT_CHARS: "10" });
    const { turnInputSchema } = await import("./schemas");
    expect(turnInputSchema.safeParse({ content: "0123456789" }).success).toBe(true);
    const tooLong = turnInputSchema.safeParse({ content: "0123456789x" });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues.some((i) => i.message.includes("at most 10 characters"))).toBe(true);
    expect(turnInputSchema.safeParse({ content: "   " }).success).toBe(false);
  });

  it("TURN_LEASE_SECONDS sets how long a turn holds its session; an expired lease is taken over", async () => {
    const { db, startTurn } = await loadApp({ TURN_LEASE_SECONDS: "7", OFFLINE_MODEL_TOKEN_DELAY_MS: "20" });
    const { userId, sessionId } = await createUserWithSession(db);
    const before = Date.now();
    const stream = await startTurn({ sessionId, userId, input: { content: "hello there" } });
    const held = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    const seconds = ((held.leaseUntil?.getTime() ?? 0) - before) / 1000;
    expect(seconds).toBeGreaterThan(6);
    expect(seconds).toBeLessThan(9);
    await drain(stream);

    // A turn whose process died: its lease expired and its answer is still marked streaming.
    await db.chatSession.update({
      where: { id: sessionId },
      data: { leaseId: "dead", leaseUntil: new Date(Date.now() - 1000), lastSeq: 4 },
    });
    await db.chatMessage.createMany({
      data: [
        { sessionId, seq: 3, role: "user", text: "orphaned question" },
        { sessionId, seq: 4, role: "assistant", text: "half an ans", status: "streaming" },
      ],
    });
    await drain(await startTurn({ sessionId, userId, input: { content: "are you there?" } }));
    const rows = await db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.status])).toEqual([
      [1, "complete"],
      [2, "complete"],
      [3, "complete"],
      [4, "interrupted"],
      [5, "complete"],
      [6, "complete"],
    ]);
  });

  it("a changed window rebuilds memory from the history tail instead of trusting the old snapshot", async () => {
    const wide = await loadApp({ MEMORY_MAX_MESSAGES: "20" });
    const { userId, sessionId } = await createUserWithSession(wide.db);
    for (const text of ["a", "b", "c"]) await wide.turn(sessionId, userId, text);
    const narrow = await loadApp({ MEMORY_MAX_MESSAGES: "2" });
    const events = await narrow.turn(sessionId, userId, "d");
    const { entries } = await contextOf(narrow.db, lastAssistantId(events));
    expect(entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([5, 6]);
    const snap = await narrow.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    expect(snap.policy).toBe("window:2");
    expect((snap.items as unknown[]).length).toBe(2);
  });

  it("a model that cannot be reached fails the turn explicitly; a retry answers without duplicating the question", async () => {
    // Port 9 (discard) on loopback refuses connections at once: no traffic leaves this machine.
    expectConsoleError(/answer failed: model_error: Could not reach the model provider/);
    const broken = await loadApp({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    const { userId, sessionId } = await createUserWithSession(broken.db);
    const failed = await broken.turn(sessionId, userId, "remember the phrase teal-5");
    expect(failed.at(-1)).toMatchObject({ type: "error", code: "model_error" });
    const failedId = lastAssistantId(failed);
    const rows = await broken.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "failed"],
    ]);

    const working = await loadApp({});
    const retried = await drain(
      await working.startTurn({ sessionId, userId, input: { retryMessageId: failedId } }),
    );
    expect(retried.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const after = await working.db.chatMessage.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(after.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    const next = await working.turn(sessionId, userId, "What phrase did I ask you to remember?");
    expect(answerOf(next)).toContain("teal-5");
  });
});

describe("deleting a session while its answer streams", () => {
  it("drops the late commit and leaves zero rows", async () => {
    const { db, startTurn } = await loadApp({ OFFLINE_MODEL_TOKEN_DELAY_MS: "30" });
    const { userId, sessionId } = await createUserWithSession(db);
    const stream = await startTurn({ sessionId, userId, input: { content: "tell me a long story please" } });
    const { readTurnEvents } = await import("./sse");
    const { unsafeDeleteSessionById } = await import("@/lib/db/sessions");
    const events = [];
    let deleted = false;
    for await (const event of readTurnEvents(stream)) {
      events.push(event);
      if (event.type === "delta" && !deleted) {
        deleted = true;
        const receipt = await unsafeDeleteSessionById({ sessionId, actorId: userId });
        expect(receipt.deleted.ChatMessage).toBe(2);
      }
    }
    expect(deleted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "error", code: "not_found" });
    expect(await rowsForSession(db, sessionId)).toEqual({
      ChatSession: 0,
      ChatMessage: 0,
      MemorySnapshot: 0,
      TurnContext: 0,
      MemoryFact: 0,
      Attachment: 0,
    });
  });
});
