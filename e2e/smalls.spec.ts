import { expect, test } from "./fixtures";

// Issue 25's smaller items that only a browser shows: the chat header on a phone, the memory popover's focus
// after Save, and who said a search result.

test("on a 390 px phone the chat header is one line; the rest is behind ⋯, which Escape closes", async ({
  page,
  chat,
  user,
}) => {
  void user;
  await page.setViewportSize({ width: 390, height: 844 });
  await chat.goto();
  await chat.send("Hello");
  const header = page.locator("header").filter({ has: page.getByTestId("header-more") });
  const more = page.getByTestId("header-more");
  await expect(more).toBeVisible();
  await expect(page.getByTestId("share-button")).toBeHidden();
  await expect(chat.memory.trigger).toBeHidden();
  const box = await header.boundingBox();
  // One line: the more button's height plus the header's padding, not two or three rows.
  expect(box?.height ?? 0).toBeLessThan(50);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);

  await more.click();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await expect(chat.memory.trigger).toBeInViewport();
  const row = await page.getByTestId("header-secondary").boundingBox();
  expect((row?.x ?? -1) >= 0 && (row?.x ?? 0) + (row?.width ?? 0) <= 390).toBe(true);
  // The memory popover opens on the screen, not partly off its left edge.
  await chat.memory.trigger.click();
  await expect(chat.memory.popover).toBeVisible();
  const popover = await chat.memory.popover.boundingBox();
  expect(popover?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((popover?.x ?? 0) + (popover?.width ?? 0)).toBeLessThanOrEqual(390);
  await page.keyboard.press("Escape");
  await expect(chat.memory.popover).toBeHidden();
  await chat.memory.trigger.focus();
  await page.keyboard.press("Escape");
  await expect(chat.memory.trigger).toBeHidden();
  await expect(more).toBeFocused();
});

test("after Save the memory popover keeps the focus, Escape closes it; Summary says so in the header", async ({
  chat,
  user,
}) => {
  void user;
  await chat.goto();
  await chat.send("Hello");
  await expect(chat.memory.text).toHaveText("Remembers the last 20 messages");
  await chat.memory.submit({ policy: "summary", maxMessages: 4 });
  await expect(chat.memory.status).toHaveText("Saved — the next answer uses it.");
  await expect(chat.memory.text).toHaveText("Summary + the last 4 messages");
  await expect(chat.memory.popover.getByTestId("memory-save")).toBeFocused();
  await chat.page.keyboard.press("Escape");
  await expect(chat.memory.popover).toBeHidden();
  await expect(chat.memory.trigger).toBeFocused();
});

test("a search result says who said it", async ({ page, chat, user }) => {
  void user;
  const word = `quillwort${Date.now().toString(36)}`;
  await chat.goto();
  await chat.send(`Tell me about ${word}, please.`);
  await chat.input.focus();
  await page.keyboard.press("Control+k");
  await page.getByTestId("search-input").fill(word);
  const result = page.getByTestId("search-result").first();
  await expect(result).toBeVisible();
  await expect(page.getByTestId("search-result-by")).not.toHaveCount(0);
  await expect(page.getByTestId("search-result-by").first()).toHaveText(/^(You|Assistant):\s*$/);
});
