import { afterAll, describe, expect, it } from "vitest";
import { answerIdOf, createUserWithSession, drain } from "@/lib/chat/test-helpers";
import { startTurn } from "@/lib/chat/turn";
import { databaseKind, db } from "@/lib/db/client";
import { getActivePathPage } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { withModelNames } from "./registry";

// Every answer of a page of the conversation (GET /api/sessions/:id, and the chat page on reload) names the model
// that wrote it and the tokens recorded for it, as the turn's done event does. Real database, offline model.

afterAll(async () => {
  await db.$disconnect();
});

describe(`answer meta on the page (${databaseKind(env.DATABASE_URL)})`, () => {
  it("each answer carries model, modelName, promptTokens and completionTokens; the done event says the same", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const first = await drain(await startTurn({ sessionId, userId, input: { content: "hello there" } }));
    const second = await drain(await startTurn({ sessionId, userId, input: { content: "and again" } }));
    const done = second.at(-1);
    expect(done).toMatchObject({ type: "done", status: "complete", model: env.model, modelName: env.model });
    const page = await getActivePathPage({ sessionId, leafId: answerIdOf(second), limit: 50 });
    const messages = await withModelNames(page.messages);
    const answers = messages.filter((m) => m.role === "assistant");
    expect(answers.map((m) => m.id)).toEqual([answerIdOf(first), answerIdOf(second)]);
    for (const m of answers) {
      expect(m).toMatchObject({ model: env.model, modelName: env.model });
      expect(m.promptTokens).toBeGreaterThan(0);
      expect(m.completionTokens).toBeGreaterThan(0);
    }
    const last = answers.at(-1);
    expect(done?.type === "done" && [done.promptTokens, done.completionTokens]).toEqual([
      last?.promptTokens,
      last?.completionTokens,
    ]);
    expect(messages.find((m) => m.role === "user")).not.toHaveProperty("modelName");
  });

  it("an answer whose model the registry no longer knows keeps its stored id and no name", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const events = await drain(await startTurn({ sessionId, userId, input: { content: "hi" } }));
    await db.chatMessage.update({ where: { id: answerIdOf(events) }, data: { model: "gone-model" } });
    const page = await getActivePathPage({ sessionId, leafId: answerIdOf(events), limit: 50 });
    const answer = (await withModelNames(page.messages)).find((m) => m.role === "assistant");
    expect(answer?.model).toBe("gone-model");
    expect(answer).not.toHaveProperty("modelName");
  });
});
