import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";

// Search across conversations: Ctrl/Cmd+K opens the dialog anywhere in the chat, typing searches the
// user's own messages (English and Chinese), and a result opens its conversation at the message. The messages are
// sent through the UI, so this also proves turns index what they store.

test.describe("search", () => {
  test("Ctrl+K, a Chinese word inside running text, Enter opens the conversation at the message", async ({
    page,
    chat,
    user: _user,
  }) => {
    const word = `kestrel${randomUUID().slice(0, 6)}`;
    const target = `My ${word} notes: 我昨天买了一条绿松石手链。`;
    await chat.goto();
    await chat.send(target);
    const withTarget = chat.sessionId() as string;
    await chat.send("Something else entirely, to move the message up.");
    await chat.openNewChat();
    await chat.send(`Another conversation about the ${word} too`);

    // Ctrl+K opens search from the composer; Escape closes it and gives focus back.
    await chat.input.focus();
    await page.keyboard.press("Control+k");
    const dialog = page.getByTestId("search-dialog");
    const input = page.getByTestId("search-input");
    await expect(dialog).toBeVisible();
    await expect(input).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(chat.input).toBeFocused();

    // "/" still goes to the message box.
    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    await expect(chat.input).toBeFocused();

    // An English word: every message that has it, each with its conversation's title and a marked excerpt.
    await page.keyboard.press("Control+k");
    await input.fill(word);
    const results = page.getByTestId("search-result");
    await expect(results.first()).toBeVisible();
    await expect(results.locator("mark").first()).toHaveText(new RegExp(word, "i"));

    // 松石 inside 绿松石手链: found, and only that text is marked.
    await input.fill("松石");
    await expect(results.first().locator("mark")).toHaveText("松石");
    const hit = results.filter({ hasText: "绿松石手链" }).first();
    await expect(hit).toBeVisible();
    const index = await results.evaluateAll((nodes) =>
      nodes.findIndex((n) => n.textContent?.includes("绿松石手链")),
    );
    for (let i = 0; i < index; i++) await input.press("ArrowDown");
    await expect(hit).toHaveAttribute("aria-selected", "true");
    await input.press("Enter");

    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/c/${withTarget}\\?message=[\\w-]+`));
    const anchored = page.locator('[data-anchored="true"]');
    await expect(anchored).toContainText("绿松石手链");
    await expect(anchored).toBeFocused();
  });

  test("an empty query is refused with a code; nothing matches a word nobody wrote", async ({
    page,
    user: _user,
  }) => {
    const empty = await page.request.get("/api/search?q=%20");
    expect(empty.status()).toBe(422);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    const long = await page.request.get(`/api/search?q=${"a".repeat(201)}`);
    expect(long.status()).toBe(422);

    // The shape: a bare array of results; no next page, no cursor header.
    const none = await page.request.get(`/api/search?q=nobodywrote${randomUUID().slice(0, 8)}`);
    expect(none.status()).toBe(200);
    expect(await none.json()).toEqual([]);
    expect(none.headers()["x-next-cursor"]).toBeUndefined();

    await page.goto("/");
    await page.getByTestId("search-button").click();
    await page.getByTestId("search-input").fill(`nobodywrote${randomUUID().slice(0, 8)}`);
    await expect(page.getByTestId("search-status")).toContainText("No messages match");
    await expect(page.getByTestId("search-result")).toHaveCount(0);
  });
});
