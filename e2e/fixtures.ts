import { type ChildProcess, spawn } from "node:child_process";
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
} from "@playwright/test";
import Database from "better-sqlite3";
import pg from "pg";
import { type Listing, parseListing } from "../lib/llm/scripted-listing";
import { MAIN_URL, SCRIPTED_URL, startArgs } from "./config";

// Shared helpers for every spec: page objects (ChatPage, AuthPage), account helpers that go through the real
// HTTP surface, and fixtures that give each test its own freshly registered user. Import `test` and `expect`
// from here, not from @playwright/test.

export { ADMIN, e2ePort, MAIN_URL, SCRIPTED_URL, WINDOW_SIZE, WINDOW_URL } from "./config";

export interface Credentials {
  email: string;
  password: string;
  name: string;
}

let counter = 0;

/** Unique credentials (not yet registered). `label` becomes part of the email and name, e.g. "intruder". */
export function newCredentials(label = "user"): Credentials {
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${(++counter).toString(36)}`;
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return { email: `${slug}-${id}@e2e.recall.test`, password: `pw-${id}-long-enough`, name: `${label} ${id}` };
}

/** POST /api/register; fails the test unless the account is created (201). */
export async function registerViaApi(request: APIRequestContext, creds: Credentials): Promise<void> {
  const res = await request.post("/api/register", { data: creds });
  expect(res.status(), `register ${creds.email}: ${await res.text()}`).toBe(201);
}

/**
 * Signs `request` in through next-auth's credentials callback, the same endpoint the login form uses. The
 * session cookie lands in the request context's cookie jar — for `page.request`, the page's browser context.
 */
export async function signInViaApi(
  request: APIRequestContext,
  creds: Pick<Credentials, "email" | "password">,
) {
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.ok(), "GET /api/auth/csrf").toBe(true);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await request.post("/api/auth/callback/credentials", {
    form: { email: creds.email, password: creds.password, csrfToken, json: "true" },
  });
  expect(res.ok(), `sign in ${creds.email}: HTTP ${res.status()}`).toBe(true);
  const session = (await (await request.get("/api/auth/session")).json()) as { user?: { email?: string } };
  expect(session.user?.email, `sign in ${creds.email}: no session after the callback`).toBe(creds.email);
}

/** Reads `{ error: { code } }` from an API response. */
export async function errorCode(res: { json(): Promise<unknown> }): Promise<string | undefined> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code;
}

// ---------------------------------------------------------------------------------------------------------
// Page objects
// ---------------------------------------------------------------------------------------------------------

export interface MessageView {
  role: string;
  status: string;
  seq: number;
  text: string;
}

export interface ContextEntryView {
  source: string;
  /** The history seq of the entry; null for system prompt and current question. */
  seq: number | null;
  preview: string;
}

export interface Answer {
  text: string;
  status: string;
}

/** The chat screen: `/` (new chat) and `/c/:sessionId`. */
export class ChatPage {
  readonly input: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly items: Locator;
  readonly assistantItems: Locator;
  readonly offlineBadge: Locator;
  readonly emptyState: Locator;
  readonly sidebar: Locator;
  readonly sessionLinks: Locator;
  readonly newChat: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId("composer-input");
    this.sendButton = page.getByTestId("send-button");
    this.stopButton = page.getByTestId("stop-button");
    this.items = page.getByTestId("message");
    this.assistantItems = page.locator('[data-testid="message"][data-role="assistant"]');
    this.offlineBadge = page.getByTestId("offline-badge");
    this.emptyState = page.getByTestId("empty-state");
    this.sidebar = page.getByTestId("sidebar");
    this.sessionLinks = page.getByTestId("session-link");
    this.newChat = page.getByTestId("new-chat");
    this.notFound = page.getByTestId("not-found");
  }

  /**
   * Clicks the sidebar's "New chat" and waits until the new-chat page has replaced the conversation (address "/",
   * no answers shown), so that the next send() does not count the answers of the page being left.
   */
  async openNewChat() {
    await this.newChat.click();
    await expect(this.page).toHaveURL(/\/$/);
    await expect(this.assistantItems).toHaveCount(0);
  }

  /** Opens a new chat, or the conversation `sessionId`, and waits for the composer. */
  async goto(sessionId?: string) {
    await this.page.goto(sessionId ? `/c/${sessionId}` : "/");
    await this.hydrated();
  }

  /** After a navigation or reload: the page's controls work once React has hydrated what the server rendered. */
  async hydrated() {
    await expect(this.page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(this.input).toBeVisible();
  }

  /** The session id in the URL (`/c/:id`), or null on a new chat that has not sent anything yet. */
  sessionId(): string | null {
    return /\/c\/([^/?#]+)/.exec(new URL(this.page.url()).pathname)?.[1] ?? null;
  }

  /** Types `text`, sends it with Enter and waits until the answer has stopped streaming and is stored. */
  async send(text: string): Promise<Answer> {
    const isNew = this.sessionId() === null;
    const before = await this.assistantItems.count();
    await this.idle();
    await this.input.fill(text);
    await this.input.press("Enter");
    const answer = this.assistantItems.nth(before);
    await expect(answer).toBeVisible();
    await expect(answer).not.toHaveAttribute("data-status", "streaming", { timeout: 20_000 });
    // A new chat takes the address /c/:id as soon as its session exists.
    if (isNew) await expect(this.page).toHaveURL(/\/c\/[^/]+$/);
    // The composer stays typeable while an answer streams, but a send before the turn is over is ignored.
    await this.idle();
    return {
      text: (await answer.getByTestId("message-text").textContent())?.trim() ?? "",
      status: (await answer.getAttribute("data-status")) ?? "",
    };
  }

  /** Waits until no turn is running: the composer is ready and Stop has given way to Send. */
  async idle() {
    await expect(this.input).toBeEnabled();
    await expect(this.stopButton).toBeHidden({ timeout: 20_000 });
  }

  /** The memory control in the header (shown once the conversation exists). */
  get memory(): MemoryControl {
    return new MemoryControl(this.page);
  }

  /** The chat's error line (a message not sent, a refusal, a lost connection). */
  get error(): Locator {
    return this.page.getByTestId("chat-error");
  }

  /** The composer's character counter, shown near the limit. */
  get count(): Locator {
    return this.page.getByTestId("composer-count");
  }

  /** Retry under the last failed or interrupted answer. */
  get retryButton(): Locator {
    return this.page.getByTestId("retry-button");
  }

  /** Types `text` and presses Enter without waiting for anything. */
  async submit(text: string) {
    await this.idle();
    await this.input.fill(text);
    await this.input.press("Enter");
  }

  /** The text of the last assistant message. */
  async lastAnswer(): Promise<string> {
    return (await this.assistantItems.last().getByTestId("message-text").textContent())?.trim() ?? "";
  }

  /** Every message shown, in page order. */
  async messages(): Promise<MessageView[]> {
    return this.items.evaluateAll((nodes) =>
      nodes.map((node) => ({
        role: node.getAttribute("data-role") ?? "",
        status: node.getAttribute("data-status") ?? "",
        seq: Number(node.getAttribute("data-seq")),
        text: (node.querySelector('[data-testid="message-text"]')?.textContent ?? "").trim(),
      })),
    );
  }

  /**
   * Opens the context view of the `index`-th assistant message (negative counts from the end: -1 is the
   * last answer) and returns its panel and entries, in the order they were sent to the model.
   */
  async openContext(index = -1): Promise<{ panel: Locator; entries: ContextEntryView[] }> {
    const count = await this.assistantItems.count();
    const answer = this.assistantItems.nth(index < 0 ? count + index : index);
    await answer.getByTestId("context-button").click();
    const panel = answer.getByTestId("context-panel");
    await expect(panel.getByTestId("context-summary")).toBeVisible();
    const entries = await panel.getByTestId("context-entry").evaluateAll((nodes) =>
      nodes.map((node) => {
        const seq = node.getAttribute("data-seq");
        return {
          source: node.getAttribute("data-source") ?? "",
          seq: seq ? Number(seq) : null,
          preview: node.querySelector("[title]")?.getAttribute("title") ?? "",
        };
      }),
    );
    return { panel, entries };
  }
}

export interface MemorySettingsInput {
  enabled?: boolean;
  policy?: "window" | "tokens" | "summary";
  maxMessages?: number | string;
  maxTokens?: number | string;
  recall?: "off" | "conversation" | "all";
  recallMaxTokens?: number | string;
}

/** The memory control in the chat header: its one-line summary and the popover that changes or clears memory. */
export class MemoryControl {
  readonly trigger: Locator;
  readonly text: Locator;
  readonly popover: Locator;
  readonly error: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.trigger = page.getByTestId("memory-control");
    this.text = page.getByTestId("memory-summary-text");
    this.popover = page.getByTestId("memory-popover");
    this.error = this.popover.getByTestId("memory-error");
    this.status = this.popover.getByTestId("memory-status");
  }

  async open() {
    if (!(await this.popover.isVisible())) await this.trigger.click();
    await expect(this.popover).toBeVisible();
  }

  /** Opens the popover, fills the given fields and saves; does not wait for the outcome. */
  async submit(settings: MemorySettingsInput) {
    await this.open();
    if (settings.enabled !== undefined)
      await this.popover.getByTestId("memory-enabled").setChecked(settings.enabled);
    if (settings.policy) await this.popover.getByTestId("memory-policy").selectOption(settings.policy);
    if (settings.maxMessages !== undefined)
      await this.popover.getByTestId("memory-max-messages").fill(String(settings.maxMessages));
    if (settings.maxTokens !== undefined)
      await this.popover.getByTestId("memory-max-tokens").fill(String(settings.maxTokens));
    if (settings.recall) await this.popover.getByTestId("memory-recall").selectOption(settings.recall);
    if (settings.recallMaxTokens !== undefined)
      await this.popover.getByTestId("memory-recall-max-tokens").fill(String(settings.recallMaxTokens));
    await this.popover.getByTestId("memory-save").click();
  }

  /** Changes the settings and waits until the server has stored them. */
  async set(settings: MemorySettingsInput) {
    await this.submit(settings);
    await expect(this.status).toHaveText(/^Saved/);
  }

  /** Clears the memory through the confirmation dialog and waits until it is done. */
  async clear() {
    await this.open();
    await this.popover.getByTestId("memory-clear").click();
    const dialog = this.page.getByRole("dialog", { name: "Clear this conversation's memory?" });
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("confirm-button").click();
    await expect(dialog).toBeHidden();
    await expect(this.status).toHaveText(/^Memory cleared/);
  }
}

/** The sign-in and registration pages. */
export class AuthPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly name: Locator;
  readonly formError: Locator;
  readonly currentUser: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.email = page.locator("#email");
    this.password = page.locator("#password");
    this.name = page.locator("#name");
    this.formError = page.getByTestId("form-error");
    this.currentUser = page.getByTestId("current-user");
    this.signOutButton = page.getByTestId("sign-out");
  }

  /** Fills and submits the login form. Does not wait for the outcome; pair with an expectation. */
  async login(creds: Pick<Credentials, "email" | "password">) {
    await this.page.goto("/login");
    await this.email.fill(creds.email);
    await this.password.fill(creds.password);
    // Exact: a server with single sign-on also has "Sign in with <provider>".
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  /** Fills and submits the registration form (which signs the new user in). */
  async register(creds: Credentials) {
    await this.page.goto("/register");
    await this.name.fill(creds.name);
    await this.email.fill(creds.email);
    await this.password.fill(creds.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  /** Signs out from the sidebar and waits for the login page. */
  async signOut() {
    await this.signOutButton.click();
    await expect(this.page).toHaveURL(/\/login(\?|$)/);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------------

interface Fixtures {
  /** Registers a new account through the API and returns its credentials. */
  createUser: (label?: string) => Promise<Credentials>;
  /** A fresh USER for this test, already signed in on `page`. */
  user: Credentials;
  chat: ChatPage;
  auth: AuthPage;
  /** A separate API client (own cookie jar) signed in as `creds`; disposed after the test. */
  apiAs: (creds: Pick<Credentials, "email" | "password">) => Promise<APIRequestContext>;
  /** A separate browser page (own context and cookies) signed in as `creds`; closed after the test. */
  pageAs: (creds: Pick<Credentials, "email" | "password">) => Promise<Page>;
}

export const test = base.extend<Fixtures>({
  createUser: async ({ request }, use) => {
    await use(async (label = "user") => {
      const creds = newCredentials(label);
      await registerViaApi(request, creds);
      return creds;
    });
  },

  user: async ({ page, createUser }, use) => {
    const creds = await createUser("user");
    await signInViaApi(page.request, creds);
    await use(creds);
  },

  chat: async ({ page }, use) => {
    await use(new ChatPage(page));
  },

  auth: async ({ page }, use) => {
    await use(new AuthPage(page));
  },

  apiAs: async ({ baseURL }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (creds) => {
      // Writes need an allowed Origin (CSRF check); a browser would send it, a bare request context does not.
      const origin = baseURL ? new URL(baseURL).origin : undefined;
      const context = await playwrightRequest.newContext({
        baseURL,
        extraHTTPHeaders: origin ? { origin } : {},
      });
      contexts.push(context);
      await signInViaApi(context, creds);
      return context;
    });
    await Promise.all(contexts.map((c) => c.dispose()));
  },

  pageAs: async ({ browser, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (creds) => {
      const context = await browser.newContext({ baseURL });
      contexts.push(context);
      await signInViaApi(context.request, creds);
      return context.newPage();
    });
    await Promise.all(contexts.map((c) => c.close()));
  },
});

export { expect };

// ---------------------------------------------------------------------------------------------------------
// The scripted model (docs/decisions/022-test-model.md)
// ---------------------------------------------------------------------------------------------------------

/** Inside a `test.describe` (or at the top of a spec): its tests talk to the server with the scripted model. */
export function withScriptedModel() {
  // The browser's own Origin: a different forced one makes Chromium refuse the page's scripts.
  test.use({ baseURL: SCRIPTED_URL, extraHTTPHeaders: { origin: SCRIPTED_URL } });
}

/** What the scripted model received for the last answer of `sessionId`: its stored reply, read back. */
export async function lastReceived(request: APIRequestContext, sessionId: string): Promise<Listing> {
  const res = await request.get(`/api/sessions/${sessionId}`);
  expect(res.status()).toBe(200);
  const { messages } = (await res.json()) as { messages: { role: string; text: string }[] };
  const text = messages.filter((m) => m.role === "assistant").at(-1)?.text ?? "";
  const listing = parseListing(text);
  expect(listing, `the last answer is the scripted model's listing:\n${text}`).not.toBeNull();
  return listing as Listing;
}

/** The texts of a listing's entries with `role` (and `section`, for system ones), in the order sent. */
export function sent(listing: Listing, role: string, section?: string): string[] {
  return listing.entries
    .filter((e) => e.role === role && (section === undefined || e.section === section))
    .map((e) => e.text);
}

// ---------------------------------------------------------------------------------------------------------
// Checks on the page and on the run's database
// ---------------------------------------------------------------------------------------------------------

/** The page is no wider than the window: nothing scrolls sideways. `where` names the page in a failure. */
export async function expectNoSidewaysScroll(page: Page, where = page.url()) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow, `horizontal overflow on ${where}`).toBeLessThanOrEqual(0);
}

/** `path` on a phone (390 × 844): its heading shows and nothing scrolls sideways. */
export async function expectFitsPhone(page: Page, path: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(path);
  await expect(page.locator("h1").first()).toBeVisible();
  await expectNoSidewaysScroll(page, path);
}

/** Rows of any table with a column holding one of `ids` (the audit entry's target aside), on either database. */
export async function rowsReferring(ids: string[]): Promise<Record<string, number>> {
  const url = process.env.E2E_DATABASE_URL ?? "";
  const sqlite = url.startsWith("file:");
  const columnsSql = sqlite
    ? `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) p
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_prisma_migrations'`
    : `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`;
  let query: (sql: string, args: string[]) => Promise<Record<string, unknown>[]>;
  let close: () => Promise<void>;
  if (sqlite) {
    const conn = new Database(url.replace(/^file:/, ""), { readonly: true });
    query = async (sql, args) => conn.prepare(sql).all(...args) as Record<string, unknown>[];
    close = async () => void conn.close();
  } else {
    const client = new pg.Client({ connectionString: url });
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

// ---------------------------------------------------------------------------------------------------------
// Extra servers
// ---------------------------------------------------------------------------------------------------------

/** A server a spec starts itself, on the run's build and database, with extra settings. */
export interface ExtraServer {
  url: string;
  stop: () => Promise<void>;
  /** Kills the server with SIGKILL — a crash: nothing of it runs after this resolves. */
  crash: () => Promise<void>;
}

/**
 * Starts `next start` on `port` against this run's database (set up by scripts/e2e.ts) with `env` on top, and
 * waits for /api/health. Use from `test.beforeAll` and stop it in `test.afterAll`. It refuses a port that
 * already answers: that server would serve another database.
 */
export async function startServer(port: number, env: Record<string, string>): Promise<ExtraServer> {
  const url = `http://127.0.0.1:${port}`;
  const health = () =>
    fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
  if (await health()) throw new Error(`Something already answers on ${url}; stop it first.`);
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL is not set: run through `npm run test:e2e`.");
  const child: ChildProcess = spawn("node_modules/.bin/next", startArgs(port), {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      // As playwright.config.ts's servers: the tests' requests carry the main server's Origin, and every
      // test registers a user from 127.0.0.1.
      ALLOWED_ORIGINS: MAIN_URL,
      RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "10000",
      ...(process.env.E2E_AUTH_SECRET ? { AUTH_SECRET: process.env.E2E_AUTH_SECRET } : {}),
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const end = (signal: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const stop = end("SIGTERM");
  const deadline = Date.now() + 60_000;
  while (!(await health())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The server on ${url} did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop, crash: end("SIGKILL") };
}

/**
 * Inside a `test.describe`: a server of its own for its tests (started before them, stopped after), made their
 * baseURL. Returns its URL.
 */
export function useExtraServer(port: number, env: Record<string, string>): string {
  const url = `http://127.0.0.1:${port}`;
  let server: ExtraServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    server = await startServer(port, env);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  // The browser's own Origin: a different forced one makes Chromium refuse the page's scripts and fonts.
  test.use({ baseURL: url, extraHTTPHeaders: { origin: url } });
  return url;
}

/**
 * One linear conversation of the signed-in user made through POST /api/import (fast, and indexed as any stored
 * message is): `texts` alternate user and assistant, a minute apart from `start`. Resolves to its id.
 */
export async function importConversation(
  request: APIRequestContext,
  {
    title,
    texts,
    memorySettings,
    start = Date.parse("2026-10-01T09:00:00.000Z"),
  }: { title: string; texts: string[]; memorySettings: Record<string, unknown>; start?: number },
): Promise<string> {
  const messages = texts.map((text, i) => {
    const seq = i + 1;
    const user = i % 2 === 0;
    return {
      localId: `m${seq}`,
      parentLocalId: seq === 1 ? null : `m${seq - 1}`,
      seq,
      role: user ? "user" : "assistant",
      text,
      parts: null,
      toolCallId: null,
      status: "complete",
      model: user ? null : "recall-offline",
      promptTokens: null,
      completionTokens: null,
      createdAt: new Date(start + seq * 60_000).toISOString(),
    };
  });
  const at = new Date(start).toISOString();
  const file = {
    format: "recall-export",
    version: 1,
    exportedAt: at,
    attachments: "reference",
    conversations: [
      {
        localId: "c1",
        title,
        titleByUser: true,
        createdAt: at,
        updatedAt: at,
        memorySettings,
        memoryStartSeq: 0,
        branches: "tree",
        activeLeafLocalId: `m${messages.length}`,
        messages,
        attachments: [],
      },
    ],
  };
  const res = await request.post("/api/import", { data: file });
  expect(res.status(), await res.text()).toBe(201);
  const { imported } = (await res.json()) as { imported: { conversations: { id: string }[] } };
  return imported.conversations[0]?.id as string;
}
