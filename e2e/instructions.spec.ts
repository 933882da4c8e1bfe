import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { expect, expectFitsPhone, test } from "./fixtures";

// Instructions end to end: "About me" and "How to answer" on Settings → Instructions, a conversation's system
// prompt from the chat header, and both in the context inspector of the next answer, right after the system
// prompt. The page is axe-clean in light and dark and does not scroll sideways on a phone. Also on PostgreSQL.

test("About me and a conversation's system prompt reach the context, shown in the inspector @pg", async ({
  page,
  chat,
  user: _user,
}) => {
  await page.goto("/settings");
  await page.getByTestId("settings-instructions").click();
  await expect(page).toHaveURL(/\/settings\/instructions$/);
  await page.getByTestId("instructions-about-me").fill("My name is Ana and I live in Lyon.");
  await page.getByTestId("instructions-how-to-answer").fill("Reply in French.");
  await page.getByTestId("instructions-submit").click();
  await expect(page.getByTestId("instructions-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("instructions-about-me")).toHaveValue("My name is Ana and I live in Lyon.");

  await chat.goto();
  await chat.send("Hello there");
  await page.getByTestId("system-prompt-menu").click();
  const input = page.getByTestId("system-prompt-input");
  await expect(input).toHaveValue("");
  await input.fill("You are a cheerful pirate.");
  await page.getByTestId("system-prompt-save").click();
  await expect(page.getByTestId("system-prompt-status")).toBeVisible();
  // Focus stays in the popover after Save, so Escape still closes it.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("system-prompt-panel")).toHaveCount(0);
  await expect(page.getByTestId("system-prompt-menu")).toBeFocused();

  const answer = await chat.send("What should we talk about?");
  expect(answer.status).toBe("complete");
  const { panel, entries } = await chat.openContext(-1);
  const sources = entries.map((e) => e.source);
  const first = sources.indexOf("instructions");
  // Right after the system prompt (if the server has one), before any history; the user's, then the conversation's.
  expect(sources.slice(0, first).every((s) => s === "system")).toBe(true);
  expect(sources.slice(first, first + 2)).toEqual(["instructions", "instructions"]);
  expect(sources.at(-1)).toBe("current");
  const user = panel.locator('[data-testid="context-entry"][data-source="instructions"][data-scope="user"]');
  const conversation = panel.locator(
    '[data-testid="context-entry"][data-source="instructions"][data-scope="conversation"]',
  );
  await expect(user).toHaveCount(1);
  await expect(conversation).toHaveCount(1);
  expect(entries[first]?.preview).toContain("My name is Ana");
  expect(entries[first + 1]?.preview).toContain("You are a cheerful pirate.");
  await expect(user.getByTestId("context-entry-tokens")).toHaveText(/[1-9]/);

  // Cleared from the header: the next answer is sent the user's instructions only.
  await page.getByTestId("system-prompt-menu").click();
  await expect(page.getByTestId("system-prompt-input")).toHaveValue("You are a cheerful pirate.");
  await page.getByTestId("system-prompt-clear").click();
  await expect(page.getByTestId("system-prompt-status")).toBeVisible();
  await page.keyboard.press("Escape");
  await chat.send("And now?");
  const after = await chat.openContext(-1);
  expect(after.entries.filter((e) => e.source === "instructions")).toHaveLength(1);
});

test("the instructions page: axe finds nothing in light and dark, nothing scrolls sideways at 390 px", async ({
  page,
  chat,
  user: _user,
}) => {
  await page.goto("/settings/instructions");
  await page.getByTestId("instructions-about-me").fill("I write long notes. ".repeat(40));
  await page.getByTestId("instructions-submit").click();
  await expect(page.getByTestId("instructions-saved")).toBeVisible();
  await forEachTheme(page, () => expectNoAxeViolations(page));

  for (const path of ["/settings/instructions", "/settings"]) await expectFitsPhone(page, path);

  // The header's popover stays on a phone's screen and is axe-clean open.
  await chat.goto();
  await chat.send("Hello");
  // On a phone the header's secondary controls are behind "⋯".
  await page.getByTestId("header-more").click();
  await page.getByTestId("system-prompt-menu").click();
  const box = await page.getByTestId("system-prompt-panel").boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await forEachTheme(page, async () => {
    await page.getByTestId("header-more").click();
    await page.getByTestId("system-prompt-menu").click();
    await expect(page.getByTestId("system-prompt-panel")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
