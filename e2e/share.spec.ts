import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import pg from "pg";
import { expectNoAxeViolations, forEachTheme } from "./a11y";
import { expect, MAIN_URL, test } from "./fixtures";

// Share links and temporary chats: a link opens signed out with the conversation's words and nothing of its
// memory, and is a 404 once revoked; a temporary chat is never listed and leaves no row behind once left.

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

async function noSidewaysScroll(page: Page, path: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(path);
  await expect(page.locator("h1").first()).toBeVisible();
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
}

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
  await noSidewaysScroll(visitor, path);

  await page.goto("/settings/shared");
  await expect(page.getByTestId("shared-row")).toHaveCount(1);
  await forEachTheme(page, () => expectNoAxeViolations(page));
  await page.getByTestId("shared-revoke").click();
  await expect(page.getByTestId("shared-empty")).toBeVisible();
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page, "/settings/shared");

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
  await expect.poll(() => rowsReferring([sessionId]), { timeout: 10_000 }).toEqual({});
  const again = await page.goto(`/c/${sessionId}`);
  expect(again?.status()).toBe(404);
});
