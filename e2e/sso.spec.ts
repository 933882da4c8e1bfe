import { type ChildProcess, spawn } from "node:child_process";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { OIDC_ISSUER, OIDC_TEST_CLIENT, SSO_PORT, SSO_URL } from "./config";
import { AuthPage, expect, expectNoSidewaysScroll, newCredentials, test, useExtraServer } from "./fixtures";

// Single sign-on against a real OpenID Connect provider (oidc-provider, scripts/e2e-oidc.ts) on loopback, with a
// server of this spec's own configured for it (the other specs' servers have no OIDC_*): a new user gets an
// account (REGISTRATION=open), a password user with the same verified e-mail is linked to their own account, and an
// unverified e-mail is refused with a clear error. docs/decisions/035-oidc.md. The tests tagged @pg also run on
// PostgreSQL (the accounts and their links live in the database).

const PROVIDER_NAME = "Test IdP";

let provider: ChildProcess | undefined;

/** Starts the test provider and waits until it prints that it listens (it refuses a port already in use). */
async function startProvider(): Promise<ChildProcess> {
  const answers = await fetch(`${OIDC_ISSUER}/.well-known/openid-configuration`).then(
    () => true,
    () => false,
  );
  if (answers) throw new Error(`Something already answers on ${OIDC_ISSUER}; stop it first.`);
  const child = spawn("node_modules/.bin/tsx", ["scripts/e2e-oidc.ts"], {
    env: { ...process.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the test provider did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening ${OIDC_ISSUER}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the test provider exited (${code}):\n${output}`));
    });
  });
  return child;
}

const ssoButton = (page: Page) => page.getByRole("button", { name: `Sign in with ${PROVIDER_NAME}` });

/**
 * From the sign-in page (or the sign-up page), by keyboard: Tab past the password form to the provider's button,
 * Enter.
 */
async function startSso(page: Page, from: "/login" | "/register" = "/login") {
  await page.goto(from);
  await page.getByRole("link", { name: from === "/login" ? "Create one" : "Sign in" }).focus();
  await page.keyboard.press("Tab");
  await expect(ssoButton(page)).toBeFocused();
  await page.keyboard.press("Enter");
}

/** The test provider's page: the e-mail it vouches for, and whether it says it is verified. */
async function atProvider(page: Page, email: string, { verified }: { verified: boolean }) {
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Email verified").setChecked(verified);
  await page.getByRole("button", { name: "Continue" }).click();
}

/** Signs the browser out of the test provider (its cookies; the app's, on the same host, stay). */
async function forgetProviderSession(page: Page) {
  await page.context().clearCookies({ name: /^_(session|interaction|resume)/ });
}

test.describe("single sign-on with a real OpenID Connect provider", () => {
  // Declared before useExtraServer's hooks: the provider is up before the app server starts.
  test.beforeAll(async () => {
    provider = await startProvider();
  });
  test.afterAll(async () => {
    const child = provider;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  useExtraServer(SSO_PORT, {
    OIDC_ISSUER,
    OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    OIDC_NAME: PROVIDER_NAME,
    NEXTAUTH_URL: SSO_URL,
    REGISTRATION: "open",
  });

  test("the sign-in page offers the provider: axe-clean light and dark, no sideways scroll at 390 px", async ({
    page,
  }) => {
    await page.goto("/login?error=sso_email_unverified");
    await forEachTheme(
      page,
      async () => {
        await expect(ssoButton(page)).toBeVisible();
        await expect(page.getByTestId("form-error")).toContainText("(sso_email_unverified)");
        await expectNoAxeViolations(page);
      },
      SSO_URL,
    );
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/login");
    await expect(ssoButton(page)).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test("the sign-up page offers the provider too, and a new user gets an account from there @pg", async ({
    page,
  }) => {
    await page.goto("/register");
    await forEachTheme(
      page,
      async () => {
        await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
        await expect(ssoButton(page)).toBeVisible();
        await expectNoAxeViolations(page);
      },
      SSO_URL,
    );
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    await expect(ssoButton(page)).toBeVisible();
    await expectNoSidewaysScroll(page);

    const { email } = newCredentials("sso-signup");
    await startSso(page, "/register");
    await atProvider(page, email, { verified: true });
    await expect(page).toHaveURL(`${SSO_URL}/`);
    await expect(new AuthPage(page).currentUser).toHaveText(`SSO ${email.split("@")[0]}`);
  });

  test("a new user signs in with the provider and gets an account @pg", async ({ page }) => {
    const { email } = newCredentials("sso-new");
    await startSso(page);
    await atProvider(page, email, { verified: true });
    await expect(page).toHaveURL(`${SSO_URL}/`);
    // The provider's name for the user (scripts/e2e-oidc.ts: "SSO <local part>").
    await expect(new AuthPage(page).currentUser).toHaveText(`SSO ${email.split("@")[0]}`);
    const session = (await (await page.request.get("/api/auth/session")).json()) as {
      user?: { email?: string };
    };
    expect(session.user?.email).toBe(email);

    // Signed out and in again: the provider still knows this browser and sends it straight back, to the same
    // account (linked by the provider's subject).
    await new AuthPage(page).signOut();
    await startSso(page);
    await expect(page).toHaveURL(`${SSO_URL}/`);
    await expect(new AuthPage(page).currentUser).toHaveText(`SSO ${email.split("@")[0]}`);
  });

  test("a password user with the same verified e-mail is linked: same account, their conversations @pg", async ({
    page,
    createUser,
    apiAs,
  }) => {
    const creds = await createUser("sso-linked");
    const api = await apiAs(creds);
    const title = `Notes from before SSO ${Date.now()}`;
    const created = await api.post("/api/sessions", { data: { title } });
    expect(created.status()).toBe(201);

    await startSso(page);
    await atProvider(page, creds.email, { verified: true });
    await expect(page).toHaveURL(`${SSO_URL}/`);
    await expect(new AuthPage(page).currentUser).toHaveText(creds.name);
    await expect(page.getByTestId("session-list")).toContainText(title);

    // The password keeps working for the same account.
    await new AuthPage(page).signOut();
    await new AuthPage(page).login(creds);
    await expect(page).toHaveURL(`${SSO_URL}/`);
    await expect(page.getByTestId("session-list")).toContainText(title);
  });

  test("an unverified e-mail is refused with a clear error and links nothing @pg", async ({
    page,
    createUser,
  }) => {
    const creds = await createUser("sso-unverified");
    await startSso(page);
    await atProvider(page, creds.email, { verified: false });
    await expect(page).toHaveURL(/\/login\?error=sso_email_unverified$/);
    const error = page.getByTestId("form-error");
    await expect(error).toContainText("did not confirm that this email address is verified");
    await expect(error).toContainText("(sso_email_unverified)");
    await expect(ssoButton(page)).toBeVisible();

    // Not signed in.
    await page.goto("/");
    await expect(page).toHaveURL(/\/login(\?|$)/);

    // A new, unverified e-mail gets no account either (the provider forgets the first sign-in).
    const stranger = newCredentials("sso-stranger").email;
    await forgetProviderSession(page);
    await startSso(page);
    await atProvider(page, stranger, { verified: false });
    await expect(page).toHaveURL(/\/login\?error=sso_email_unverified$/);
  });
});
