import { type ChatPage, type Credentials, expect, test } from "./fixtures";

// The first thing a newcomer tries: state a fact in plain words, then ask for it back. The offline model can
// only answer from the messages the app sends it, so a pass means the statement reached the model's context.
// The two recall tests are tagged @pg: `npm run test:e2e` runs them on PostgreSQL as well.

/** Sends the statement, then the question; returns the answer to the question after checking both turns. */
async function stateThenAsk(
  chat: ChatPage,
  user: Credentials,
  statement: string,
  question: string,
): Promise<string> {
  await chat.goto();
  await expect(chat.page.getByTestId("current-user")).toHaveText(user.name);
  expect((await chat.send(statement)).status).toBe("complete");
  const answer = await chat.send(question);
  expect(answer.status).toBe("complete");
  expect(await chat.messages()).toMatchObject([
    { role: "user", seq: 1, text: statement },
    { role: "assistant", seq: 2 },
    { role: "user", seq: 3, text: question },
    { role: "assistant", seq: 4 },
  ]);
  return answer.text;
}

test.describe("natural-language recall", () => {
  test("English: my code word @pg", async ({ chat, user }) => {
    const answer = await stateThenAsk(chat, user, "My code word is 青云-4173", "What is my code word?");
    expect(answer).toContain("青云-4173");
    // The answer came from the first message, which the recorded context of this answer holds.
    const { entries } = await chat.openContext(-1);
    expect(entries.find((e) => e.source === "history" && e.seq === 1)?.preview).toBe(
      "My code word is 青云-4173",
    );
  });

  test("Chinese: 我的暗号 @pg", async ({ chat, user }) => {
    const answer = await stateThenAsk(chat, user, "我的暗号是松石-88", "我的暗号是什么？");
    expect(answer).toContain("松石-88");
  });

  test("a new conversation does not know it", async ({ chat, user }) => {
    await stateThenAsk(chat, user, "My code word is 青云-4173", "What is my code word?");
    await chat.openNewChat();
    await expect(chat.emptyState).toBeVisible();
    const answer = await chat.send("What is my code word?");
    expect(answer.text).not.toContain("青云-4173");
    expect(answer.text).toContain("I don't know");
  });
});
