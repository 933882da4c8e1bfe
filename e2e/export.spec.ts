import { readFile } from "node:fs/promises";
import { expectNoAxeViolations } from "./a11y";
import { expect, MAIN_URL, test } from "./fixtures";

// Export and import from the UI: the conversation header's Export menu downloads the active
// branch as Markdown; an export file chosen on Settings → Your data comes back as a new conversation.

const at = "2026-01-02T10:00:00.000Z";

/** A small export file (format version 1) with one conversation of two messages. */
function exportFile(title: string, question: string, answer: string, leaf = "m2") {
  const message = (seq: number, role: "user" | "assistant", text: string) => ({
    localId: `m${seq}`,
    parentLocalId: seq === 1 ? null : `m${seq - 1}`,
    seq,
    role,
    text,
    parts: null,
    toolCallId: null,
    status: "complete",
    model: role === "assistant" ? "recall-offline" : null,
    promptTokens: null,
    completionTokens: null,
    createdAt: at,
  });
  return {
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
        memorySettings: null,
        memoryStartSeq: 0,
        branches: "tree",
        activeLeafLocalId: leaf,
        messages: [message(1, "user", question), message(2, "assistant", answer)],
        attachments: [],
      },
    ],
  };
}

test("exports a conversation as Markdown from the header", async ({ user: _user, chat, page }) => {
  await chat.goto();
  const question = "Please remember that the heron flies at dawn.";
  await chat.send(question);
  await expect(page).toHaveURL(/\/c\//);

  await page.getByTestId("export-menu").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-markdown").click(),
  ]);
  // The browser takes the title (filename*, whatever the conversation is called by now) and the date.
  expect(download.suggestedFilename()).toMatch(/^[^/\\]+ \d{4}-\d\d-\d\d\.md$/);
  const text = await readFile(await download.path(), "utf8");
  expect(text).toContain(`### You · `);
  expect(text).toContain(question);
  expect(text).toContain("### Assistant · ");
});

test("imports an export file on Settings → Your data and opens the new conversation", async ({
  user: _user,
  chat,
  page,
}) => {
  await page.goto("/");
  await page.getByTestId("data-link").click();
  await expect(page.getByTestId("data-title")).toBeVisible();

  const file = exportFile("Imported heron notes", "Where does the heron nest?", "By the northern reeds.");
  await page.getByTestId("import-file").setInputFiles({
    name: "recall-export.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(file)),
  });
  await page.getByTestId("import-start").click();
  const done = page.getByTestId("import-done");
  await expect(done).toContainText("Imported 1 conversation with 2 messages.");
  await expect(chat.sessionLinks.filter({ hasText: "Imported heron notes" })).toHaveCount(1);

  await done.getByTestId("imported-conversation").click();
  await expect(page).toHaveURL(/\/c\//);
  await expect(chat.items.filter({ hasText: "Where does the heron nest?" })).toHaveCount(1);
  await expect(chat.items.filter({ hasText: "By the northern reeds." })).toHaveCount(1);

  // A broken file says what is wrong and imports nothing.
  await page.getByTestId("data-link").click();
  const broken = exportFile("Broken", "q", "a", "m9");
  await page.getByTestId("import-file").setInputFiles({
    name: "broken.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(broken)),
  });
  await page.getByTestId("import-start").click();
  await expect(page.getByTestId("import-error")).toContainText(
    "conversations.0.activeLeafLocalId: no message m9 here",
  );
  await expect(chat.sessionLinks.filter({ hasText: "Broken" })).toHaveCount(0);
});

test("an imported copy says Imported in the list and its header; the original does not", async ({
  user: _user,
  chat,
  page,
}) => {
  const title = `Heron log ${Date.now().toString(36)}`;
  await chat.goto();
  await chat.send("Where does the heron nest?");
  const original = chat.sessionId() as string;
  expect((await page.request.patch(`/api/sessions/${original}`, { data: { title } })).status()).toBe(200);
  const exported = await page.request.get(`/api/sessions/${original}/export?format=json`);
  expect(exported.status()).toBe(200);

  await page.goto("/settings/data");
  await page.getByTestId("import-file").setInputFiles({
    name: "heron.json",
    mimeType: "application/json",
    buffer: await exported.body(),
  });
  await page.getByTestId("import-start").click();
  await expect(page.getByTestId("import-done")).toContainText("Imported 1 conversation with 2 messages.");

  const rows = chat.sessionLinks.filter({ hasText: title });
  await expect(rows).toHaveCount(2);
  const originalRow = page.locator(`[data-testid="session-link"][href="/c/${original}"]`);
  await expect(originalRow).toHaveText(title);
  await expect(originalRow.getByTestId("imported-badge")).toHaveCount(0);
  const copyRow = rows.filter({ has: page.getByTestId("imported-badge") });
  await expect(copyRow).toHaveCount(1);
  await expect(copyRow.getByTestId("imported-badge")).toHaveText("Imported");
  await expect(copyRow.getByTestId("imported-badge")).toHaveAttribute(
    "title",
    /^Imported from an export file on /,
  );

  // The copy's header says so, the original's does not; both light and dark stay axe-clean.
  await copyRow.click();
  await expect(page).toHaveURL(/\/c\//);
  expect(chat.sessionId()).not.toBe(original);
  const header = page.locator("header").getByTestId("imported-badge");
  await expect(header).toHaveText("Imported");
  await expect(chat.items).toHaveCount(2);
  await expect(chat.items.first()).toContainText("Where does the heron nest?");
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "recall-theme", value: theme, url: MAIN_URL }]);
    await page.reload();
    await expect(header).toBeVisible();
    await expectNoAxeViolations(page);
  }
  await chat.goto(original);
  await expect(chat.items).toHaveCount(2);
  await expect(page.locator("header").getByTestId("imported-badge")).toHaveCount(0);

  // In Chinese too.
  await page.context().addCookies([{ name: "recall-locale", value: "zh-CN", url: MAIN_URL }]);
  await page.reload();
  await expect(copyRow.getByTestId("imported-badge")).toHaveText("已导入");
});

test("an account export carries a project with its file and conversation; importing it adds the project to the sidebar", async ({
  user: _user,
  page,
}) => {
  const name = `Client Egret ${Date.now().toString(36)}`;
  const created = await page.request.post("/api/projects", {
    data: { name, instructions: "Mention the egret." },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { project: { id: string } }).project.id;
  const upload = await page.request.post(`/api/projects/${projectId}/files`, {
    multipart: {
      file: {
        name: "egret.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("The egret nests by the dam."),
      },
    },
  });
  expect(upload.status()).toBe(201);
  const session = await page.request.post("/api/sessions", { data: { projectId } });
  expect(session.status()).toBe(201);
  const sessionId = ((await session.json()) as { session: { id: string } }).session.id;
  const title = `Egret survey ${Date.now().toString(36)}`;
  expect((await page.request.patch(`/api/sessions/${sessionId}`, { data: { title } })).status()).toBe(200);

  await page.goto("/");
  await page.getByTestId("data-link").click();
  await expect(page.getByTestId("data-title")).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-all").click(),
  ]);
  const file = JSON.parse(await readFile(await download.path(), "utf8")) as {
    projects: { name: string; files: { name: string }[] }[];
  };
  expect(file.projects.map((p) => [p.name, p.files.map((f) => f.name)])).toEqual([[name, ["egret.md"]]]);

  await page.getByTestId("import-file").setInputFiles(await download.path());
  await page.getByTestId("import-start").click();
  const done = page.getByTestId("import-done");
  await expect(done).toContainText("Imported 1 conversation");
  await expect(done.getByTestId("import-projects")).toHaveText("1 project with 1 file");

  // The copy is a second project of that name in the sidebar, holding the copy of the conversation and the file.
  const groups = page
    .getByTestId("project-group")
    .filter({ has: page.getByTestId("project-name-label").getByText(name, { exact: true }) });
  await expect(groups).toHaveCount(2);
  const copyId = (await groups.evaluateAll(
    (els, original) => els.map((e) => e.getAttribute("data-project-id")).find((id) => id !== original),
    projectId,
  )) as string;
  const copy = page.locator(`[data-testid="project-group"][data-project-id="${copyId}"]`);
  await copy.getByTestId("project-toggle").click();
  await expect(copy.getByTestId("project-session-list")).toContainText(title);
  const files = (await (await page.request.get(`/api/projects/${copyId}/files`)).json()) as {
    files: { name: string }[];
  };
  expect(files.files.map((f) => f.name)).toEqual(["egret.md"]);
  // Neither copy is listed outside its project.
  await expect(
    page.getByTestId("session-list").getByTestId("session-link").filter({ hasText: title }),
  ).toHaveCount(0);
});
