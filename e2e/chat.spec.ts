import type { APIRequestContext } from "@playwright/test";
import {
  type ChatPage,
  type Credentials,
  errorCode,
  expect,
  lastReceived,
  sent,
  test,
  WINDOW_SIZE,
  WINDOW_URL,
  withScriptedModel,
} from "./fixtures";

// The chat's memory of one conversation, through the browser. The scripted model answers with the list of what it
// received (docs/decisions/022-test-model.md), so each test asserts on what reached the model.

const PHRASE = "青云-4173";
const REMEMBER = `Memory check: remember the phrase ${PHRASE} and reply only 'noted'`;
const ASK = "What phrase did I ask you to remember?";

interface ApiMessage {
  id: string;
  seq: number;
  role: string;
  text: string;
  status: string;
}

interface ApiContext {
  messageId: string;
  seq: number;
  entries: { source: string; role: string; seq?: number; preview: string }[];
  policy: string;
}

async function getHistory(request: APIRequestContext, sessionId: string): Promise<ApiMessage[]> {
  const res = await request.get(`/api/sessions/${sessionId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { messages: ApiMessage[] }).messages;
}

async function getContext(request: APIRequestContext, sessionId: string, messageId: string) {
  const res = await request.get(`/api/sessions/${sessionId}/turns/${messageId}/context`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { context: ApiContext }).context;
}

/** Opens a new chat and checks whose account it is. */
async function start(chat: ChatPage, user: Credentials) {
  await chat.goto();
  await expect(chat.page.getByTestId("current-user")).toHaveText(user.name);
}

/** Turn 1 asks to remember the phrase, turn 2 asks for it back. Returns the new session's id. */
async function rememberAndRecall(chat: ChatPage, user: Credentials): Promise<string> {
  await start(chat, user);
  expect((await chat.send(REMEMBER)).status).toBe("complete");
  expect((await chat.send(ASK)).status).toBe("complete");
  const sessionId = chat.sessionId();
  expect(sessionId, "the URL names the conversation after the first turn").toBeTruthy();
  // Turn 2 was sent turn 1: the phrase reached the model, and the question came once, last.
  const received = await lastReceived(chat.page.request, sessionId as string);
  expect(sent(received, "user")).toEqual([REMEMBER, ASK]);
  expect(received.entries.at(-1)).toMatchObject({ role: "user", text: ASK });
  return sessionId as string;
}

const firstConversation = [
  { role: "user", seq: 1, text: REMEMBER },
  { role: "assistant", seq: 2 },
  { role: "user", seq: 3, text: ASK },
  { role: "assistant", seq: 4 },
];

test.describe("chat with memory", () => {
  withScriptedModel();

  test("(1) two-turn recall @pg", async ({ chat, user }) => {
    await rememberAndRecall(chat, user);
    const shown = await chat.messages();
    expect(shown).toMatchObject(firstConversation);
    expect(shown.every((m) => m.status === "complete")).toBe(true);
  });

  test("(2) a reload restores all four messages and recall still works @pg", async ({ page, chat, user }) => {
    const sessionId = await rememberAndRecall(chat, user);
    await page.reload();
    await expect(chat.items).toHaveCount(4);
    expect(chat.sessionId()).toBe(sessionId);
    const restored = await chat.messages();
    expect(restored).toMatchObject(firstConversation);
    expect(restored.every((m) => m.status === "complete")).toBe(true);

    await chat.send(ASK);
    await expect(chat.items).toHaveCount(6);
    expect(sent(await lastReceived(page.request, sessionId), "user")).toEqual([REMEMBER, ASK, ASK]);
    // The phrase came from memory: the recorded context of this answer holds the first user message.
    const { entries } = await chat.openContext(-1);
    expect(entries.find((e) => e.source === "history" && e.seq === 1)?.preview).toBe(REMEMBER);
  });

  test("a new conversation has its address before the first answer: a reload mid-answer restores it", async ({
    page,
    chat,
    user,
  }) => {
    await chat.goto();
    // Hold the first answer in the browser; the server still runs and stores the turn.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stored = () => {};
    const answered = new Promise<void>((resolve) => {
      stored = resolve;
    });
    await page.route("**/api/sessions/*/messages", async (route) => {
      const response = await route.fetch();
      stored();
      await held;
      await route.fulfill({ response }).catch(() => {});
    });
    await chat.input.fill(REMEMBER);
    await chat.input.press("Enter");
    await expect(page).toHaveURL(/\/c\/[^/]+$/);
    await expect(chat.items.last()).toHaveAttribute("data-status", "streaming");
    const sessionId = chat.sessionId();

    // Reload while the browser is still waiting for the answer, once the server has finished it.
    await answered;
    await page.reload();
    release();
    expect(chat.sessionId()).toBe(sessionId);
    await expect(chat.items).toHaveCount(2);
    expect(await chat.messages()).toMatchObject([
      { role: "user", text: REMEMBER },
      { role: "assistant", status: "complete" },
    ]);
    expect(sent(await lastReceived(page.request, sessionId as string), "user")).toEqual([REMEMBER]);
    await expect(page.getByTestId("current-user")).toHaveText(user.name);

    // "New chat" starts empty although this view took its address without a navigation.
    await chat.openNewChat();
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.emptyState).toBeVisible();
  });

  test("(3) a new session in the same account does not recall it @pg", async ({ page, chat, user }) => {
    const firstId = await rememberAndRecall(chat, user);

    await chat.openNewChat();
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.emptyState).toBeVisible();
    const answer = await chat.send(ASK);
    expect(answer.status).toBe("complete");
    const secondId = chat.sessionId();
    expect(secondId).toBeTruthy();
    expect(secondId).not.toBe(firstId);
    // The model was sent the system prompt and the question, nothing of the first conversation.
    const received = await lastReceived(page.request, secondId as string);
    expect(received.entries.map((e) => e.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(received.entries)).not.toContain(PHRASE);

    // The context view: system prompt and the current question, nothing from the first conversation.
    const { entries } = await chat.openContext(-1);
    expect(entries.map((e) => e.source)).toEqual(["system", "current"]);
    expect(entries.some((e) => e.preview.includes(PHRASE))).toBe(false);

    // The recorded context through the API says the same.
    const history = await getHistory(page.request, secondId as string);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    const context = await getContext(page.request, secondId as string, history[1]?.id as string);
    expect(context.entries.filter((e) => e.source === "history")).toEqual([]);
    const current = context.entries.filter((e) => e.source === "current");
    expect(current).toHaveLength(1);
    expect(current[0]?.preview).toBe(ASK);
    const firstTexts = (await getHistory(page.request, firstId)).map((m) => m.text);
    const sent = JSON.stringify(context.entries);
    expect(sent).not.toContain(PHRASE);
    for (const text of firstTexts.filter((t) => t !== ASK)) expect(sent).not.toContain(text);
  });

  test("(4) a second user gets 404 for the first user's session @pg", async ({
    page,
    chat,
    user,
    createUser,
    apiAs,
    pageAs,
  }) => {
    const sessionId = await rememberAndRecall(chat, user);
    const history = await getHistory(page.request, sessionId);
    const answerId = history[3]?.id as string;

    const intruder = await createUser("intruder");
    const api = await apiAs(intruder);
    const attempts = [
      await api.get(`/api/sessions/${sessionId}`),
      await api.post(`/api/sessions/${sessionId}/messages`, { data: { content: ASK } }),
      await api.get(`/api/sessions/${sessionId}/turns/${answerId}/context`),
      await api.patch(`/api/sessions/${sessionId}`, { data: { title: "mine now" } }),
      await api.delete(`/api/sessions/${sessionId}`),
    ];
    for (const res of attempts) {
      expect(res.status(), res.url()).toBe(404);
      expect(await errorCode(res)).toBe("not_found");
    }
    const theirs = (await (await api.get("/api/sessions")).json()) as { sessions: { id: string }[] };
    expect(theirs.sessions.map((s) => s.id)).not.toContain(sessionId);

    const intruderPage = await pageAs(intruder);
    const res = await intruderPage.goto(`/c/${sessionId}`);
    expect(res?.status()).toBe(404);
    await expect(intruderPage.getByTestId("not-found")).toBeVisible();
    await expect(intruderPage.getByTestId("message")).toHaveCount(0);
    await expect(intruderPage.locator("body")).not.toContainText(PHRASE);

    // Nothing the intruder tried reached the owner's conversation.
    const after = await getHistory(page.request, sessionId);
    expect(after.map((m) => m.id)).toEqual(history.map((m) => m.id));
  });

  test.describe("with a memory window of 2", () => {
    // The browser's own Origin: a different forced one makes Chromium refuse the page's scripts.
    test.use({ baseURL: WINDOW_URL, extraHTTPHeaders: { origin: WINDOW_URL } });

    test("(5) a fact 3 turns back is no longer sent, but the history keeps it", async ({
      page,
      chat,
      user,
    }) => {
      const FACT = "Remember that my locker code is 5521.";
      const RECALL = "What did I ask you to remember?";
      await start(chat, user);

      expect((await chat.send(FACT)).status).toBe("complete"); // seq 1, 2
      const sessionId = chat.sessionId() as string;
      // While the fact is inside the window, the model is sent it.
      await chat.send(RECALL); // seq 3, 4
      expect(sent(await lastReceived(page.request, sessionId), "user")).toEqual([FACT, RECALL]);
      await chat.send("Tell me something about tea."); // seq 5, 6
      const last = await chat.send(RECALL); // seq 7, 8
      expect(last.status).toBe("complete");
      const received = await lastReceived(page.request, sessionId);
      expect(sent(received, "user")).toEqual(["Tell me something about tea.", RECALL]);
      expect(JSON.stringify(received.entries)).not.toContain("5521");

      // The context view of the last answer: system prompt, the last two history messages, the question (seq 7).
      const { entries } = await chat.openContext(-1);
      expect(entries.map((e) => [e.source, e.seq])).toEqual([
        ["system", null],
        ["history", 5],
        ["history", 6],
        ["current", 7],
      ]);
      expect(entries.some((e) => e.preview.includes("5521"))).toBe(false);
      // …whereas turn 2's context still held the fact.
      const earlier = await chat.openContext(1);
      expect(earlier.entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([1, 2]);

      const history = await getHistory(page.request, sessionId);
      const context = await getContext(page.request, sessionId, history[7]?.id as string);
      expect(context.policy).toBe(`window:${WINDOW_SIZE}`);
      expect(context.entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([5, 6]);

      // The full history still shows the fact.
      await page.reload();
      await expect(chat.items).toHaveCount(8);
      const shown = await chat.messages();
      expect(shown.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(shown[0]).toMatchObject({ role: "user", text: FACT });
    });
  });

  test.describe("composer", () => {
    test("the offline model is labelled", async ({ chat, user }) => {
      await start(chat, user);
      await expect(chat.offlineBadge).toBeVisible();
      await expect(chat.offlineBadge).toHaveText(/offline/i);
    });

    test("Shift+Enter inserts a newline instead of sending", async ({ page, chat, user }) => {
      await start(chat, user);
      await chat.input.click();
      await page.keyboard.type("first line");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("second line");
      await expect(chat.input).toHaveValue("first line\nsecond line");
      await expect(chat.items).toHaveCount(0);
      await expect(chat.emptyState).toBeVisible();

      await page.keyboard.press("Enter");
      await expect(chat.assistantItems).toHaveCount(1);
      await expect(chat.assistantItems.first()).not.toHaveAttribute("data-status", "streaming");
      await expect(page).toHaveURL(/\/c\//);
      const [sent] = await chat.messages();
      expect(sent).toMatchObject({ role: "user", text: "first line\nsecond line" });
      await expect(chat.input).toHaveValue("");
    });

    test("an empty message cannot be sent", async ({ page, chat, user }) => {
      await start(chat, user);
      await expect(chat.sendButton).toBeDisabled();
      await chat.input.fill("   \n  ");
      await expect(chat.sendButton).toBeDisabled();
      await chat.input.press("Enter");
      await chat.input.fill("");
      await chat.input.press("Enter");
      await expect(chat.items).toHaveCount(0);
      await expect(chat.emptyState).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      const sessions = (await (await page.request.get("/api/sessions")).json()) as { sessions: unknown[] };
      expect(sessions.sessions).toEqual([]);
    });
  });
});
