import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { databaseKind, db } from "@/lib/db/client";
import { getActivePathPage } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { instrumentDriverAdapters, record } from "../../scripts/bench/instrument";
import { answerIdOf, closeApps, contextOf, createUserWithSession, drain, loadApp } from "./test-helpers";
import { startTurn } from "./turn";

// What an answer used beyond its window reaches the client two ways: the turn's `done` event, and each answer of a
// page of the conversation — read from the recorded contexts in one statement for the whole page. Real database
// and offline model.

instrumentDriverAdapters();

afterEach(closeApps);

afterAll(async () => {
  await db.$disconnect();
});

const ask = async (sessionId: string, userId: string, content: string) =>
  drain(await startTurn({ sessionId, userId, input: { content } }));

describe(`memory used (${databaseKind(env.DATABASE_URL)})`, () => {
  it("a turn that used only its window says so in its done event and in the page", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await ask(sessionId, userId, "hello there");
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete", memoryUsed: null });
    const { messages } = await getActivePathPage({ sessionId, leafId: answerIdOf(events), limit: 50 });
    expect(messages.map((m) => [m.role, "memoryUsed" in m ? m.memoryUsed : "absent"])).toEqual([
      ["user", "absent"],
      ["assistant", null],
    ]);
  });

  it("each answer of a page carries what its recorded context used, read in one statement for the page", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const answers: string[] = [];
    for (let i = 1; i <= 6; i++) answers.push(answerIdOf(await ask(sessionId, userId, `question ${i}`)));
    const [first, , third] = answers as [string, string, string];
    const firstQuestion = await db.chatMessage.findFirstOrThrow({ where: { sessionId, seq: 1 } });
    // The third answer's record as a turn with recall writes it: a recalled message beside its window.
    const recorded = await contextOf(db, third);
    const recalled = {
      source: "recalled",
      role: "user",
      seq: 1,
      sessionId,
      messageId: firstQuestion.id,
      createdAt: firstQuestion.createdAt.toISOString(),
      score: 0.42,
      tokens: 7,
      chars: 10,
      preview: "question 1",
    };
    const [system, ...rest] = recorded.entries;
    await db.turnContext.update({
      where: { messageId: third },
      data: { entries: [system, recalled, ...rest] as object },
    });
    // An answer without a record (written before contexts were recorded) reads as the window only.
    await db.turnContext.delete({ where: { messageId: first } });

    const leafId = answers.at(-1) as string;
    const { value: page, statements } = await record(() =>
      getActivePathPage({ sessionId, leafId, limit: 50 }),
    );
    const used = new Map(page.messages.flatMap((m) => ("memoryUsed" in m ? [[m.id, m.memoryUsed]] : [])));
    expect([...used.keys()]).toEqual(answers);
    expect(used.get(first)).toBeNull();
    expect(used.get(third)).toEqual({
      recalled: [
        {
          sessionId,
          messageId: firstQuestion.id,
          seq: 1,
          role: "user",
          createdAt: firstQuestion.createdAt.toISOString(),
          score: 0.42,
          preview: "question 1",
        },
      ],
      files: [],
      facts: [],
      summary: null,
    });
    expect(answers.filter((id) => id !== third).map((id) => used.get(id))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    const contextReads = statements.filter((s) => /\bTurnContext\b/.test(s.sql));
    expect(contextReads).toHaveLength(1);
    expect(contextReads[0]?.rows).toBe(5);

    // A page of two answers reads them with one statement too.
    const { statements: small } = await record(() =>
      getActivePathPage({ sessionId, leafId: answers[1] as string, limit: 50 }),
    );
    expect(small.filter((s) => /\bTurnContext\b/.test(s.sql)).map((s) => s.rows)).toEqual([1]);
  });

  it("an answer that recalled an earlier message names it in its done event, and its page says the same", async () => {
    const app = await loadApp({ MEMORY_MAX_MESSAGES: "2", MEMORY_RECALL: "conversation" });
    const { getActivePathPage: pageOf } = await import("@/lib/db/sessions");
    const { userId, sessionId } = await createUserWithSession(app.db);
    const word = `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    await app.turn(sessionId, userId, `My locker code is ${word}`);
    await app.turn(sessionId, userId, "filler about the weather");
    const events = await app.turn(sessionId, userId, `What is my locker code ${word}?`);
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    const statement = await app.db.chatMessage.findFirstOrThrow({ where: { sessionId, seq: 1 } });
    expect(done.memoryUsed?.recalled).toContainEqual(
      expect.objectContaining({ sessionId, messageId: statement.id, seq: 1, role: "user" }),
    );
    const { messages } = await pageOf({ sessionId, leafId: answerIdOf(events), limit: 50 });
    const answer = messages.find((m) => m.id === answerIdOf(events));
    expect(answer && "memoryUsed" in answer ? answer.memoryUsed : undefined).toEqual(done.memoryUsed);
  });
});
