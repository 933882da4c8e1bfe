import type { APIRequestContext, Page } from "@playwright/test";
import { type ChatPage, e2ePort, expect, MAIN_URL, test, useExtraServer } from "./fixtures";

// Nothing a user typed is lost: a message that was not sent stays in the composer, drafts survive a reload, the
// limit is shown before the server refuses, and Stop and Retry leave one user message and an honest answer.

const NOT_SENT = "Can't reach Recall — your message was not sent.";
const LIMIT = 8000; // CHAT_MAX_INPUT_CHARS's default; scripts/e2e.ts clears CHAT_* so the servers use it

interface ApiMessage {
  id: string;
  seq: number;
  role: string;
  text: string;
  status: string;
}

async function history(request: APIRequestContext, sessionId: string): Promise<ApiMessage[]> {
  const res = await request.get(`/api/sessions/${sessionId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { messages: ApiMessage[] }).messages;
}

async function sessionIds(request: APIRequestContext): Promise<string[]> {
  const res = await request.get("/api/sessions");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
}

/** Fails every POST /api/sessions (creating a conversation) as if the server were down; lists still load. */
async function cutSessionCreation(page: Page) {
  await page.route("**/api/sessions", (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
}

/** Waits until the server no longer reports the last answer as being written. */
async function settled(request: APIRequestContext, sessionId: string): Promise<ApiMessage> {
  let last: ApiMessage | undefined;
  await expect
    .poll(
      async () => {
        last = (await history(request, sessionId)).at(-1);
        return last?.status;
      },
      { timeout: 15_000 },
    )
    .not.toBe("streaming");
  return last as ApiMessage;
}

test.describe("a message that cannot be sent stays in the composer", () => {
  test("in a conversation, while Recall is unreachable", async ({ page, chat, user }) => {
    void user;
    await chat.goto();
    await chat.send("Remember the phrase kiwi-7 and reply only 'noted'");
    const sessionId = chat.sessionId() as string;

    await page.route("**/api/sessions/**/messages", (route) => route.abort("failed"));
    const text = "What phrase did I ask you to remember?";
    await chat.submit(text);
    await expect(chat.error).toHaveText(NOT_SENT);
    await expect(chat.input).toHaveValue(text);
    await expect(chat.input).toBeEnabled();
    await expect(chat.items).toHaveCount(2);
    expect(await history(page.request, sessionId)).toHaveLength(2);

    // Back online, the same text goes through as it was.
    await page.unroute("**/api/sessions/**/messages");
    await chat.input.press("Enter");
    await expect(chat.assistantItems).toHaveCount(2);
    await expect(chat.assistantItems.last()).toHaveAttribute("data-status", "complete");
    await expect(chat.input).toHaveValue("");
    expect(await chat.lastAnswer()).toContain("kiwi-7");
    expect((await history(page.request, sessionId)).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  test("in a new chat, while Recall is unreachable — and the draft survives a reload", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await cutSessionCreation(page);
    await page.route("**/api/sessions/**/messages", (route) => route.abort("failed"));
    const text = "A first message that must not be lost";
    await chat.submit(text);
    await expect(chat.error).toHaveText(NOT_SENT);
    await expect(chat.error).not.toContainText("Failed to fetch");
    await expect(chat.input).toHaveValue(text);
    await expect(chat.emptyState).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    expect(await sessionIds(page.request)).toEqual([]);

    await page.reload();
    await expect(chat.input).toHaveValue(text);
  });
});

test.describe("drafts", () => {
  test("survive a reload per conversation, and go once the server has the message", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.input.fill("half a thought for a new chat");
    await page.reload();
    await expect(chat.input).toHaveValue("half a thought for a new chat");

    const answer = await chat.send("Remember the phrase plum-3 and reply only 'noted'");
    expect(answer.status).toBe("complete");
    const sessionId = chat.sessionId() as string;
    await expect(chat.input).toHaveValue("");
    await chat.input.fill("a draft in this conversation");
    await page.reload();
    await expect(chat.input).toHaveValue("a draft in this conversation");

    // Each conversation has its own draft, and the new-chat page its own.
    await chat.openNewChat();
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.input).toHaveValue("");
    await chat.input.fill("another new chat");
    await chat.goto(sessionId);
    await expect(chat.input).toHaveValue("a draft in this conversation");

    // Sent and stored: the draft is gone after a reload.
    await chat.send("a draft in this conversation");
    await page.reload();
    await expect(chat.items).toHaveCount(4);
    await expect(chat.input).toHaveValue("");
    await chat.goto();
    await expect(chat.input).toHaveValue("another new chat");
  });
});

test.describe("the length limit", () => {
  test("a counter warns near the limit and an over-long message is not sent", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.input.fill("x".repeat(100));
    await expect(chat.count).toHaveCount(0);
    await chat.input.fill("x".repeat(7950));
    await expect(chat.count).toHaveText("7\u00a0950 / 8\u00a0000");
    await expect(chat.sendButton).toBeEnabled();

    await chat.input.fill("x".repeat(LIMIT + 1));
    await expect(chat.count).toContainText("8\u00a0001 / 8\u00a0000");
    await expect(page.getByTestId("composer-too-long")).toHaveText(
      "This message is 1 characters too long — the limit is 8\u00a0000.",
    );
    await expect(chat.sendButton).toBeDisabled();
    await chat.input.press("Enter");
    await expect(chat.items).toHaveCount(0);
    await expect(chat.input).toHaveValue("x".repeat(LIMIT + 1));
    await expect(page).toHaveURL(/\/$/);
    expect(await sessionIds(page.request)).toEqual([]);
  });

  test("a first message the server refuses leaves no conversation behind", async ({ page, chat, user }) => {
    void user;
    await chat.goto();
    // The composer would not send an over-long message; make the request carry one so the real server refuses it
    // (422) after the conversation was created for it.
    await page.route("**/api/sessions/*/messages", (route) =>
      route.continue({ postData: JSON.stringify({ content: "y".repeat(LIMIT + 1) }) }),
    );
    const text = "This one will be refused on its way";
    await chat.submit(text);
    await expect(chat.error).toHaveText(`A message can have at most ${LIMIT} characters.`);
    await expect(chat.input).toHaveValue(text);
    await expect(chat.items).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.sessionLinks).toHaveCount(0);
    expect(await sessionIds(page.request)).toEqual([]);

    // The text is still the new chat's draft, and sends once nothing is in the way.
    await page.reload();
    await expect(chat.input).toHaveValue(text);
    await page.unroute("**/api/sessions/*/messages");
    await chat.input.press("Enter");
    await expect(chat.assistantItems.first()).toHaveAttribute("data-status", "complete");
    await expect(chat.sessionLinks).toHaveCount(1);
    expect(await sessionIds(page.request)).toHaveLength(1);
  });
});

test.describe("Stop and Retry on a slow model", () => {
  // A server of its own whose offline model writes one word every 300 ms, so an answer can be stopped or cut.
  useExtraServer(e2ePort("E2E_SLOW_PORT"), { OFFLINE_MODEL_TOKEN_DELAY_MS: "300" });

  const QUESTION = "Tell me a long story about a lighthouse keeper and the sea";

  /** Sends QUESTION and waits until part of the answer is shown while it is still being written. */
  async function startAnswer(chat: ChatPage) {
    await chat.goto();
    await chat.submit(QUESTION);
    const answer = chat.assistantItems.last();
    // Real text, not the "Writing…" placeholder shown before the server has taken the turn (a Stop then would
    // cancel the send instead of interrupting an answer).
    await expect(answer.getByTestId("message-text").locator(":scope > :not(.animate-pulse)")).not.toHaveCount(
      0,
      {
        timeout: 20_000,
      },
    );
    await expect(answer).toHaveAttribute("data-status", "streaming");
    return answer;
  }

  test("Stop keeps what was written, marked interrupted, and Retry completes it", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(60_000);
    const answer = await startAnswer(chat);
    await chat.stopButton.click();
    await expect(answer).toHaveAttribute("data-status", "interrupted");
    await expect(answer.getByTestId("message-interrupted")).toBeVisible();
    await expect(chat.retryButton).toBeVisible();
    await expect(chat.input).toBeEnabled();

    // The server kept the partial answer, marked interrupted: a reload shows the same.
    const sessionId = chat.sessionId() as string;
    const stored = await settled(page.request, sessionId);
    expect(stored.status).toBe("interrupted");
    expect(stored.text.length).toBeGreaterThan(0);
    await page.reload();
    await expect(chat.items).toHaveCount(2);
    await expect(chat.assistantItems.last()).toHaveAttribute("data-status", "interrupted");
    expect(await chat.lastAnswer()).toBe(stored.text.trim());

    await chat.retryButton.click();
    await expect(chat.assistantItems.last()).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
    expect(await chat.lastAnswer()).toContain(`Offline model reply to: "${QUESTION}"`);
    await expect(chat.retryButton).toHaveCount(0);
    const after = await history(page.request, sessionId);
    expect(after.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(after[1]?.id).toBe(stored.id);
  });
});

test.describe("Retry after the model failed", () => {
  // A server whose model falls silent after its first word: the idle timeout fails the answer, honestly.
  useExtraServer(e2ePort("E2E_FLAKY_PORT"), {
    OFFLINE_MODEL_TOKEN_DELAY_MS: "5000",
    MODEL_IDLE_TIMEOUT_MS: "500",
  });

  test("a failed answer shows why, and Retry on a healthy server gives one complete answer, no second question", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(60_000);
    const question = "My code word is 青云-4173. Please confirm.";
    await chat.goto();
    await chat.submit(question);
    const answer = chat.assistantItems.last();
    await expect(answer).toHaveAttribute("data-status", "failed", { timeout: 15_000 });
    await expect(answer.getByTestId("message-failed")).toContainText("stopped answering");
    await expect(chat.retryButton).toBeVisible();
    const sessionId = chat.sessionId() as string;
    const failed = await settled(page.request, sessionId);
    expect(failed.status).toBe("failed");

    // The same conversation on a server whose model answers (same database, same sign-in: cookies are per host).
    // The browser's own Origin there: a forced foreign one makes Chromium refuse the page's scripts.
    await page.context().setExtraHTTPHeaders({ origin: MAIN_URL });
    await page.goto(`${MAIN_URL}/c/${sessionId}`);
    await expect(chat.retryButton).toBeVisible();
    await chat.retryButton.click();
    await expect(chat.assistantItems.last()).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
    await expect(chat.retryButton).toHaveCount(0);
    const stored = await history(page.request, sessionId);
    expect(stored.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    expect(stored[0]?.text).toBe(question);
    expect(stored[1]?.id).toBe(failed.id);
  });
});
