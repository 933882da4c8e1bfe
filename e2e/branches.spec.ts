import type { APIRequestContext, Locator } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { type ChatPage, expect, test } from "./fixtures";

// The message tree in the browser — edit a question (a new branch), regenerate an answer (a new
// version), switch between versions, follow a link into another branch, reload on a branch; copying messages and
// code; the automatic title. The offline model answers only from what it is sent, so what an answer says shows
// which branch's messages reached it.

const userItems = (chat: ChatPage) => chat.page.locator('[data-testid="message"][data-role="user"]');
const texts = async (chat: ChatPage) => (await chat.messages()).map((m) => m.text);

/** The "‹ 2 / 3 ›" of a message (the visible part; screen readers get "Version 2 of 3"). */
const position = (message: Locator) =>
  message.getByTestId("version-position").locator('[aria-hidden="true"]');

/** Waits until no answer is streaming and the path read back from the server is shown. */
async function settled(chat: ChatPage) {
  await expect(chat.page.locator('[data-testid="message"][data-status="streaming"]')).toHaveCount(0, {
    timeout: 20_000,
  });
  await chat.idle();
}

/** The entries of the context the `index`-th answer was sent, as "source: preview" lines; the panel is closed. */
async function contextOf(chat: ChatPage, index = -1): Promise<string[]> {
  const { panel, entries } = await chat.openContext(index);
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toBeHidden();
  return entries.map((e) => `${e.source}: ${e.preview}`);
}

test.describe("message tree", () => {
  test("editing the first question makes a branch without the old messages; switching back and reloading keep each branch @pg", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    expect((await chat.send("My name is Ada.")).text).toBe("Nice to meet you, Ada.");
    expect((await chat.send("What is my name?")).text).toBe("Your name is Ada.");
    const sessionId = chat.sessionId() as string;
    const adaAnswer = (await chat.assistantItems.last().getAttribute("data-message-id")) as string;

    // Escape gives up an edit and puts focus back on Edit.
    const first = userItems(chat).first();
    await first.getByTestId("message-edit").click();
    await expect(page.getByTestId("message-editor-input")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("message-editor")).toBeHidden();
    await expect(first.getByTestId("message-edit")).toBeFocused();

    // Shift+Enter is a new line in the editor; Enter sends the new version.
    await first.getByTestId("message-edit").click();
    const field = page.getByTestId("message-editor-input");
    await field.fill("My name is Bob.");
    await field.press("Shift+Enter");
    await expect(field).toHaveValue("My name is Bob.\n");
    await field.press("Enter");
    await settled(chat);
    await expect.poll(() => texts(chat)).toEqual(["My name is Bob.", "Nice to meet you, Bob."]);
    await expect(position(userItems(chat).first())).toHaveText("2 / 2");
    await expect(userItems(chat).first().getByTestId("version-position")).toContainText("Version 2 of 2");

    // The next turn on the new branch is sent none of the old branch's messages.
    expect((await chat.send("What is my name?")).text).toBe("Your name is Bob.");
    const sent = await contextOf(chat);
    expect(sent.filter((e) => e.startsWith("history"))).toEqual([
      "history: My name is Bob.",
      "history: Nice to meet you, Bob.",
    ]);
    expect(sent.join("\n")).not.toContain("Ada");

    // Switch back: the old answers return, and so does what the model remembers on that branch.
    await userItems(chat).first().getByTestId("version-previous").click();
    await expect
      .poll(() => texts(chat))
      .toEqual(["My name is Ada.", "Nice to meet you, Ada.", "What is my name?", "Your name is Ada."]);
    await expect(position(userItems(chat).first())).toHaveText("1 / 2");
    // The arrow used is now disabled (first version): focus stays on the switcher, on the other arrow.
    await expect(userItems(chat).first().getByTestId("version-next")).toBeFocused();
    expect((await chat.send("And what is my name now?")).text).toBe("Your name is Ada.");

    // A reload shows the branch the user was on.
    await page.reload();
    await expect(chat.input).toBeVisible();
    await expect
      .poll(() => texts(chat))
      .toEqual([
        "My name is Ada.",
        "Nice to meet you, Ada.",
        "What is my name?",
        "Your name is Ada.",
        "And what is my name now?",
        "Your name is Ada.",
      ]);
    await expect(position(userItems(chat).first())).toHaveText("1 / 2");

    // A link to a message on the other branch (a search result) shows that branch first.
    await userItems(chat).first().getByTestId("version-next").click();
    await expect
      .poll(() => texts(chat))
      .toEqual(["My name is Bob.", "Nice to meet you, Bob.", "What is my name?", "Your name is Bob."]);
    await page.goto(`/c/${sessionId}?message=${adaAnswer}`);
    const anchored = page.locator(`[data-testid="message"][data-message-id="${adaAnswer}"]`);
    await expect(anchored).toHaveAttribute("data-anchored", "true");
    await expect(anchored).toBeFocused();
    await expect(userItems(chat).first().getByTestId("message-text")).toHaveText("My name is Ada.");
    await expect(page.getByTestId("chat-error")).toBeHidden();
  });

  test("regenerate makes a second version of the answer, and each version's context is what it was sent @pg", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.send("My name is Ada.");
    expect((await chat.send("What is my name?")).text).toBe("Your name is Ada.");
    const before = await contextOf(chat);
    expect(before).toContain("history: My name is Ada.");

    // With memory off, the new version is sent no history — and says so.
    await chat.memory.set({ enabled: false });
    await page.keyboard.press("Escape");
    await chat.assistantItems.last().getByTestId("message-regenerate").click();
    await settled(chat);
    const last = chat.assistantItems.last();
    await expect(position(last)).toHaveText("2 / 2");
    await expect(last.getByTestId("message-text")).toHaveText(
      "I don't know your name — you haven't told me in this conversation.",
    );
    // The question stays, once; the old answer is not on the path.
    await expect.poll(async () => (await texts(chat)).length).toBe(4);
    const regenerated = await contextOf(chat);
    expect(regenerated.some((e) => e.startsWith("history"))).toBe(false);
    expect(regenerated).toContain("current: What is my name?");

    // Version 1 is still there, with the context it was sent.
    await last.getByTestId("version-previous").click();
    await expect(chat.assistantItems.last().getByTestId("message-text")).toHaveText("Your name is Ada.");
    await expect(position(chat.assistantItems.last())).toHaveText("1 / 2");
    expect(await contextOf(chat)).toEqual(before);

    // The versions and the editor pass axe.
    await userItems(chat).first().getByTestId("message-edit").click();
    await expectNoAxeViolations(page);
  });

  test("while an answer is being written, no version can be switched to, edited or regenerated", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.send("My name is Ada.");
    await chat.assistantItems.last().getByTestId("message-regenerate").click();
    await settled(chat);
    const firstAnswer = chat.assistantItems.first();
    await expect(position(firstAnswer)).toHaveText("2 / 2");

    // The next turn is held on its way to the server: the view is writing an answer meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/sessions/*/messages", async (route) => {
      await held;
      await route.continue();
    });
    await chat.submit("What is my name?");
    await expect(chat.stopButton).toBeVisible();
    await expect(firstAnswer.getByTestId("version-previous")).toBeDisabled();
    await expect(firstAnswer.getByTestId("message-regenerate")).toBeDisabled();
    await expect(userItems(chat).first().getByTestId("message-edit")).toBeDisabled();

    release();
    await settled(chat);
    await expect(chat.assistantItems.last().getByTestId("message-text")).toHaveText("Your name is Ada.");
    await expect(firstAnswer.getByTestId("version-previous")).toBeEnabled();
    await expect(userItems(chat).first().getByTestId("message-edit")).toBeEnabled();
  });

  test("on a phone the message actions are shown without hovering", async ({ page, chat, user }) => {
    void user;
    await page.setViewportSize({ width: 390, height: 844 });
    await chat.goto();
    await chat.send("My name is Ada.");
    await expect(userItems(chat).first().getByTestId("message-edit")).toBeVisible();
    await expect(chat.assistantItems.last().getByTestId("message-regenerate")).toBeVisible();
    await expect(chat.assistantItems.last().getByTestId("message-copy")).toBeVisible();
  });
});

test.describe("copy", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("a message and a code block copy their text, say so, and a refused clipboard shows an error", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.send("My name is Ada.");
    const answer = chat.assistantItems.last();
    // Keyboard: the copy button is a Tab stop that Enter presses.
    await answer.getByTestId("message-copy").focus();
    await page.keyboard.press("Enter");
    await expect(answer.getByTestId("message-copy")).toHaveText("Copied");
    await expect(answer.getByTestId("message-copy-status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Nice to meet you, Ada.");
    await userItems(chat).first().getByTestId("message-copy").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("My name is Ada.");

    // The offline model writes no code: this answer's stream is made up here, and it carries a fenced block.
    const code = 'const answer = 42;\nconsole.log("answer", answer);';
    const reply = `Here it is:\n\n\`\`\`js\n${code}\n\`\`\``;
    await page.route("**/api/sessions/*/messages", (route) => {
      const now = new Date().toISOString();
      const events = [
        {
          type: "meta",
          userMessage: { id: "made-up-question", seq: 3, parentId: null, createdAt: now },
          assistantMessage: { id: "made-up-answer", seq: 4, parentId: "made-up-question", createdAt: now },
          model: "recall-offline",
          offline: true,
        },
        { type: "delta", text: reply },
        { type: "done", status: "complete" },
      ];
      return route.fulfill({
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""),
      });
    });
    await chat.send("Show me some code");
    const block = chat.assistantItems.last().getByTestId("code-block");
    await expect(block).toBeVisible();
    await block.getByTestId("code-copy").click();
    await expect(block.getByTestId("code-copy")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    // A clipboard that refuses: the failure is shown, not swallowed.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException("Denied", "NotAllowedError"));
    });
    await answer.getByTestId("message-copy").click();
    await expect(answer.getByTestId("message-copy-status")).toHaveText(/Couldn't copy/);
    await expect(answer.getByTestId("message-copy")).toHaveText("Copy");
  });
});

async function storedTitle(api: APIRequestContext, sessionId: string) {
  const page = (await (await api.get(`/api/sessions/${sessionId}?limit=1`)).json()) as {
    session: { title: string; titleByUser: boolean };
  };
  return page.session;
}

/** A fresh conversation answered over the API; resolves once its automatic title has been written. */
async function titledControl(api: APIRequestContext, question: string) {
  const created = await api.post("/api/sessions", { data: {} });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  const turn = await api.post(`/api/sessions/${session.id}/messages`, { data: { content: question } });
  expect(turn.ok()).toBe(true);
  await turn.body(); // the whole stream: the answer is committed
  await expect
    .poll(async () => (await storedTitle(api, session.id)).title)
    .toBe("Explain how binary search works");
}

test.describe("automatic title", () => {
  test("the first answer names the conversation without a reload; a rename by the user is never overwritten @pg", async ({
    page,
    chat,
    user,
    apiAs,
  }) => {
    const question = "Please explain how binary search works on sorted arrays";
    await chat.goto();
    await chat.send(question);
    const link = page.locator(`[data-testid="session-link"][href="/c/${chat.sessionId()}"]`);
    await expect(link).toHaveText("Explain how binary search works");
    await expect(page).toHaveTitle("Explain how binary search works · Recall");
    // A second answer does not rename it again.
    await chat.send("Thanks, and what about linked lists?");
    const api = await apiAs(user);
    // Titles are written in the background; a conversation started after this answer getting its own title
    // shows that the title jobs of earlier answers have had their turn.
    await titledControl(api, question);
    expect(await storedTitle(api, chat.sessionId() ?? "")).toMatchObject({
      title: "Explain how binary search works",
      titleByUser: false,
    });
    await expect(link).toHaveText("Explain how binary search works");

    // Renamed before its first answer: the automatic title leaves it alone.
    const created = await api.post("/api/sessions", { data: { title: "Draft" } });
    expect(created.status()).toBe(201);
    const { session } = (await created.json()) as { session: { id: string } };
    expect((await api.patch(`/api/sessions/${session.id}`, { data: { title: "My own name" } })).ok()).toBe(
      true,
    );
    await chat.goto(session.id);
    await chat.send(question);
    await titledControl(api, question);
    expect(await storedTitle(api, session.id)).toMatchObject({ title: "My own name", titleByUser: true });
    await expect(page.locator(`[data-testid="session-link"][href="/c/${session.id}"]`)).toHaveText(
      "My own name",
    );
  });
});
