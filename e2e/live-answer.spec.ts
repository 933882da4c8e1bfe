import type { APIRequestContext, Locator } from "@playwright/test";
import { ChatPage, type ExtraServer, e2ePort, expect, startServer, test, useExtraServer } from "./fixtures";

// Answers that keep going (docs/decisions/033-live-answers.md): a reload mid-answer does not stop it — the page
// attaches to the live answer and shows it complete; a second page follows the same answer and its Stop stops it
// for both; a page on a second instance follows an answer the first one writes and stops it. On servers whose
// offline model writes one word every 1.5 s.

const QUESTION = "Tell me a long story about a lighthouse keeper, the sea, the storms and the ships";
/** For the test that waits for the whole answer: ~10 words fewer, ~15 s less of waiting. */
const SHORTER_QUESTION = "Tell me a long story about a lighthouse keeper";

type ApiMessage = { id: string; role: string; status: string; text: string };

async function lastMessage(request: APIRequestContext, sessionId: string): Promise<ApiMessage> {
  const res = await request.get(`/api/sessions/${sessionId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { messages: ApiMessage[] }).messages.at(-1) as ApiMessage;
}

const shownLength = async (answer: Locator) =>
  ((await answer.getByTestId("message-text").textContent()) ?? "").length;

/** Sends the question and waits until part of the answer is shown while it is still being written. */
async function startAnswer(chat: ChatPage, question = QUESTION) {
  await chat.goto();
  await chat.submit(question);
  const answer = chat.assistantItems.last();
  await expect(answer.getByTestId("message-text").locator(":scope > :not(.animate-pulse)")).not.toHaveCount(
    0,
    {
      timeout: 20_000,
    },
  );
  await expect(answer).toHaveAttribute("data-status", "streaming");
  return answer;
}

// The answer (~25 words) must still be being written after a page has loaded, reloaded or opened on another
// instance: at 500 ms a word it had ended before Stop on a loaded machine (seen: "complete", expected "interrupted").
const slow = { OFFLINE_MODEL_TOKEN_DELAY_MS: "1500" };

test.describe("answers that keep going", () => {
  useExtraServer(e2ePort("E2E_LIVE_PORT"), slow);

  test("a reload mid-answer does not stop it: the page follows it live to the end @pg", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(150_000);
    await startAnswer(chat, SHORTER_QUESTION);
    const sessionId = chat.sessionId() as string;
    await page.reload();
    const answer = chat.assistantItems.last();
    await expect(answer).toHaveAttribute("data-status", "streaming");
    await expect(chat.stopButton).toBeVisible();
    const during = await shownLength(answer);
    await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 90_000 });
    const shown = await chat.lastAnswer();
    expect(shown.length).toBeGreaterThan(during);
    expect(shown).toMatch(/^Offline model reply to: "Tell me a long story.*\(I saw 0 earlier messages\.\)$/);
    const stored = await lastMessage(page.request, sessionId);
    expect(stored.status).toBe("complete");
    expect(shown).toBe(stored.text.trim());
  });

  test("a second page follows the live answer and its Stop stops it for both @pg", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(90_000);
    const first = await startAnswer(chat);
    const sessionId = chat.sessionId() as string;
    const other = new ChatPage(await page.context().newPage());
    await other.goto(sessionId);
    const followed = other.assistantItems.last();
    await expect(followed).toHaveAttribute("data-status", "streaming");
    const before = await shownLength(followed);
    await expect.poll(async () => await shownLength(followed), { timeout: 20_000 }).toBeGreaterThan(before);
    await other.stopButton.click();
    await expect(followed).toHaveAttribute("data-status", "interrupted", { timeout: 20_000 });
    await expect(first).toHaveAttribute("data-status", "interrupted", { timeout: 20_000 });
    const stored = await lastMessage(page.request, sessionId);
    expect(stored.status).toBe("interrupted");
    expect(stored.text.length).toBeGreaterThan(0);
    expect(await other.lastAnswer()).toBe(stored.text.trim());
    await other.page.close();
  });
});

test.describe("answers that keep going across two instances", () => {
  // The answer is written by instance A (the tests' baseURL); the page that follows and stops it is served by B, on
  // the same database (PostgreSQL: the live text over LISTEN/NOTIFY; SQLite: the stored draft) and AUTH_SECRET.
  useExtraServer(e2ePort("E2E_LIVE_PORT"), slow);
  let b: ExtraServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    b = await startServer(e2ePort("E2E_LIVE_B_PORT"), slow);
  });
  test.afterAll(async () => {
    await b?.stop();
  });

  test("a page on the second instance follows an answer the first writes, and its Stop stops it @pg", async ({
    browser,
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(90_000);
    const first = await startAnswer(chat);
    const sessionId = chat.sessionId() as string;
    // The same sign-in (cookies), in a context of B's own: a page sent A's forced Origin would have its scripts
    // refused.
    const url = b?.url as string;
    const context = await browser.newContext({
      storageState: await page.context().storageState(),
      baseURL: url,
      extraHTTPHeaders: { origin: url },
    });
    const other = new ChatPage(await context.newPage());
    await other.page.goto(`/c/${sessionId}`);
    await expect(other.input).toBeVisible();
    const followed = other.assistantItems.last();
    await expect(followed).toHaveAttribute("data-status", "streaming");
    await expect(other.stopButton).toBeVisible();
    const before = await shownLength(followed);
    await expect.poll(async () => await shownLength(followed), { timeout: 20_000 }).toBeGreaterThan(before);
    await other.stopButton.click();
    await expect(followed).toHaveAttribute("data-status", "interrupted", { timeout: 20_000 });
    await expect(first).toHaveAttribute("data-status", "interrupted", { timeout: 20_000 });
    const stored = await lastMessage(page.request, sessionId);
    expect(stored.status).toBe("interrupted");
    expect(stored.text.length).toBeGreaterThan(0);
    // Both pages end with the stored text.
    await expect.poll(async () => await other.lastAnswer()).toBe(stored.text.trim());
    expect(await chat.lastAnswer()).toBe(stored.text.trim());
    await context.close();
  });
});
