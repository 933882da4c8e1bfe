import { ADMIN, errorCode, expect, newCredentials, test } from "./fixtures";

test.describe("accounts", () => {
  test("register, sign out and sign in again", async ({ page, auth }) => {
    const creds = newCredentials("newcomer");
    await auth.register(creds);
    await expect(page).toHaveURL(/\/$/);
    await expect(auth.currentUser).toHaveText(creds.name);

    await auth.signOut();
    // Signed out for real: the chat sends us back to the login page.
    await page.goto("/");
    await expect(page).toHaveURL(/\/login(\?|$)/);

    await auth.login(creds);
    await expect(page).toHaveURL(/\/$/);
    await expect(auth.currentUser).toHaveText(creds.name);
  });

  test("a wrong password gets a clear message and no session", async ({ page, auth, createUser }) => {
    const creds = await createUser("forgetful");
    await auth.login({ email: creds.email, password: `${creds.password}-wrong` });
    await expect(auth.formError).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/login(\?|$)/);
    const session = await (await page.request.get("/api/auth/session")).json();
    expect(session).toEqual({});

    // An unknown account gets the same message: the form does not reveal which emails exist.
    await auth.login({ email: newCredentials("nobody").email, password: creds.password });
    await expect(auth.formError).toHaveText("Wrong email or password.");
  });

  test("anonymous visitors are sent to the login page and the API refuses them", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(page.locator("#email")).toBeVisible();

    await page.goto("/c/some-session");
    await expect(page).toHaveURL(/\/login\?/);

    const list = await request.get("/api/sessions");
    expect(list.status()).toBe(401);
    expect(await errorCode(list)).toBe("unauthorized");

    const post = await request.post("/api/sessions/some-session/messages", { data: { content: "hello" } });
    expect(post.status()).toBe(401);
  });

  test("a USER opening /admin gets not found", async ({ page, user }) => {
    await page.goto("/");
    await expect(page.getByTestId("current-user")).toHaveText(user.name);
    const res = await page.goto("/admin");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await expect(page.getByTestId("admin-title")).toHaveCount(0);
  });

  test("the admin created by setup signs in and sees the admin console", async ({ page, auth }) => {
    await auth.login(ADMIN);
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/admin");
    await expect(page.getByTestId("admin-title")).toBeVisible();
  });
});
