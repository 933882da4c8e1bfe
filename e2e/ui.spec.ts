import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import {
  ADMIN,
  type ChatPage,
  e2ePort,
  expect,
  expectNoSidewaysScroll,
  MAIN_URL,
  newCredentials,
  test,
  useExtraServer,
} from "./fixtures";

// Themes, keyboard and screen readers, the phone layout. axe-core checks every page in both themes;
// the screenshots in docs/screenshots/ come from here.

const THEME_COOKIE = "recall-theme";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// The committed screenshots are refreshed on demand (`npm run screenshots`); ordinary runs write to test-results/,
// so a test run never changes tracked files (the benchmark after it refuses a tree that changed since its build).
const SHOTS = process.env.E2E_SCREENSHOTS === "1" ? "docs/screenshots" : "test-results/screenshots";

async function setThemeCookie(page: Page, theme: "light" | "dark") {
  await page.context().addCookies([{ name: THEME_COOKIE, value: theme, url: MAIN_URL }]);
}

/** A finished two-turn conversation through the UI, with a long unbroken word; returns its id. */
async function conversation(chat: ChatPage, first = "My name is Ada. Remember it and reply only 'noted'") {
  await chat.goto();
  await chat.send(first);
  await chat.send(`What is my name? Also: ${"unbroken".repeat(40)}`);
  return chat.sessionId() as string;
}

test.describe("themes", () => {
  test("the user menu switches light, dark and system; the choice is remembered and rendered by the server", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    const html = page.locator("html");
    await expect(html).toHaveClass(/\bsystem\b/);
    await page.getByTestId("theme-switch").getByText("Dark").click();
    await expect(html).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem("recall:theme"))).toBe("dark");
    const cookie = (await page.context().cookies()).find((c) => c.name === THEME_COOKIE);
    expect(cookie?.value).toBe("dark");
    // The server sends the class in the HTML itself: the first paint is dark, with no script.
    const served = await (await page.request.get("/")).text();
    expect(served).toMatch(/<html[^>]*class="dark /);
    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgb(250, 250, 250)");
    await page.getByTestId("theme-switch").getByText("Light").click();
    await expect(html).toHaveClass(/\blight\b/);
  });

  for (const theme of ["light", "dark"] as const) {
    test(`axe finds nothing on the chat, sign-in, registration and admin pages (${theme})`, async ({
      page,
      chat,
      user,
      pageAs,
      browser,
    }) => {
      void user;
      test.setTimeout(90_000);
      await setThemeCookie(page, theme);
      const sessionId = await conversation(chat);
      await chat.goto(sessionId);
      await chat.openContext();
      await expectNoAxeViolations(page);
      await chat.goto();
      await expectNoAxeViolations(page);

      // A tool step, expanded, and the user's own pages.
      await chat.goto(sessionId);
      await chat.send("Remember that my favourite colour is teal");
      await chat.assistantItems.last().getByTestId("tool-step").locator("summary").click();
      await expectNoAxeViolations(page);
      for (const path of ["/memory", "/settings/keys"]) {
        await page.goto(path);
        await expect(page.locator("h1")).toHaveCount(1);
        await expectNoAxeViolations(page);
      }

      const anonymous = await browser.newContext({ baseURL: MAIN_URL });
      await anonymous.addCookies([{ name: THEME_COOKIE, value: theme, url: MAIN_URL }]);
      const visitor = await anonymous.newPage();
      for (const path of ["/login", "/register"]) {
        await visitor.goto(path);
        await expect(visitor.locator("h1")).toHaveCount(1);
        await expectNoAxeViolations(visitor);
      }
      await anonymous.close();

      const admin = await pageAs(ADMIN);
      await setThemeCookie(admin, theme);
      for (const path of [
        "/admin",
        "/admin/sessions",
        `/admin/sessions/${sessionId}`,
        "/admin/users",
        "/admin/invites",
        "/admin/audit",
      ]) {
        await admin.goto(path);
        await expect(admin.locator("h1").first()).toBeVisible();
        await expectNoAxeViolations(admin);
      }
    });
  }
});

test.describe("keyboard and screen readers", () => {
  test("focus starts in the composer, messages are labelled by speaker, one h1, and shortcuts are listed", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await expect(chat.input).toBeFocused();
    await expect(page.locator("h1")).toHaveCount(1);
    await chat.send("Hello there, reply only 'hi'");
    await expect(chat.input).toBeFocused();
    await expect(page.getByRole("article", { name: "You" })).toHaveCount(1);
    await expect(page.getByRole("article", { name: "Recall" })).toHaveCount(1);
    await expect(page.locator("h1")).toHaveCount(1);

    // Shortcuts: the help dialog, "/" back to the composer, Ctrl+Shift+O a new chat.
    await page.getByTestId("shortcuts-button").click();
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    await expect(help).toContainText("New chat");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
    await expect(page.getByTestId("shortcuts-button")).toBeFocused();
    await page.keyboard.press("/");
    await expect(chat.input).toBeFocused();
    await page.keyboard.press("Control+Shift+O");
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.emptyState).toBeVisible();
    await expect(chat.input).toBeFocused();

    // The skip link is the first stop on the page, and it moves focus to the content.
    const firstStop = await page.evaluate(
      () =>
        document.querySelector<HTMLElement>(
          'a[href], button:not([disabled]), input:not([type="hidden"]), textarea, select, [tabindex]:not([tabindex="-1"])',
        )?.textContent,
    );
    expect(firstStop).toBe("Skip to content");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await skip.focus();
    await expect(skip).toBeVisible();
    await skip.press("Enter");
    await expect(page.locator("#main")).toBeFocused();
  });

  test("Escape closes the context panel and gives focus back to its button", async ({ page, chat, user }) => {
    void user;
    await chat.goto();
    await chat.send("Remember the word teal and reply only 'noted'");
    const { panel } = await chat.openContext();
    await panel.getByTestId("context-entry").first().click();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(chat.assistantItems.last().getByTestId("context-button")).toBeFocused();
  });

  test("an example prompt fills the composer", async ({ chat, user }) => {
    void user;
    await chat.goto();
    await chat.emptyState.getByTestId("example-prompt").first().click();
    await expect(chat.input).not.toHaveValue("");
    await expect(chat.input).toBeFocused();
  });

  test("focus returns to Rename after renaming or Escape, and to Delete after Escape in its dialog", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await chat.send("Hello there, reply only 'hi'");
    const row = page.getByTestId("session-list").locator("li").first();
    const rename = row.getByRole("button", { name: /^Rename / });
    const del = row.getByTestId("delete-session");

    await row.getByTestId("session-link").focus();
    await rename.click();
    const field = row.getByRole("textbox", { name: "Conversation title" });
    await expect(field).toBeFocused();
    await field.fill("Renamed from the keyboard");
    await field.press("Enter");
    await expect(row.getByTestId("session-link")).toHaveText("Renamed from the keyboard");
    await expect(rename).toBeFocused();

    await rename.press("Enter");
    await expect(field).toBeFocused();
    await field.press("Escape");
    await expect(field).toBeHidden();
    await expect(rename).toBeFocused();

    await del.click();
    const dialog = page.getByRole("dialog", { name: "Delete this conversation?" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(del).toBeFocused();
    await expect(row.getByTestId("session-link")).toHaveText("Renamed from the keyboard");
  });

  test("a failed sign-in puts the cursor where the fix goes; after sign-up the composer has focus", async ({
    page,
    auth,
    createUser,
  }) => {
    const creds = await createUser("focus");
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(auth.formError).toHaveText("Enter your email and password.");
    await expect(auth.email).toBeFocused();

    await auth.email.fill(creds.email);
    await auth.password.fill("not-the-password");
    await auth.password.press("Enter");
    await expect(auth.formError).toHaveText("Wrong email or password.");
    await expect(auth.password).toBeFocused();

    await auth.register(newCredentials("signup-focus"));
    await expect(page.getByTestId("composer-input")).toBeFocused();
  });
});

test.describe("typing while an answer streams", () => {
  // A server of its own whose offline model writes one word every 200 ms, so there is time to type.
  useExtraServer(e2ePort("E2E_UI_SLOW_PORT"), { OFFLINE_MODEL_TOKEN_DELAY_MS: "200" });

  test("the text is kept, Enter waits for the answer, and it is sent after; focus stays in the composer", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(60_000);
    await chat.goto();
    await chat.submit("Tell me a long story about a lighthouse keeper and the sea");
    const answer = chat.assistantItems.last();
    await expect(answer).toHaveAttribute("data-status", "streaming");
    await expect(chat.stopButton).toBeVisible();
    await expect(chat.input).toBeFocused();
    const next = "And what happened to the lighthouse afterwards?";
    await page.keyboard.type(next);
    await page.keyboard.press("Enter"); // ignored while the answer is written
    await expect(chat.input).toHaveValue(next);
    await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(chat.input).toHaveValue(next);
    await expect(chat.input).toBeFocused();
    await chat.input.press("Enter");
    await expect(chat.items).toHaveCount(4);
    await expect(chat.items.nth(2).getByTestId("message-text")).toHaveText(next);
    await expect(chat.input).toHaveValue("");
    await chat.stopButton.click();
  });
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: PHONE });

  test("the sidebar is a drawer: open it, switch conversation, send; nothing scrolls sideways", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    test.setTimeout(60_000);
    const first = await conversation(chat, "First chat: remember the colour red and reply only 'noted'");
    await chat.page.goto("/");
    await chat.send("Second chat: remember the colour blue and reply only 'noted'");
    await expectNoSidewaysScroll(page);

    await expect(chat.sidebar).toBeHidden();
    await page.getByTestId("menu-button").click();
    await expect(chat.sidebar).toBeVisible();
    await chat.sidebar.locator(`a[href="/c/${first}"]`).click();
    await expect(page).toHaveURL(`/c/${first}`);
    await expect(chat.sidebar).toBeHidden();
    await expect(chat.items).toHaveCount(4);
    await expectNoSidewaysScroll(page);

    const answer = await chat.send("What colour did I ask you to remember?");
    expect(answer.status).toBe("complete");
    await expect(chat.items).toHaveCount(6);
    await expectNoSidewaysScroll(page);

    // Escape closes the drawer and focus returns to the menu button.
    await page.getByTestId("menu-button").click();
    await expect(chat.sidebar).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(chat.sidebar).toBeHidden();
    await expect(page.getByTestId("menu-button")).toBeFocused();
  });

  test("sign-in, registration and every admin page fit the width", async ({ page, chat, user, pageAs }) => {
    void user;
    const sessionId = await conversation(chat);
    const admin = await pageAs(ADMIN);
    await admin.setViewportSize(PHONE);
    for (const path of [
      "/admin",
      "/admin/sessions",
      `/admin/sessions/${sessionId}`,
      "/admin/users",
      "/admin/invites",
      "/admin/audit",
    ]) {
      await admin.goto(path);
      await expectNoSidewaysScroll(admin);
    }
    await page.context().clearCookies();
    for (const path of ["/login", "/register"]) {
      await page.goto(path);
      await expectNoSidewaysScroll(page);
    }
  });
});

test("screenshots of chat and admin, light and dark, desktop and phone", async ({
  page,
  chat,
  user,
  pageAs,
}) => {
  void user;
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const sessionId = await conversation(
    chat,
    "Plan a three-day trip to Lisbon as a table, and remember my name is Ada",
  );
  const admin = await pageAs(ADMIN);
  for (const theme of ["light", "dark"] as const) {
    for (const [size, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      await setThemeCookie(page, theme);
      await page.setViewportSize(viewport);
      await chat.goto(sessionId);
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await page.screenshot({ path: `${SHOTS}/chat-${theme}-${size}.png` });
      await setThemeCookie(admin, theme);
      await admin.setViewportSize(viewport);
      await admin.goto(`/admin/sessions/${sessionId}`);
      await expect(admin.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await admin.screenshot({ path: `${SHOTS}/admin-${theme}-${size}.png` });
    }
  }
});
