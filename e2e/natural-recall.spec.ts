import {
  type ChatPage,
  type Credentials,
  expect,
  lastReceived,
  MAIN_URL,
  sent,
  test,
  withScriptedModel,
} from "./fixtures";

// The first thing a newcomer tries: state a fact in plain words, then ask for it back. With the scripted model,
// which lists what it received, a pass means the statement reached the model's context, in either language, and a
// new conversation does not get it. The demo model a newcomer meets answers the same question (last test).
// The tests tagged @pg also run on PostgreSQL.

/** Sends the statement, then the question; returns the session's id after checking both turns. */
async function stateThenAsk(chat: ChatPage, user: Credentials, statement: string, question: string) {
  await chat.goto();
  await expect(chat.page.getByTestId("current-user")).toHaveText(user.name);
  expect((await chat.send(statement)).status).toBe("complete");
  expect((await chat.send(question)).status).toBe("complete");
  expect(await chat.messages()).toMatchObject([
    { role: "user", seq: 1, text: statement },
    { role: "assistant", seq: 2 },
    { role: "user", seq: 3, text: question },
    { role: "assistant", seq: 4 },
  ]);
  return chat.sessionId() as string;
}

test.describe("natural-language recall: what reaches the model", () => {
  withScriptedModel();

  test("English: my code word @pg", async ({ chat, user }) => {
    const sessionId = await stateThenAsk(chat, user, "My code word is 青云-4173", "What is my code word?");
    const received = await lastReceived(chat.page.request, sessionId);
    expect(sent(received, "user")).toEqual(["My code word is 青云-4173", "What is my code word?"]);
    // The recorded context of this answer holds the first message too.
    const { entries } = await chat.openContext(-1);
    expect(entries.find((e) => e.source === "history" && e.seq === 1)?.preview).toBe(
      "My code word is 青云-4173",
    );
  });

  test("Chinese: 我的暗号 @pg", async ({ chat, user }) => {
    const sessionId = await stateThenAsk(chat, user, "我的暗号是松石-88", "我的暗号是什么？");
    expect(sent(await lastReceived(chat.page.request, sessionId), "user")).toEqual([
      "我的暗号是松石-88",
      "我的暗号是什么？",
    ]);
  });

  test("a new conversation does not get it", async ({ chat, user }) => {
    await stateThenAsk(chat, user, "My code word is 青云-4173", "What is my code word?");
    await chat.openNewChat();
    await expect(chat.emptyState).toBeVisible();
    await chat.send("What is my code word?");
    const received = await lastReceived(chat.page.request, chat.sessionId() as string);
    expect(received.entries.map((e) => e.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(received.entries)).not.toContain("青云-4173");
  });
});

test.describe("the demo model", () => {
  test.use({ baseURL: MAIN_URL, extraHTTPHeaders: { origin: MAIN_URL } });

  test("answers a newcomer's question from what it was sent, and knows nothing in a new conversation", async ({
    chat,
    user,
  }) => {
    await stateThenAsk(chat, user, "My code word is 青云-4173", "What is my code word?");
    expect(await chat.lastAnswer()).toBe("Your code word is 青云-4173.");
    await chat.openNewChat();
    await expect(chat.emptyState).toBeVisible();
    expect((await chat.send("What is my code word?")).text).toContain("I don't know");
  });
});
