import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { ADMIN, AuthPage, expect, expectFitsPhone, MAIN_URL, rowsReferring, test } from "./fixtures";

// The account: profile, usage, deleting one's own account (nothing of it left, a receipt shown), and an
// administrator's password reset forcing a change at the next sign-in.

test("profile and usage: the name changes, usage shows the answers per model; axe finds nothing", async ({
  page,
  chat,
  user,
  pageAs,
}) => {
  // Six axe runs and eight page loads; as the first test of a run its servers are cold (60 s was not enough with
  // both databases' runs starting at once on a loaded machine).
  test.setTimeout(120_000);
  await chat.goto();
  await chat.send("Hello, reply only 'hi'");
  await page.goto("/settings");
  await forEachTheme(page, () => expectNoAxeViolations(page));
  await page.getByTestId("profile-name").fill("Renamed Person");
  await page.getByTestId("profile-submit").click();
  await expect(page.getByTestId("profile-done")).toBeVisible();
  await expect(page.getByTestId("current-user")).toHaveText("Renamed Person");
  // A new email asks for the current password.
  await page.getByTestId("profile-email").fill(`new-${user.email}`);
  await expect(page.getByTestId("profile-current-password")).toBeVisible();

  await page.goto("/settings/usage");
  await expect(page.getByTestId("usage-row")).toHaveCount(1);
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await forEachTheme(page, () => expectNoAxeViolations(page));

  const admin = await pageAs(ADMIN);
  await admin.goto("/admin/usage");
  await expect(admin.getByTestId("admin-usage-row").filter({ hasText: user.email })).toHaveCount(1);
  await forEachTheme(admin, () => expectNoAxeViolations(admin));

  // A phone: nothing scrolls sideways on the new pages.
  for (const [p, path] of [
    [page, "/settings"],
    [page, "/settings/usage"],
    [admin, "/admin/usage"],
  ] as const) {
    await expectFitsPhone(p, path);
  }
});

test("delete my account: a wrong password keeps it, the right one leaves no row of it and shows the receipt @pg", async ({
  page,
  chat,
  user,
}) => {
  await chat.goto();
  await chat.send("Remember that my favourite colour is teal");
  const sessionId = chat.sessionId() as string;
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user: { id: string } };
  const userId = session.user.id;

  await page.goto("/settings");
  await page.getByTestId("delete-account").click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByTestId("delete-account-password").fill("not-my-password");
  await dialog.getByTestId("confirm-button").click();
  await expect(dialog.getByTestId("delete-account-error")).toHaveText(/not right/);

  await dialog.getByTestId("delete-account-password").fill(user.password);
  const deleted = page.waitForResponse(
    (r) => r.url().endsWith("/api/me") && r.request().method() === "DELETE",
  );
  await dialog.getByTestId("confirm-button").click();
  expect((await deleted).status()).toBe(200);
  await expect(page.getByTestId("account-deleted")).toBeVisible();
  await expect(page.getByTestId("receipt-ChatSession")).toHaveText("1");
  await expect(page.getByTestId("receipt-User")).toHaveText("1");

  expect(await rowsReferring([userId, sessionId])).toEqual({});
  await page.getByTestId("account-deleted-sign-in").click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login(\?|$)/);
});

test("an administrator's password reset signs the user out and forces a change at the next sign-in", async ({
  page,
  user,
  pageAs,
  browser,
}) => {
  await page.goto("/");
  const admin = await pageAs(ADMIN);
  await admin.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  const row = admin.locator(`[data-testid="admin-user-row"][data-email="${user.email}"]`);
  await row.getByTestId("user-reset-password").click();
  await admin.getByTestId("confirm-dialog").getByTestId("confirm-button").click();
  const oneTime = (await admin.getByTestId("admin-one-time-password").textContent())?.trim() ?? "";
  expect(oneTime).toMatch(/^[A-Za-z0-9_-]{16}$/);

  await page.reload();
  await expect(page).toHaveURL(/\/login(\?|$)/);

  const context = await browser.newContext({ baseURL: MAIN_URL });
  const fresh = await context.newPage();
  await new AuthPage(fresh).login({ email: user.email, password: oneTime });
  await expect(fresh).toHaveURL(/\/settings\/password$/);
  await expect(fresh.getByTestId("password-required")).toBeVisible();
  await expectNoAxeViolations(fresh);
  await fresh.goto("/memory");
  await expect(fresh).toHaveURL(/\/settings\/password$/);

  await fresh.getByLabel("Current password", { exact: true }).fill(oneTime);
  await fresh.getByLabel("New password", { exact: true }).fill("my-own-new-password");
  await fresh.getByLabel("Repeat the new password").fill("my-own-new-password");
  await fresh.getByTestId("password-submit").click();
  await expect(fresh.getByTestId("password-done")).toBeVisible();
  await expect(fresh.getByTestId("password-required")).toHaveCount(0);
  await fresh.goto("/memory");
  await expect(fresh).toHaveURL(/\/memory$/);
  await context.close();
});
