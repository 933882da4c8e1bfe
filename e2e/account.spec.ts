import Database from "better-sqlite3";
import pg from "pg";
import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { ADMIN, AuthPage, expect, MAIN_URL, test } from "./fixtures";

// The account: profile, usage, deleting one's own account (nothing of it left, a receipt shown), and an
// administrator's password reset forcing a change at the next sign-in.

const DATABASE_URL = process.env.E2E_DATABASE_URL ?? "";

/** Rows of any table with a column holding one of `ids` (the audit entry's target aside), on either database. */
async function rowsReferring(ids: string[]): Promise<Record<string, number>> {
  const sqlite = DATABASE_URL.startsWith("file:");
  const columnsSql = sqlite
    ? `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) p
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_prisma_migrations'`
    : `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`;
  let query: (sql: string, args: string[]) => Promise<Record<string, unknown>[]>;
  let close: () => Promise<void>;
  if (sqlite) {
    const conn = new Database(DATABASE_URL.replace(/^file:/, ""), { readonly: true });
    query = async (sql, args) => conn.prepare(sql).all(...args) as Record<string, unknown>[];
    close = async () => void conn.close();
  } else {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    query = async (sql, args) => {
      let i = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++i}`),
          args,
        )
      ).rows;
    };
    close = () => client.end();
  }
  try {
    const byTable = new Map<string, string[]>();
    for (const r of await query(columnsSql, [])) {
      const [table, column] = [String(r.table), String(r.column)];
      if (table === "AuditLog" && column === "targetId") continue;
      byTable.set(table, [...(byTable.get(table) ?? []), column]);
    }
    expect(byTable.has("ChatMessage")).toBe(true);
    const out: Record<string, number> = {};
    for (const [table, cols] of byTable) {
      const where = cols.flatMap((c) => ids.map(() => `CAST("${c}" AS TEXT) LIKE ?`)).join(" OR ");
      const args = cols.flatMap(() => ids.map((id) => `%${id}%`));
      const [row] = await query(`SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`, args);
      if (Number(row?.n) > 0) out[table] = Number(row?.n);
    }
    return out;
  } finally {
    await close();
  }
}

test("profile and usage: the name changes, usage shows the answers per model; axe finds nothing", async ({
  page,
  chat,
  user,
  pageAs,
}) => {
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
    await p.setViewportSize({ width: 390, height: 844 });
    await p.goto(path);
    await expect(p.locator("h1").first()).toBeVisible();
    const overflow = await p.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
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
