import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { expect, expectFitsPhone, MAIN_URL, rowsReferring, test } from "./fixtures";

// Share links and temporary chats: a link opens signed out with the conversation's words and nothing of its
// memory, and is a 404 once revoked; a temporary chat is never listed and leaves no row behind once left.

test("a share link opens signed out without memory, is listed, and is a 404 once revoked @pg", async ({
  page,
  chat,
  user,
  browser,
}) => {
  expect(user.email).toContain("@");
  await chat.goto();
  await chat.send("Remember that my favourite colour is teal");
  await chat.openNewChat();
  await chat.send("Hello, reply only 'hi'");

  await page.getByTestId("share-button").click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{24}$/);
  const path = new URL(url).pathname;

  const stranger = await browser.newContext({ baseURL: MAIN_URL });
  const visitor = await stranger.newPage();
  const res = await visitor.goto(path);
  expect(res?.status()).toBe(200);
  expect(res?.headers()["x-robots-tag"]).toContain("noindex");
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(visitor.getByTestId("shared-message")).toHaveCount(2);
  await expect(visitor.getByTestId("shared-message").first()).toContainText("Hello, reply only 'hi'");
  // Nothing of the memory: not the fact from the other conversation, no inspector, no "memory used" line.
  await expect(visitor.locator("body")).not.toContainText("teal");
  await expect(visitor.getByTestId("memory-used")).toHaveCount(0);
  await expect(visitor.getByTestId("composer-input")).toHaveCount(0);
  await forEachTheme(visitor, () => expectNoAxeViolations(visitor));
  await expectFitsPhone(visitor, path);

  await page.goto("/settings/shared");
  await expect(page.getByTestId("shared-row")).toHaveCount(1);
  await forEachTheme(page, () => expectNoAxeViolations(page));
  await page.getByTestId("shared-revoke").click();
  await expect(page.getByTestId("shared-empty")).toBeVisible();
  await expectNoAxeViolations(page);
  await expectFitsPhone(page, "/settings/shared");

  const gone = await visitor.goto(path);
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByTestId("not-found")).toBeVisible();
  await stranger.close();
});

test("a temporary chat is not listed, shows its banner, and leaves nothing behind once left @pg", async ({
  page,
  chat,
  user,
}) => {
  expect(user.email).toContain("@");
  await chat.goto();
  await page.getByTestId("temporary-toggle").click();
  await expect(page.getByTestId("temporary-toggle")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("temporary-banner")).toBeVisible();
  await chat.send("Remember that my favourite colour is teal");
  const sessionId = chat.sessionId() as string;
  await expect(page.getByTestId("temporary-banner")).toBeVisible();
  await expectNoAxeViolations(page);

  const listed = (await (await page.request.get("/api/sessions")).json()) as { sessions: { id: string }[] };
  expect(listed.sessions.map((s) => s.id)).not.toContain(sessionId);
  await expect(chat.sessionLinks).toHaveCount(0);
  const memories = (await (await page.request.get("/api/memories")).json()) as unknown[];
  expect(JSON.stringify(memories)).not.toContain("teal");
  expect(await rowsReferring([sessionId])).toMatchObject({ ChatSession: 1 });

  await chat.openNewChat();
  await expect(page.getByTestId("temporary-toggle")).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => rowsReferring([sessionId]), { timeout: 20_000 }).toEqual({});
  const again = await page.goto(`/c/${sessionId}`);
  expect(again?.status()).toBe(404);
});
