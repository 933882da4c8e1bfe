import type { APIRequestContext, Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { type ChatPage, expect, expectNoSidewaysScroll, test } from "./fixtures";

// Project files end to end (docs/decisions/037-project-files.md) with the demo model: a file uploaded to a project
// through POST /api/projects/:id/files, and a question about one of its sentences asked in a conversation of that
// project — the inspector shows the passage as a file entry with its file name and position; after
// DELETE /api/projects/:id/files/:fileId the same question sends no passage. The same through the project dialog's
// files panel (add, refusals, delete after confirming), with the passage named in the "Used …" line under the
// answer; axe-clean in light and dark, nothing sideways on a phone. The tests tagged @pg also run on PostgreSQL.

const SENTENCE = "The server room badge code is walnut-4417.";

async function projectConversation(request: APIRequestContext) {
  const project = await request.post("/api/projects", { data: { name: "Client A" } });
  expect(project.status(), await project.text()).toBe(201);
  const projectId = ((await project.json()) as { project: { id: string } }).project.id;
  const session = await request.post("/api/sessions", { data: {} });
  expect(session.status(), await session.text()).toBe(201);
  const sessionId = ((await session.json()) as { id?: string; session?: { id: string } }).session
    ?.id as string;
  const moved = await request.patch(`/api/sessions/${sessionId}`, { data: { projectId } });
  expect(moved.status(), await moved.text()).toBe(200);
  return { projectId, sessionId };
}

async function upload(request: APIRequestContext, projectId: string, name: string, text: string) {
  const res = await request.post(`/api/projects/${projectId}/files`, {
    multipart: { file: { name, mimeType: "text/markdown", buffer: Buffer.from(text) } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { file: { id: string; chunkCount: number } }).file;
}

/** Opens the project's dialog from its group in the sidebar (on a phone, the sidebar's drawer first). */
async function openProjectDialog(page: Page, projectId: string) {
  const menu = page.getByTestId("menu-button");
  if (await menu.isVisible()) await menu.click();
  await page.locator(`[data-edit-project="${projectId}"]`).click();
  const dialog = page.getByTestId("project-dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fileEntries(chat: ChatPage) {
  const { panel, entries } = await chat.openContext(-1);
  return { panel, files: entries.filter((e) => e.source === "file") };
}

/** A one-page PDF whose text layer holds `line` (built by hand: a test fixture, not a parser). */
function pdfOf(line: string): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

test.describe("project files", () => {
  test("a file's sentence asked about in the project is in the context with its file name; after deleting the file it is not @pg", async ({
    page,
    chat,
    user: _user,
  }) => {
    const { projectId, sessionId } = await projectConversation(page.request);
    const filler = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} is about the office plants.`).join(
      "\n\n",
    );
    const file = await upload(
      page.request,
      projectId,
      "handbook.md",
      `# Handbook\n\n${filler}\n\n## Access\n\n${SENTENCE}`,
    );
    const listed = await page.request.get(`/api/projects/${projectId}/files`);
    expect(((await listed.json()) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual([
      "handbook.md",
    ]);

    await chat.goto(sessionId);
    await chat.send("What is the server room badge code?");
    const { panel, files } = await fileEntries(chat);
    expect(files.map((f) => f.preview).join("\n")).toContain(SENTENCE);
    const entry = panel.locator('[data-testid="context-entry"][data-source="file"]').first();
    await expect(entry).toContainText("file passage");
    await expect(entry.getByTestId("context-file")).toContainText("handbook.md");
    await expect(entry.getByTestId("context-file")).toContainText(`of ${file.chunkCount}`);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await panel.getByRole("button", { name: "Close" }).click();

    const removed = await page.request.delete(`/api/projects/${projectId}/files/${file.id}`);
    expect(removed.status()).toBe(200);
    expect(((await removed.json()) as { receipt: { deleted: unknown } }).receipt.deleted).toEqual({
      ProjectFile: 1,
      ProjectFileChunk: file.chunkCount,
    });
    await chat.send("What is the server room badge code?");
    expect((await fileEntries(chat)).files).toEqual([]);
  });

  test("the project dialog adds a file, the answer names its passage, and the file is deleted after confirming @pg", async ({
    page,
    chat,
    user: _user,
  }) => {
    test.setTimeout(90_000);
    const { projectId, sessionId } = await projectConversation(page.request);
    await chat.goto(sessionId);
    let dialog = await openProjectDialog(page, projectId);
    const panel = dialog.getByTestId("project-files");
    await expect(panel.getByTestId("project-files-empty")).toHaveText("No files yet.");
    await expect(panel.getByTestId("project-file-add")).toHaveAccessibleDescription(/up to 10 MB each/);

    // Refused, each with its reason: empty (before any request), not text (415), no text in it (422).
    const input = panel.getByTestId("project-file-input");
    await input.setInputFiles([
      { name: "blank.md", mimeType: "text/markdown", buffer: Buffer.alloc(0) },
      {
        name: "photo.png",
        mimeType: "image/png",
        buffer: Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0]),
      },
      { name: "spaces.txt", mimeType: "text/plain", buffer: Buffer.from("  \n\n \t \n") },
    ]);
    const errors = panel.locator('[data-testid="project-file-notice"][data-kind="error"]');
    await expect(errors).toHaveCount(3);
    await expect(errors.nth(0)).toHaveText("blank.md was not added: the file is empty.");
    await expect(errors.nth(1)).toContainText(
      "photo.png was not added: it is neither text nor a readable PDF.",
    );
    await expect(errors.nth(2)).toContainText("spaces.txt was not added: it holds no text to read");
    await expect(panel.getByTestId("project-files-empty")).toBeVisible();

    // Added through the hidden input (what "Add files…" opens): listed with its size, parts and date.
    const filler = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} is about the office plants.`).join(
      "\n\n",
    );
    await input.setInputFiles({
      name: "handbook.md",
      mimeType: "text/markdown",
      buffer: Buffer.from(`# Handbook\n\n${filler}\n\n## Access\n\n${SENTENCE}`),
    });
    const row = panel.getByTestId("project-file");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("project-file-name")).toHaveText("handbook.md");
    const listed = (await (await page.request.get(`/api/projects/${projectId}/files`)).json()) as {
      files: { id: string; chunkCount: number }[];
    };
    const parts = listed.files[0]?.chunkCount ?? 0;
    expect(parts).toBeGreaterThan(1);
    await expect(row.getByTestId("project-file-details")).toContainText(`${parts} parts · added`);
    await expect(panel.locator('[data-testid="project-file-notice"][data-kind="added"]')).toHaveText(
      `handbook.md was added: ${parts} parts.`,
    );
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoAxeViolations(page);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    // Asked about in the project's conversation: the line under the answer names the file and the part.
    await chat.send("What is the server room badge code?");
    const used = chat.assistantItems.last().getByTestId("memory-used");
    await expect(used.getByTestId("memory-used-toggle")).toContainText(/file passages?/);
    await used.getByTestId("memory-used-toggle").click();
    const item = used
      .locator('[data-testid="memory-used-item"][data-kind="file"]')
      .filter({ hasText: SENTENCE });
    await expect(item.getByTestId("memory-used-file")).toHaveText(
      new RegExp(`^handbook\\.md · part \\d+ of ${parts}$`),
    );
    const { files } = await fileEntries(chat);
    expect(files.map((f) => f.preview).join("\n")).toContain(SENTENCE);
    await chat.assistantItems
      .last()
      .getByTestId("context-panel")
      .getByRole("button", { name: "Close" })
      .click();

    // Deleted from the panel: Escape in the confirmation keeps the project dialog open; confirmed, the receipt.
    dialog = await openProjectDialog(page, projectId);
    const remove = dialog.getByRole("button", { name: "Delete handbook.md" });
    await remove.focus();
    await page.keyboard.press("Enter");
    const confirm = dialog.getByTestId("project-files").getByTestId("confirm-dialog");
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(`“handbook.md” and its ${parts} parts are removed`);
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(remove).toBeFocused();
    await page.keyboard.press("Enter");
    await confirm.getByTestId("confirm-button").click();
    await expect(dialog.locator('[data-testid="project-file-notice"][data-kind="deleted"]')).toHaveText(
      `handbook.md — Deleted for good: 1 file and ${parts} file passages.`,
    );
    await expect(dialog.getByTestId("project-files-empty")).toBeVisible();
    await expect(dialog.getByTestId("project-file-add")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    await chat.send("What is the server room badge code?");
    // The line is there only when something beyond the window was used; either way it names no file passage.
    await expect(chat.assistantItems.last().getByText(/file passage/)).toHaveCount(0);
    expect((await fileEntries(chat)).files).toEqual([]);
  });

  test("the files panel on a phone: nothing scrolls sideways @pg", async ({ page, user: _user }) => {
    const { projectId, sessionId } = await projectConversation(page.request);
    await upload(page.request, projectId, `${"a-rather-long-file-name-".repeat(4)}.md`, SENTENCE);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/c/${sessionId}`);
    const dialog = await openProjectDialog(page, projectId);
    await expect(dialog.getByTestId("project-file")).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    expect(await dialog.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);
    await dialog.getByTestId("project-file-delete").click();
    await expect(dialog.getByTestId("project-files").getByTestId("confirm-dialog")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });

  test("a PDF's text layer is read by the running server @pg", async ({ page, user: _user }) => {
    const { projectId } = await projectConversation(page.request);
    const res = await page.request.post(`/api/projects/${projectId}/files`, {
      multipart: { file: { name: "invoice.pdf", mimeType: "application/pdf", buffer: pdfOf(SENTENCE) } },
    });
    expect(res.status(), await res.text()).toBe(201);
    expect(((await res.json()) as { file: unknown }).file).toMatchObject({
      name: "invoice.pdf",
      mime: "application/pdf",
      chunkCount: 1,
    });
  });

  test("another user's project: upload, list and delete are 404 @pg", async ({
    page,
    user: _user,
    createUser,
    apiAs,
  }) => {
    const { projectId } = await projectConversation(page.request);
    const file = await upload(page.request, projectId, "notes.md", SENTENCE);
    const stranger = await apiAs(await createUser("stranger"));
    const tries = [
      await stranger.post(`/api/projects/${projectId}/files`, {
        multipart: { file: { name: "x.txt", mimeType: "text/plain", buffer: Buffer.from("x") } },
      }),
      await stranger.get(`/api/projects/${projectId}/files`),
      await stranger.delete(`/api/projects/${projectId}/files/${file.id}`),
    ];
    for (const res of tries) {
      expect(res.status()).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });
});
