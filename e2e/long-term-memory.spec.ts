import type { Page } from "@playwright/test";
import { ADMIN, expect, SCRIPTED_URL, signInViaApi, test, withScriptedModel } from "./fixtures";

// Long-term memory. The /memory page as the UI alone can drive it: the long-term memory switch and the empty list;
// the admin's fact count. Facts themselves come from the chat's remember tool, which the scripted model calls as a
// test scripts it ("/tool remember {…}").

withScriptedModel();

const remember = (fact: string) => `/tool remember ${JSON.stringify({ fact })}`;

const memorySwitch = (page: Page) => page.getByTestId("long-term-memory-switch");

/** Clicks or keys the switch and waits for the server to have stored the new position. */
async function flip(page: Page, how: "click" | "keyboard") {
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/api/me/settings") && r.request().method() === "PATCH" && r.ok(),
  );
  if (how === "click") await memorySwitch(page).click();
  else {
    await memorySwitch(page).focus();
    await page.keyboard.press("Space");
  }
  await saved;
}

test.describe("the /memory page", () => {
  test("a new user: reached from the account menu, nothing learned yet, long-term memory on", async ({
    page,
    user: _user,
  }) => {
    await page.goto("/");
    await page.getByTestId("memory-link").click();
    await expect(page).toHaveURL(/\/memory$/);
    await expect(page.getByTestId("memory-title")).toHaveText("Long-term memory");
    await expect(page.getByTestId("memory-empty")).toBeVisible();
    await expect(page.getByTestId("memory-item")).toHaveCount(0);
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "true");
    await expect(page.getByTestId("long-term-memory-explain")).toContainText("in every conversation");
    // Replaced facts are listed on demand; there are none either.
    await page.getByTestId("memory-show-replaced").check();
    await expect(page.getByTestId("memory-empty")).toBeVisible();
    await expect(page.getByTestId("memory-load-more")).toHaveCount(0);
  });

  test("switching long-term memory off persists across a reload, and back on with the keyboard", async ({
    page,
    user: _user,
  }) => {
    await page.goto("/memory");
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "true");

    await flip(page, "click");
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "false");
    await expect(page.getByTestId("long-term-memory-explain")).toContainText("cannot remember new ones");
    await page.reload();
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "false");
    expect(await (await page.request.get("/api/me/settings")).json()).toMatchObject({
      longTermMemory: false,
    });

    await flip(page, "keyboard");
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "true");
    await expect(memorySwitch(page)).toBeFocused();
    await page.reload();
    await expect(memorySwitch(page)).toHaveAttribute("aria-checked", "true");
  });

  test("on a phone in dark mode, in Chinese: the page fits the screen", async ({ browser, createUser }) => {
    const creds = await createUser("phone");
    const context = await browser.newContext({
      baseURL: SCRIPTED_URL,
      viewport: { width: 390, height: 844 },
      locale: "zh-CN",
      colorScheme: "dark",
    });
    try {
      await signInViaApi(context.request, creds);
      const page = await context.newPage();
      await page.goto("/memory");
      await expect(page.getByTestId("memory-title")).toHaveText("长期记忆");
      await expect(page.getByTestId("memory-empty")).toBeVisible();
      await expect(memorySwitch(page)).toBeInViewport();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    } finally {
      await context.close();
    }
  });

  test("facts learned in the chat: source link, inline edit by keyboard, replaced under the toggle, delete", async ({
    page,
    chat,
    user: _user,
  }) => {
    await chat.goto();
    await chat.send(remember("My favourite colour is teal"));
    await chat.send(remember("My favourite colour is amber"));
    await chat.send(remember("I live in Lisbon"));
    const sessionId = chat.sessionId();

    await page.goto("/memory");
    const items = page.getByTestId("memory-item");
    // By the fact's own text (the source conversation's title, shown on every row, names teal too).
    const item = (text: string) => items.filter({ has: page.getByTestId("memory-text").getByText(text) });
    await expect(items.getByTestId("memory-text")).toHaveText([/Lisbon/, /amber/]);

    // The source link opens the conversation at the user message the fact was learned from.
    const href = (await items.first().getByTestId("memory-source").getAttribute("href")) ?? "";
    const source = new URL(href, SCRIPTED_URL);
    expect(source.pathname).toBe(`/c/${sessionId}`);
    const history = (await (await page.request.get(`/api/sessions/${sessionId}`)).json()) as {
      messages: { id: string; role: string; text: string }[];
    };
    expect(history.messages.find((m) => m.id === source.searchParams.get("message"))).toMatchObject({
      role: "user",
      text: remember("I live in Lisbon"),
    });

    // Inline edit: Enter saves, Escape cancels, focus goes back to Edit either way.
    const amber = item("amber");
    await amber.getByTestId("memory-edit").click();
    const field = page.getByTestId("memory-edit-input");
    await expect(field).toBeFocused();
    await field.fill("My favourite colour is dark amber");
    await field.press("Enter");
    await expect(page.getByTestId("memory-edit-input")).toHaveCount(0);
    const edited = item("dark amber");
    await expect(edited.getByTestId("memory-edit")).toBeFocused();
    await expect(items.getByTestId("memory-text")).toHaveText([
      "My favourite colour is dark amber",
      /Lisbon/,
    ]);
    await page.keyboard.press("Enter");
    await expect(field).toBeFocused();
    await field.fill("something else");
    await field.press("Escape");
    await expect(edited.getByTestId("memory-edit")).toBeFocused();
    await page.reload();
    await expect(items.getByTestId("memory-text")).toHaveText([
      "My favourite colour is dark amber",
      /Lisbon/,
    ]);

    // The replaced fact shows on demand, marked as such.
    await page.getByTestId("memory-show-replaced").check();
    await expect(items).toHaveCount(3);
    const teal = item("teal");
    await expect(teal).toHaveAttribute("data-replaced", "true");
    await expect(teal.getByTestId("memory-replaced")).toBeVisible();
    await expect(teal.getByTestId("memory-edit")).toHaveCount(0);

    // Deleting the newest version takes the version it replaced with it; cancelling first changes nothing.
    await edited.getByTestId("memory-delete").click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await expect(items).toHaveCount(3);
    await edited.getByTestId("memory-delete").click();
    await page.getByRole("dialog").getByTestId("confirm-button").click();
    await expect(page.getByTestId("memory-status")).toContainText("1 earlier version");
    await expect(items.getByTestId("memory-text")).toHaveText([/Lisbon/]);
    const left = (await (await page.request.get("/api/memories?include=superseded")).json()) as {
      memories: { text: string }[];
    };
    expect(left.memories.map((m) => m.text)).toEqual([expect.stringMatching(/Lisbon/)]);
  });

  test("the admin's users table counts a user's memories; nothing to delete when there are none", async ({
    pageAs,
    createUser,
  }) => {
    const target = await createUser("no-facts");
    const admin = await pageAs(ADMIN);
    await admin.goto(`/admin/users?q=${encodeURIComponent(target.email)}`);
    const row = admin.locator(`[data-testid="admin-user-row"][data-email="${target.email}"]`);
    await expect(row.getByTestId("admin-user-memories")).toHaveText("0");
    await expect(row.getByTestId("user-delete-memories")).toBeDisabled();
  });
});

test("an admin deletes a user's memories after confirming; the count drops to zero", async ({
  page,
  user,
  pageAs,
}) => {
  const created = await page.request.post("/api/sessions", { data: { title: "Facts" } });
  const { session } = (await created.json()) as { session: { id: string } };
  const turn = await page.request.post(`/api/sessions/${session.id}/messages`, {
    data: { content: remember("My pin hint is OCELOT") },
  });
  expect(await turn.text()).toContain('"type":"done"');

  const admin = await pageAs(ADMIN);
  await admin.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  const row = admin.locator(`[data-testid="admin-user-row"][data-email="${user.email}"]`);
  await expect(row.getByTestId("admin-user-memories")).toHaveText("1");
  await row.getByTestId("user-delete-memories").click();
  await expect(admin.getByRole("dialog")).toContainText(user.email);
  await admin.getByRole("dialog").getByTestId("confirm-button").click();
  await expect(admin.getByTestId("admin-status")).toContainText(user.email);
  await expect(row.getByTestId("admin-user-memories")).toHaveText("0");
  expect((await (await page.request.get("/api/memories")).json()).memories).toEqual([]);
});

// Remember and recall end to end (the chat, the context inspector, deletion): e2e/long-term-recall.spec.ts.
