import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { ADMIN, type ChatPage, type Credentials, errorCode, expect, test } from "./fixtures";

const PHRASE = "青云-4173";
const REMEMBER = `Memory check: remember the phrase ${PHRASE} and reply only 'noted'`;
const ASK = "What phrase did I ask you to remember?";

/** The admin console: /admin/sessions, /admin/sessions/:id, /admin/users, /admin/audit. */
class AdminPage {
  readonly sessionRows: Locator;
  readonly messages: Locator;
  readonly receipt: Locator;

  constructor(readonly page: Page) {
    this.sessionRows = page.getByTestId("admin-session-row");
    this.messages = page.getByTestId("admin-message");
    this.receipt = page.getByTestId("deletion-receipt");
  }

  sessionRow(sessionId: string): Locator {
    return this.page.locator(`[data-testid="admin-session-row"][data-session-id="${sessionId}"]`);
  }

  userRow(email: string): Locator {
    return this.page.locator(`[data-testid="admin-user-row"][data-email="${email}"]`);
  }

  async searchSessions(q: string) {
    await this.page.goto("/admin/sessions");
    await this.page.getByTestId("admin-search").fill(q);
    await this.page.getByTestId("admin-search").press("Enter");
    await expect(this.page).toHaveURL(/\/admin\/sessions\?q=/);
  }

  /** Every message shown on a session page, in page order. */
  async shownMessages() {
    return this.messages.evaluateAll((nodes) =>
      nodes.map((n) => ({ role: n.getAttribute("data-role"), seq: Number(n.getAttribute("data-seq")) })),
    );
  }

  /** Opens the recorded context of the `index`-th assistant message and returns its entries in order. */
  async openContext(index: number) {
    const answer = this.page.locator('[data-testid="admin-message"][data-role="assistant"]').nth(index);
    await answer.getByTestId("admin-context-button").click();
    const panel = answer.getByTestId("context-panel");
    await expect(panel.getByTestId("context-summary")).toBeVisible();
    return panel.getByTestId("context-entry").evaluateAll((nodes) =>
      nodes.map((n) => ({
        source: n.getAttribute("data-source"),
        seq: n.getAttribute("data-seq") ? Number(n.getAttribute("data-seq")) : null,
      })),
    );
  }

  /** Confirms the open ConfirmDialog. */
  async confirm() {
    const dialog = this.page.getByTestId("confirm-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("confirm-button").click();
  }
}

/**
 * A two-turn conversation of the user signed in on `request`, through the same HTTP surface the chat UI uses
 * (the chat UI itself is covered by chat.spec.ts). Returns the session id.
 */
async function twoTurns(request: APIRequestContext): Promise<string> {
  const created = await request.post("/api/sessions", { data: { title: "Memory check" } });
  expect(created.status()).toBe(201);
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  for (const content of [REMEMBER, ASK]) {
    const res = await request.post(`/api/sessions/${sessionId}/messages`, { data: { content } });
    expect(res.status()).toBe(200);
    const stream = await res.text(); // the whole event stream: the turn is committed when it ends
    expect(stream).toContain('"type":"done"');
    if (content === ASK) expect(stream).toContain(PHRASE);
  }
  return sessionId;
}

/** Reloads the chat and waits for the sidebar's list request, so an absent link means absent, not loading. */
async function sidebarAfterReload(chat: ChatPage) {
  const listed = chat.page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/sessions" && r.request().method() === "GET",
  );
  await chat.goto();
  expect((await listed).status()).toBe(200);
}

test.describe("admin console", () => {
  test("reviews a user's conversation with its recorded context, deletes it with a receipt, and it is gone everywhere", async ({
    page,
    chat,
    user,
    pageAs,
  }) => {
    const sessionId = await twoTurns(page.request);
    await chat.goto(sessionId);
    await expect(chat.items).toHaveCount(4);
    await expect(chat.sidebar.locator(`a[href="/c/${sessionId}"]`)).toBeVisible();

    const admin = new AdminPage(await pageAs(ADMIN));

    // The session is in the admin list, found by its owner's email, with its message count.
    await admin.searchSessions(user.email);
    await expect(admin.sessionRow(sessionId)).toBeVisible();
    await expect(admin.sessionRow(sessionId).getByTestId("admin-session-count")).toHaveText("4");
    await expect(admin.sessionRow(sessionId)).toContainText(user.email);

    // Its page shows exactly the four messages, in order, all in memory (the window is 20).
    await admin.sessionRow(sessionId).getByTestId("admin-session-link").click();
    await expect(admin.page).toHaveURL(`/admin/sessions/${sessionId}`);
    await expect(admin.messages).toHaveCount(4);
    expect(await admin.shownMessages()).toEqual([
      { role: "user", seq: 1 },
      { role: "assistant", seq: 2 },
      { role: "user", seq: 3 },
      { role: "assistant", seq: 4 },
    ]);
    await expect(admin.messages.nth(0).getByTestId("admin-message-text")).toHaveText(REMEMBER);
    await expect(admin.messages.nth(3).getByTestId("admin-message-text")).toContainText(PHRASE);
    await expect(admin.page.locator('[data-testid="admin-message"][data-in-memory="true"]')).toHaveCount(4);
    await expect(admin.page.getByTestId("snapshot-item")).toHaveCount(4);

    // The recorded context of turn 2: system prompt, both messages of turn 1, then the question.
    expect(await admin.openContext(1)).toEqual([
      { source: "system", seq: null },
      { source: "history", seq: 1 },
      { source: "history", seq: 2 },
      { source: "current", seq: 3 },
    ]);

    // Delete, with confirmation, and read the receipt.
    await admin.page.getByTestId("admin-delete-session").click();
    await expect(admin.page.getByTestId("confirm-dialog")).toContainText("cannot be undone");
    await admin.confirm();
    await expect(admin.receipt).toBeVisible();
    await expect(admin.receipt.getByTestId("receipt-ChatSession")).toHaveText("1");
    await expect(admin.receipt.getByTestId("receipt-ChatMessage")).toHaveText("4");
    await expect(admin.receipt.getByTestId("receipt-MemorySnapshot")).toHaveText("1");
    await expect(admin.receipt.getByTestId("receipt-TurnContext")).toHaveText("2");
    await expect(admin.receipt.getByTestId("receipt-sentence")).toContainText(
      "4 messages, 1 memory snapshot and 2 recorded contexts",
    );

    // Gone from the admin list …
    await admin.searchSessions(user.email);
    await expect(admin.page.getByTestId("empty-state")).toBeVisible();
    await expect(admin.sessionRow(sessionId)).toHaveCount(0);

    // … from the owner's sidebar …
    await sidebarAfterReload(chat);
    await expect(chat.sidebar.locator(`a[href="/c/${sessionId}"]`)).toHaveCount(0);

    // … and its URLs answer 404, for the admin and for the owner.
    expect((await admin.page.goto(`/admin/sessions/${sessionId}`))?.status()).toBe(404);
    // The owner's page shows not found (its HTTP status is chat.spec.ts's concern: a loading.tsx above a page
    // turns notFound() into a 200, see docs/decisions/004-admin-console.md); their API answers 404.
    await page.goto(`/c/${sessionId}`);
    await expect(chat.notFound).toBeVisible();
    expect((await page.request.get(`/api/sessions/${sessionId}`)).status()).toBe(404);
    const api = await admin.page.request.get(`/api/admin/sessions/${sessionId}`);
    expect(api.status()).toBe(404);
    expect(await errorCode(api)).toBe("not_found");

    // The audit log names the deletion, with counts and no message text.
    await admin.page.goto("/admin/audit");
    const entry = admin.page.locator(`[data-testid="audit-row"][data-target-id="${sessionId}"]`);
    await expect(entry).toHaveAttribute("data-action", "session.delete");
    await expect(entry).toContainText(ADMIN.email);
    await expect(entry).toContainText("ChatMessage");
    await expect(admin.page.getByTestId("admin-audit")).not.toContainText(PHRASE);
  });

  test("a USER gets 403 from the admin API and not found from the console", async ({ page, user }) => {
    expect(user.email).toBeTruthy();
    for (const path of [
      "/api/admin/sessions",
      "/api/admin/users",
      "/api/admin/audit",
      "/api/admin/overview",
    ]) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(403);
      expect(await errorCode(res)).toBe("forbidden");
    }
    const del = await page.request.delete("/api/admin/sessions/anything");
    expect(del.status()).toBe(403);
    for (const path of ["/admin", "/admin/sessions", "/admin/users", "/admin/audit"]) {
      expect((await page.goto(path))?.status(), path).toBe(404);
    }
  });

  test("the only admin is not offered Remove admin until there is another", async ({
    pageAs,
    createUser,
  }) => {
    const other = await createUser("second-admin");
    const admin = new AdminPage(await pageAs(ADMIN));
    const onlyAdmin = async () => {
      await admin.page.goto(`/admin/users?q=${encodeURIComponent(ADMIN.email)}`);
      return admin.userRow(ADMIN.email).getByTestId("user-demote");
    };
    const demote = await onlyAdmin();
    await expect(demote).toBeDisabled();
    await expect(demote).toHaveAttribute("title", /only active administrator/);

    await admin.page.goto(`/admin/users?q=${encodeURIComponent(other.email)}`);
    await admin.userRow(other.email).getByTestId("user-promote").click();
    await admin.confirm();
    await expect(admin.userRow(other.email).getByTestId("admin-user-role")).toHaveText("admin");
    await expect(await onlyAdmin()).toBeEnabled();

    // Back to one admin, as the other tests expect.
    await admin.page.goto(`/admin/users?q=${encodeURIComponent(other.email)}`);
    await admin.userRow(other.email).getByTestId("user-demote").click();
    await admin.confirm();
    await expect(admin.userRow(other.email).getByTestId("admin-user-role")).toHaveText("user");
    await expect(await onlyAdmin()).toBeDisabled();
  });

  test("the invites page says in words how sign-up works now", async ({ pageAs }) => {
    const page = await pageAs(ADMIN);
    await page.goto("/admin/invites");
    const header = page.getByTestId("admin-invites-title").locator("..");
    await expect(header).toContainText("Anyone can sign up now, without a code.");
    await expect(page.locator("main")).not.toContainText("REGISTRATION");
  });

  test("disabling a user locks them out at once; enabling lets them back in", async ({
    createUser,
    pageAs,
    apiAs,
  }) => {
    const target: Credentials = await createUser("disable-me");
    const asTarget = await apiAs(target);
    expect((await asTarget.get("/api/sessions")).status()).toBe(200);

    const admin = new AdminPage(await pageAs(ADMIN));
    await admin.page.goto(`/admin/users?q=${encodeURIComponent(target.email)}`);
    const row = admin.userRow(target.email);
    await row.getByTestId("user-disable").click();
    await admin.confirm();
    await expect(admin.page.getByTestId("admin-status")).toContainText("disabled");
    await expect(row.getByTestId("admin-user-status")).toHaveText("disabled");

    // The same signed-in session is refused on its next request.
    expect((await asTarget.get("/api/sessions")).status()).toBe(401);

    await row.getByTestId("user-enable").click();
    await admin.confirm();
    await expect(row.getByTestId("admin-user-status")).toHaveText("active");
    expect((await asTarget.get("/api/sessions")).status()).toBe(200);

    await admin.page.goto("/admin/audit");
    await expect(
      admin.page.locator('[data-testid="audit-row"][data-action="user.disable"]').first(),
    ).toBeVisible();
  });

  test("deleting a user removes their conversations and shows a receipt", async ({
    pageAs,
    apiAs,
    createUser,
  }) => {
    const owner = await createUser("doomed");
    const ownerApi = await apiAs(owner);
    const sessionId = await twoTurns(ownerApi);

    const admin = new AdminPage(await pageAs(ADMIN));
    await admin.page.goto(`/admin/users?q=${encodeURIComponent(owner.email)}`);
    await admin.userRow(owner.email).getByTestId("user-delete").click();
    await expect(admin.page.getByTestId("confirm-dialog")).toContainText("1 session");
    await admin.confirm();
    await expect(admin.receipt.getByTestId("receipt-User")).toHaveText("1");
    await expect(admin.receipt.getByTestId("receipt-ChatSession")).toHaveText("1");
    await expect(admin.receipt.getByTestId("receipt-ChatMessage")).toHaveText("4");
    await expect(admin.userRow(owner.email)).toHaveCount(0);
    expect((await admin.page.goto(`/admin/sessions/${sessionId}`))?.status()).toBe(404);
  });
});
