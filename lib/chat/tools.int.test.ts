import { afterEach, describe, expect, it } from "vitest";
import { type Db, databaseKind } from "@/lib/db/client";
import { rowsReferring, zeroEverywhere } from "@/lib/db/test-rows";
import { parseListing } from "@/lib/llm/scripted-listing";
import { expectConsoleWarn } from "@/test/console";
import type { TurnEvent } from "./sse";
import { answerIdOf, answerOf, closeApps, contextOf, createUserWithSession, loadApp } from "./test-helpers";

// Tools and long-term memory in the turn, against the real database of this run and an offline model:
// the tool loop's rows, facts with their source, supersession, deletion, the switch, failures and the step limit.

afterEach(closeApps);

const toolEvents = (events: TurnEvent[]) =>
  events.filter((e) => e.type === "tool_call" || e.type === "tool_result");
const doneOf = (events: TurnEvent[]) => events.at(-1);

async function newSession(db: Db, userId: string) {
  return (await db.chatSession.create({ data: { userId, title: "another" } })).id;
}

async function history(db: Db, sessionId: string) {
  return db.chatMessage.findMany({
    where: { sessionId },
    orderBy: { seq: "asc" },
    select: { id: true, seq: true, role: true, text: true, parts: true, toolCallId: true, status: true },
  });
}

describe.each(["chat", "responses"] as const)("tools with OPENAI_API_STYLE=%s", (style) => {
  it("remember stores the call and result pair with ids in history and snapshot, and the fact with its source", async () => {
    const { db, turn } = await loadApp({ OPENAI_API_STYLE: style });
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await turn(sessionId, userId, "Remember that my favourite colour is teal");
    expect(doneOf(events)).toMatchObject({ type: "done", status: "complete" });
    const [call, result] = toolEvents(events);
    expect(call).toMatchObject({ type: "tool_call", name: "remember" });
    expect(result).toMatchObject({ type: "tool_result", name: "remember", ok: true });
    expect(call?.type === "tool_call" && JSON.parse(call.arguments)).toEqual({
      fact: "My favourite colour is teal",
    });
    expect(answerOf(events)).toContain("I'll remember: My favourite colour is teal");

    const rows = await history(db, sessionId);
    expect(rows.map((r) => [r.seq, r.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
      [3, "tool"],
      [4, "assistant"],
    ]);
    const callId = call?.type === "tool_call" ? call.id : "";
    expect(rows[1]?.parts).toEqual({
      toolCalls: [{ id: callId, name: "remember", arguments: expect.any(String) }],
    });
    expect(rows[2]?.toolCallId).toBe(callId);
    // The answer kept the id the stream announced, and moved after the step.
    expect(rows[3]?.id).toBe(answerIdOf(events));
    expect(rows[3]?.status).toBe("complete");
    const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.lastSeq).toBe(4);

    const snapshot = await db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const items = snapshot.items as {
      role: string;
      seq: number;
      toolCalls?: { id: string }[];
      toolCallId?: string;
    }[];
    expect(items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
    expect(items[1]?.toolCalls?.[0]?.id).toBe(callId);
    expect(items[2]?.toolCallId).toBe(callId);
    expect(snapshot.throughSeq).toBe(4);

    const facts = await db.memoryFact.findMany({ where: { userId } });
    expect(facts).toEqual([
      expect.objectContaining({
        text: "My favourite colour is teal",
        subject: "favourite colour",
        sourceSessionId: sessionId,
        sourceMessageId: rows[0]?.id,
        supersededById: null,
      }),
    ]);

    // The recorded context is what the last model call was sent: the question, then the step.
    const { entries } = await contextOf(db, answerIdOf(events));
    expect(entries.map((e) => [e.source, e.seq ?? null])).toEqual([
      ["system", null],
      ["current", 1],
      ["tool", 2],
      ["tool", 3],
    ]);

    // The next turn in the same conversation sees the pair in memory and still completes.
    const next = await turn(sessionId, userId, "hello again");
    expect(doneOf(next)).toMatchObject({ type: "done", status: "complete" });
    const nextEntries = (await contextOf(db, answerIdOf(next))).entries;
    expect(nextEntries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });
});

// What reaches the model is read from the scripted model's listing of what it received (docs/decisions/022), and
// facts are remembered and forgotten by the `/tool` calls a test scripts: these assertions hold whatever a model
// would make of the section.
const SCRIPTED = { OFFLINE_MODEL: "scripted" };
const remember = (fact: string) => `/tool remember ${JSON.stringify({ fact })}`;
const ASK = "What is my favourite colour?";

/** The lines of the long-term section the model was sent for this answer; [] when it was sent none. */
function longTermSent(events: TurnEvent[]): string[] {
  const listing = parseListing(answerOf(events));
  expect(listing, `the answer is the scripted model's listing:\n${answerOf(events)}`).not.toBeNull();
  const section = listing?.entries.find((e) => e.section === "Long-term memory");
  return section ? section.text.split(" ⏎ ").slice(1) : [];
}

describe("long-term memory across conversations", () => {
  it("recalls in another conversation with the fact's source, follows an update, and forgets with the conversation", async () => {
    const { db, turn } = await loadApp(SCRIPTED);
    const { userId, sessionId: a } = await createUserWithSession(db);
    await turn(a, userId, remember("My favourite colour is teal"));
    const source = (await history(db, a))[0];

    const b = await newSession(db, userId);
    const recall = await turn(b, userId, ASK);
    const fact = await db.memoryFact.findFirstOrThrow({ where: { userId } });
    expect(longTermSent(recall)).toEqual([`- [${fact.id}] My favourite colour is teal`]);
    expect(toolEvents(recall)).toEqual([]);
    const entries = (await contextOf(db, answerIdOf(recall))).entries as (Awaited<
      ReturnType<typeof contextOf>
    >["entries"][number] & { facts?: unknown })[];
    expect(entries.map((e) => e.source)).toEqual(["system", "fact", "current"]);
    expect(entries[1]?.facts).toEqual([{ id: fact.id, sourceSessionId: a, sourceMessageId: source?.id }]);
    expect(entries[1]?.preview).toMatch(/^Long-term memory/);

    // A fact on the same subject updates it: the old one is superseded, not deleted, and no longer sent.
    const update = await turn(a, userId, remember("My favourite colour is amber"));
    expect(toolEvents(update).map((e) => e.type === "tool_result" && e.ok)).toEqual([false, true]);
    const all = await db.memoryFact.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
    expect(all.map((f) => [f.text, f.supersededById === null])).toEqual([
      ["My favourite colour is teal", false],
      ["My favourite colour is amber", true],
    ]);
    expect(all[0]?.supersededById).toBe(all[1]?.id);
    expect(longTermSent(await turn(b, userId, ASK))).toEqual([
      `- [${all[1]?.id}] My favourite colour is amber`,
    ]);

    // Deleting A deletes what was learned there; no later turn anywhere is sent it.
    const { unsafeDeleteSessionById } = await import("@/lib/db/sessions");
    const receipt = await unsafeDeleteSessionById({ sessionId: a, actorId: userId });
    expect(receipt.deleted.MemoryFact).toBe(2);
    const c = await newSession(db, userId);
    const after = await turn(c, userId, ASK);
    expect(longTermSent(after)).toEqual([]);
    expect(answerOf(after)).not.toMatch(/teal|amber/);
    expect((await contextOf(db, answerIdOf(after))).entries.map((e) => e.source)).toEqual([
      "system",
      "current",
    ]);
    expect(await db.memoryFact.count({ where: { userId } })).toBe(0);
    // Nothing of A is left but the provenance ids in B's recorded contexts (they say where a fact came from; the
    // section's preview is its preamble, so no fact text is kept there).
    const url = process.env.DATABASE_URL as string;
    const left = await rowsReferring(db, url, [a]);
    expect(left).toEqual({ ...zeroEverywhere(left), TurnContext: 2 });
    const recorded = await db.turnContext.findMany({ where: { sessionId: b } });
    const factEntries = recorded.flatMap((r) =>
      (r.entries as { source: string }[]).filter((e) => e.source === "fact"),
    );
    expect(factEntries).toHaveLength(2);
    expect(JSON.stringify(factEntries)).not.toMatch(/teal|amber/);
  });

  it("never crosses users, and deleting a user deletes their facts", async () => {
    const { db, turn } = await loadApp(SCRIPTED);
    const alice = await createUserWithSession(db);
    const bob = await createUserWithSession(db);
    await turn(alice.sessionId, alice.userId, remember("My favourite colour is teal"));
    const fact = await db.memoryFact.findFirstOrThrow({ where: { userId: alice.userId } });

    const asked = await turn(bob.sessionId, bob.userId, ASK);
    expect(longTermSent(asked)).toEqual([]);
    expect(answerOf(asked)).not.toContain("teal");
    // Bob's forget names Alice's fact id: nothing of hers is touched.
    const forget = await turn(
      bob.sessionId,
      bob.userId,
      `/tool forget ${JSON.stringify({ memory: fact.id })}`,
    );
    expect(toolEvents(forget)[1]).toMatchObject({ ok: true, result: JSON.stringify({ forgotten: [] }) });
    expect(await db.memoryFact.count({ where: { id: fact.id } })).toBe(1);

    const { deleteUserForAdmin } = await import("@/lib/db/admin-users");
    const admin = await db.user.create({
      data: { email: `admin-${fact.id}@example.test`, name: "A", passwordHash: "x", role: "ADMIN" },
    });
    const receipt = await deleteUserForAdmin({ actorId: admin.id, userId: alice.userId });
    expect(receipt.deleted.MemoryFact).toBe(1);
    expect(await db.memoryFact.count({ where: { userId: alice.userId } })).toBe(0);
  });

  it("forget deletes a fact by description, with the facts it had replaced", async () => {
    const { db, turn } = await loadApp(SCRIPTED);
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, remember("My favourite colour is teal"));
    await turn(sessionId, userId, remember("My favourite colour is amber"));
    await turn(sessionId, userId, remember("My dog is called Rex"));
    expect(await db.memoryFact.count({ where: { userId } })).toBe(3);
    const forget = await turn(sessionId, userId, `/tool forget {"memory":"my favourite colour"}`);
    expect(JSON.parse(answerOf(forget).replace(/^forget → /, ""))).toMatchObject({
      forgotten: [{ text: "My favourite colour is amber" }],
    });
    const left = await db.memoryFact.findMany({ where: { userId } });
    expect(left.map((f) => f.text)).toEqual(["My dog is called Rex"]);
  });

  it("switched off for the user: nothing is injected and the memory tools are not offered", async () => {
    const { db, turn } = await loadApp(SCRIPTED);
    const { userId, sessionId } = await createUserWithSession(db);
    await turn(sessionId, userId, remember("My favourite colour is teal"));
    await db.user.update({ where: { id: userId }, data: { longTermMemory: false } });

    const b = await newSession(db, userId);
    const recall = await turn(b, userId, ASK);
    expect(longTermSent(recall)).toEqual([]);
    expect(parseListing(answerOf(recall))?.tools).not.toContain("remember");
    expect((await contextOf(db, answerIdOf(recall))).entries.map((e) => e.source)).toEqual([
      "system",
      "current",
    ]);
    const again = await turn(b, userId, remember("My favourite food is ramen"));
    expect(toolEvents(again)).toEqual([]);
    expect(answerOf(again)).toMatch(/^\/tool: remember is not offered/);
    expect(await db.memoryFact.count({ where: { userId } })).toBe(1);
  });

  it("LONG_TERM_MEMORY=false switches it off for everyone", async () => {
    const { db, turn } = await loadApp({ ...SCRIPTED, LONG_TERM_MEMORY: "false" });
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await turn(sessionId, userId, remember("My favourite colour is teal"));
    expect(toolEvents(events)).toEqual([]);
    expect(answerOf(events)).toMatch(/^\/tool: remember is not offered/);
    expect(await db.memoryFact.count({ where: { userId } })).toBe(0);
  });

  it("LONG_TERM_MEMORY_MAX_TOKENS keeps the most relevant facts when not all fit", async () => {
    const { db, turn } = await loadApp({ ...SCRIPTED, LONG_TERM_MEMORY_MAX_TOKENS: "80" });
    const { userId, sessionId } = await createUserWithSession(db);
    const question = (await history(db, sessionId))[0];
    expect(question).toBeUndefined();
    await turn(sessionId, userId, "hello");
    const source = (await history(db, sessionId))[0];
    await db.memoryFact.createMany({
      data: [
        ...Array.from({ length: 30 }, (_, i) => ({
          userId,
          text: `Note ${i} about gardening and tomatoes`,
          sourceSessionId: sessionId,
          sourceMessageId: source?.id as string,
        })),
        {
          userId,
          text: "My favourite colour is teal",
          sourceSessionId: sessionId,
          sourceMessageId: source?.id as string,
          updatedAt: new Date(Date.now() - 86_400_000),
        },
      ],
    });
    const events = await turn(sessionId, userId, ASK);
    const sent = longTermSent(events);
    expect(sent.some((line) => line.endsWith("] My favourite colour is teal"))).toBe(true);
    expect(sent.length).toBeLessThan(31);
    const entry = (await contextOf(db, answerIdOf(events))).entries.find((e) => e.source === "fact") as
      | { tokens: number; facts: unknown[] }
      | undefined;
    expect(entry?.tokens).toBeLessThanOrEqual(80);
    expect(entry?.facts.length).toBe(sent.length);
  });
});

describe("tool failures and limits", () => {
  it("a tool that throws becomes an error result the model sees, and the turn completes", async () => {
    const { db, turn } = await loadApp({});
    const { userId, sessionId } = await createUserWithSession(db);
    // The fact table refuses writes: the remember tool throws inside its transaction.
    const sqlite = databaseKind(process.env.DATABASE_URL as string) === "sqlite";
    if (sqlite) {
      await db.$executeRawUnsafe(
        `CREATE TRIGGER refuse_facts BEFORE INSERT ON "MemoryFact" BEGIN SELECT RAISE(ABORT, 'facts are read-only'); END`,
      );
    } else {
      await db.$executeRawUnsafe(
        `CREATE OR REPLACE FUNCTION refuse_facts() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'facts are read-only'; END $$ LANGUAGE plpgsql`,
      );
      await db.$executeRawUnsafe(
        `CREATE TRIGGER refuse_facts BEFORE INSERT ON "MemoryFact" FOR EACH ROW EXECUTE FUNCTION refuse_facts()`,
      );
    }
    try {
      expectConsoleWarn(/tool remember failed/);
      const events = await turn(sessionId, userId, "Remember that my favourite colour is teal");
      expect(toolEvents(events)[1]).toMatchObject({ type: "tool_result", ok: false });
      expect(doneOf(events)).toMatchObject({ type: "done", status: "complete" });
      expect(answerOf(events)).toMatch(/^The tool reported an error: The remember tool failed/);
      const rows = await history(db, sessionId);
      expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "tool", "assistant"]);
      // The database's own words (the statement, the trigger's message) stay in the server's log.
      expect(JSON.parse(rows[2]?.text ?? "{}")).toEqual({
        error:
          "The remember tool failed: the database was busy or unavailable, so nothing was changed. Try again.",
      });
      expect(answerOf(events)).not.toMatch(/prisma|invocation|read-only|MemoryFact/i);
    } finally {
      await db.$executeRawUnsafe(
        sqlite ? "DROP TRIGGER refuse_facts" : `DROP TRIGGER refuse_facts ON "MemoryFact"`,
      );
    }
  });

  it("invalid arguments become an error result", async () => {
    const { runTool } = await import("./tools");
    const ctx = { userId: "u", sessionId: "s", questionId: "q", longTermMemory: true };
    expect(await runTool({ id: "c1", name: "remember", arguments: '{"fact": ""}' }, ctx)).toEqual({
      toolCallId: "c1",
      name: "remember",
      ok: false,
      text: JSON.stringify({ error: "Invalid arguments: fact must not be empty" }),
    });
    expect((await runTool({ id: "c2", name: "remember", arguments: "{not json" }, ctx)).text).toBe(
      JSON.stringify({ error: "The arguments are not valid JSON." }),
    );
    expect((await runTool({ id: "c3", name: "launch_rockets", arguments: "{}" }, ctx)).ok).toBe(false);
    expect((await runTool({ id: "c4", name: "current_time", arguments: "" }, ctx)).text).toMatch(
      /"now":"\d{4}-/,
    );
  });

  it("TOOL_MAX_STEPS stops a model that keeps calling, which then answers in text", async () => {
    const { db, turn } = await loadApp({ TOOL_MAX_STEPS: "2" });
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await turn(sessionId, userId, "Please keep checking the time");
    expect(toolEvents(events).map((e) => e.type)).toEqual([
      "tool_call",
      "tool_result",
      "tool_call",
      "tool_result",
    ]);
    expect(doneOf(events)).toMatchObject({ type: "done", status: "complete" });
    expect(answerOf(events)).toMatch(/^It is now \d{4}-/);
    const rows = await history(db, sessionId);
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
  });

  it("TOOL_MAX_STEPS=0 offers no tools", async () => {
    const { db, turn } = await loadApp({ TOOL_MAX_STEPS: "0" });
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await turn(sessionId, userId, "what time is it?");
    expect(toolEvents(events)).toEqual([]);
    expect(await db.chatMessage.count({ where: { sessionId } })).toBe(2);
  });
});
