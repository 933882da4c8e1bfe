import { request as playwrightRequest } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { errorCode, expect, expectNoSidewaysScroll, MAIN_URL, signInViaApi, test } from "./fixtures";

// Settings → Password: a change signs out every other browser at once, keeps this one signed in, and keeps
// API keys working unless the user also revokes them.

async function newApiKey(api: import("@playwright/test").APIRequestContext) {
  const res = await api.post("/api/keys", { data: { name: "script" } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

async function keyWorks(key: string): Promise<boolean> {
  const client = await playwrightRequest.newContext({ baseURL: MAIN_URL });
  try {
    const res = await client.get("/v1/models", { headers: { authorization: `Bearer ${key}` } });
    return res.ok();
  } finally {
    await client.dispose();
  }
}

test("changing the password signs out the other browser on its next request, not this one @pg", async ({
  page,
  user,
  pageAs,
  apiAs,
}) => {
  const other = await pageAs(user);
  await other.goto("/");
  await expect(other.getByTestId("composer-input")).toBeVisible();
  const key = await newApiKey(await apiAs(user));

  await page.goto("/settings");
  await page.getByTestId("settings-password").click();
  await expect(page).toHaveURL(/\/settings\/password$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Password");
  await expectNoAxeViolations(page);

  // A wrong current password: a message, and nothing changed anywhere.
  await page.getByLabel("Current password", { exact: true }).fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password");
  await page.getByLabel("Repeat the new password").fill("a-brand-new-password");
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/me/password"));
  await page.getByTestId("password-submit").click();
  expect((await refused).status()).toBe(403);
  await expect(page.getByTestId("password-error")).toHaveText(/current password is not right/);
  await other.reload();
  await expect(other.getByTestId("composer-input")).toBeVisible();

  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  const changed = page.waitForResponse((r) => r.url().endsWith("/api/me/password"));
  await page.getByTestId("password-submit").click();
  expect((await changed).status()).toBe(200);
  await expect(page.getByTestId("password-done")).toContainText("Every other sign-in has been signed out");

  // This browser stays signed in; the other one is sent to the login page on its next request.
  await page.goto("/");
  await expect(page.getByTestId("composer-input")).toBeVisible();
  await other.reload();
  await expect(other).toHaveURL(/\/login(\?|$)/);
  expect(await keyWorks(key)).toBe(true);

  // The new password signs in; the old one does not.
  const fresh = await playwrightRequest.newContext({
    baseURL: MAIN_URL,
    extraHTTPHeaders: { origin: MAIN_URL },
  });
  await signInViaApi(fresh, { email: user.email, password: "a-brand-new-password" });
  await fresh.dispose();
  const stale = await playwrightRequest.newContext({ baseURL: MAIN_URL });
  const csrf = (await (await stale.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await stale.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken: csrf.csrfToken, json: "true" },
  });
  expect(((await (await stale.get("/api/auth/session")).json()) as { user?: unknown }).user).toBeUndefined();
  await stale.dispose();
});

test("“Also revoke my API keys” revokes them with the password change", async ({ page, user, apiAs }) => {
  const key = await newApiKey(await apiAs(user));
  expect(await keyWorks(key)).toBe(true);
  await page.goto("/settings/password");
  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("another-new-password");
  await page.getByLabel("Repeat the new password").fill("another-new-password");
  await page.getByLabel("Also revoke my API keys").check();
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-done")).toContainText("1 API key was revoked");
  expect(await keyWorks(key)).toBe(false);
  const res = await page.request.get("/api/keys");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual([]);
});

test("two different new passwords are caught before anything is sent", async ({ page, user }) => {
  await page.goto("/settings/password");
  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("first-new-password");
  await page.getByLabel("Repeat the new password").fill("second-new-password");
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-error")).toHaveText("The two new passwords are not the same.");
  const res = await page.request.post("/api/me/password", {
    data: { currentPassword: user.password, newPassword: "x" },
    headers: { origin: MAIN_URL },
  });
  expect(res.status()).toBe(422);
  expect(await errorCode(res)).toBe("validation_failed");
});

test("the password page: axe finds nothing in light and dark, with its error shown; nothing scrolls sideways at 390 px", async ({
  page,
  user,
}) => {
  await page.goto("/settings/password");
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "recall-theme", value: theme, url: MAIN_URL }]);
    await page.reload();
    await page.getByLabel("Current password", { exact: true }).fill(user.password);
    await page.getByLabel("New password", { exact: true }).fill("first-new-password");
    await page.getByLabel("Repeat the new password").fill("second-new-password");
    await page.getByTestId("password-submit").click();
    await expect(page.getByTestId("password-error")).toBeVisible();
    await expectNoAxeViolations(page, `axe (${theme})`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Password");
  await expectNoSidewaysScroll(page, "/settings/password");
});
