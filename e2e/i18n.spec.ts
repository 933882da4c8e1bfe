import { ADMIN, expect, MAIN_URL, signInViaApi, test } from "./fixtures";

// Recall in Simplified Chinese. The browser asks for zh-CN (Accept-Language): the sign-in page, the chat
// and the admin console answer in Chinese, `<html lang>` says so, and the offline model's two-turn recall works in
// Chinese. The switch in the user menu overrides the browser and is remembered. Runs on the main server:
// E2E_PORT=3220 E2E_WINDOW_PORT=3221 npm run test:e2e -- e2e/i18n.spec.ts keeps it off other runs' ports.

const LOCALE_COOKIE = "recall-locale";

test.describe("a browser that asks for Chinese", () => {
  test.use({ locale: "zh-CN" });

  test("the sign-in page is in Chinese, and a wrong password is said in Chinese with the cursor back in the form", async ({
    page,
    createUser,
  }) => {
    const creds = await createUser("zh-login");
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page).toHaveTitle(/登录/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("登录");
    await page.getByLabel("邮箱").fill(creds.email);
    await page.getByLabel("密码").fill("not-the-password");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("邮箱或密码错误。");
    await expect(page.getByLabel("密码")).toBeFocused();

    await page.getByLabel("密码").fill(creds.password);
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByTestId("composer-input")).toHaveAttribute("placeholder", /^给 Recall 发消息/);
  });

  test("the chat is in Chinese and remembers across two turns", async ({ page, chat, user }) => {
    void user;
    await chat.goto();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(chat.emptyState).toContainText("开始对话");
    await expect(chat.newChat).toHaveText("新对话");
    await expect(page.getByRole("button", { name: "快捷键" })).toBeVisible();

    await chat.send("记住我的幸运数字是 42");
    const answer = await chat.send("我的幸运数字是多少？");
    expect(answer.status).toBe("complete");
    expect(answer.text).toContain("42");
    await expect(page.getByRole("article", { name: "你" })).toHaveCount(2);
    await expect(chat.memory.text).toHaveText("记得最后 20 条消息");

    // What the answer saw, in Chinese, with the first turn in it.
    const { panel, entries } = await chat.openContext();
    await expect(panel.getByRole("heading")).toHaveText("这个回答发送给模型的内容");
    expect(entries.map((e) => e.preview)).toContain("记住我的幸运数字是 42");

    // A reload keeps the language and the conversation.
    await page.reload();
    await expect(chat.assistantItems.last()).toContainText("42");
    await expect(page.getByTestId("send-button")).toHaveText("发送");
  });

  test("the admin console is in Chinese, dates included", async ({ page, chat, user }) => {
    void user;
    await chat.goto();
    await chat.send("记住我的幸运数字是 7");
    await page.context().clearCookies();
    await signInViaApi(page.request, ADMIN);

    await page.goto("/admin");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByTestId("admin-title")).toHaveText("管理控制台");
    const nav = page.getByRole("navigation", { name: "管理" });
    await expect(nav.getByRole("link", { name: "会话" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "审计日志" })).toBeVisible();

    await nav.getByRole("link", { name: "会话" }).click();
    await expect(page.getByTestId("admin-sessions-title")).toHaveText("会话");
    const row = page.getByTestId("admin-session-row").first();
    await expect(row).toContainText(/\d{4}年\d{1,2}月\d{1,2}日/);
    await row.getByTestId("admin-session-link").click();
    await expect(page.getByTestId("memory-panel")).toContainText("下一轮发送给模型的是");
    await expect(page.getByTestId("admin-delete-session")).toHaveText("删除会话…");

    await page.goto("/admin/users");
    await expect(page.getByTestId("admin-users-title")).toHaveText("用户");
    await page.goto("/admin/audit");
    await expect(page.getByTestId("admin-audit-title")).toHaveText("审计日志");
  });

  test("the language switch overrides the browser's language and is remembered", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await expect(chat.sendButton).toHaveText("发送");
    await page.getByTestId("locale-switch").getByText("English").click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(chat.sendButton).toHaveText("Send");
    const cookie = (await page.context().cookies(MAIN_URL)).find((c) => c.name === LOCALE_COOKIE);
    expect(cookie?.value).toBe("en");

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(chat.emptyState).toContainText("Start a conversation");

    await page.getByTestId("locale-switch").getByText("简体中文").click();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(chat.emptyState).toContainText("开始对话");
  });
});

test("a browser that asks for English gets English", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
});
