import type { Locator, Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { expect, expectNoSidewaysScroll, SCRIPTED_URL, test, withScriptedModel } from "./fixtures";

// Projects in the sidebar (issue 24 item 2, decision 036): a project made from the sidebar, a new chat in it (its
// instructions in the context, a fact learned there belongs to it), a conversation moved in and out by its row's
// menu, pin (first, marked), archive (leaves the list, searchable, restored from the Archived view), and deleting a
// project keeping its contents or with them. axe-clean in light and dark; nothing scrolls sideways on a phone.

withScriptedModel();

const remember = (fact: string) => `/tool remember ${JSON.stringify({ fact })}`;

/** The sidebar's group of the project named `name`. */
const group = (page: Page, name: string) =>
  page.getByTestId("project-group").filter({ has: page.getByTestId("project-name-label").getByText(name) });

const rowOf = (list: Locator, sessionId: string) => list.locator(`[data-session-id="${sessionId}"]`);

/** Opens the row's menu (the ⋯ button, shown on hover or focus) and picks an item of it. */
async function fromMenu(row: Locator, item: string, projectId?: string | null) {
  await row.hover();
  await row.getByTestId("session-menu").click();
  const menu = row.getByTestId("session-menu-items");
  await expect(menu).toBeVisible();
  if (item === "menu-move-to") {
    await menu.getByTestId("menu-move").click();
    await menu.locator(`[data-project-id="${projectId ?? "none"}"]`).click();
  } else await menu.getByTestId(item).click();
  await expect(menu).toHaveCount(0);
}

async function createProject(page: Page, name: string, instructions = "") {
  await page.getByTestId("new-project").click();
  const dialog = page.getByTestId("project-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("project-name")).toBeFocused();
  await dialog.getByTestId("project-name").fill(name);
  if (instructions) await dialog.getByTestId("project-instructions").fill(instructions);
  await dialog.getByTestId("project-save").click();
  await expect(dialog).toHaveCount(0);
  await expect(group(page, name)).toHaveAttribute("data-open", "true");
  return (await group(page, name).getAttribute("data-project-id")) as string;
}

test("projects group conversations: new chat in one, move in and out, pin, archive, delete keeping or not @pg", async ({
  page,
  chat,
  user: _user,
}) => {
  test.setTimeout(90_000);
  const sidebar = chat.sidebar;
  const outside = sidebar.getByTestId("session-list");
  await chat.goto();
  await expect(sidebar.getByTestId("projects")).toContainText("No projects yet.");

  // A project from the sidebar, open at once; "New chat in project" starts a conversation in it.
  const projectId = await createProject(page, "Client Falcon", "Always mention the Falcon codename.");
  const falcon = group(page, "Client Falcon");
  await expect(falcon.getByTestId("project-count")).toContainText("0");
  await falcon.getByTestId("new-chat-in-project").click();
  await expect(page).toHaveURL(`/?project=${projectId}`);
  await expect(page.getByTestId("new-chat-project")).toContainText("Client Falcon");
  await chat.send(remember("The Falcon launch is in May"));
  const inProject = chat.sessionId() as string;
  const session = (await (await page.request.get(`/api/sessions/${inProject}`)).json()) as {
    session: { projectId: string | null };
  };
  expect(session.session.projectId).toBe(projectId);
  await expect(rowOf(falcon.getByTestId("project-session-list"), inProject)).toBeVisible();
  await expect(rowOf(outside, inProject)).toHaveCount(0);
  await expect(falcon.getByTestId("project-count")).toContainText("1");

  // Its instructions reach the context of the next answer, traced as the project's; the fact learned is its own.
  await chat.send("What is planned?");
  const { entries } = await chat.openContext(-1);
  expect(entries.find((e) => e.source === "instructions")?.preview).toContain("Falcon codename");
  const facts = (await (await page.request.get("/api/memories")).json()) as {
    memories: { text: string; projectId: string | null }[];
  };
  expect(facts.memories.find((m) => m.text.includes("Falcon launch"))?.projectId).toBe(projectId);

  // The group's open state is remembered across a reload.
  await page.reload();
  await expect(falcon).toHaveAttribute("data-open", "true");
  await falcon.getByTestId("project-toggle").click();
  await expect(falcon).toHaveAttribute("data-open", "false");
  await expect(falcon.getByTestId("project-toggle")).toHaveAttribute("aria-expanded", "false");
  await page.reload();
  await expect(falcon).toHaveAttribute("data-open", "false");
  await falcon.getByTestId("project-toggle").click();

  // Two conversations outside any project; one moves in by its menu, then out again.
  await chat.openNewChat();
  await chat.send("Kumquat marmalade recipe, please");
  const kumquat = chat.sessionId() as string;
  await chat.openNewChat();
  await chat.send("A note about tides");
  const tides = chat.sessionId() as string;
  await expect(outside.getByTestId("session-row")).toHaveCount(2);
  await fromMenu(rowOf(outside, kumquat), "menu-move-to", projectId);
  await expect(rowOf(falcon.getByTestId("project-session-list"), kumquat)).toBeVisible();
  await expect(rowOf(outside, kumquat)).toHaveCount(0);
  await expect(falcon.getByTestId("project-count")).toContainText("2");
  await fromMenu(rowOf(falcon, kumquat), "menu-move-to", null);
  await expect(rowOf(outside, kumquat)).toBeVisible();
  await expect(rowOf(falcon, kumquat)).toHaveCount(0);

  // Pin, by keyboard: the older conversation comes first, marked; unpinning puts it back.
  await expect(outside.getByTestId("session-row").first()).toHaveAttribute("data-session-id", tides);
  const kumquatMenu = rowOf(outside, kumquat).getByTestId("session-menu");
  // As a keyboard user gets there: the row's actions show once focus is inside the row (its link), not before.
  await rowOf(outside, kumquat).getByTestId("session-link").focus();
  await kumquatMenu.focus();
  await page.keyboard.press("Enter");
  await expect(rowOf(outside, kumquat).getByTestId("menu-pin")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rowOf(outside, kumquat).getByTestId("menu-archive")).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await expect(outside.getByTestId("session-row").first()).toHaveAttribute("data-session-id", kumquat);
  await expect(rowOf(outside, kumquat)).toHaveAttribute("data-pinned", "true");
  await expect(rowOf(outside, kumquat).getByTestId("pin-mark")).toBeVisible();
  await expect(kumquatMenu).toBeFocused();
  // Escape closes the menu and gives focus back to its button.
  await page.keyboard.press("Enter");
  await expect(rowOf(outside, kumquat).getByTestId("menu-unpin")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(rowOf(outside, kumquat).getByTestId("session-menu-items")).toHaveCount(0);
  await expect(kumquatMenu).toBeFocused();

  // Archive: it leaves the list, stays searchable, and comes back from the Archived view.
  await fromMenu(rowOf(outside, kumquat), "menu-archive");
  await expect(rowOf(outside, kumquat)).toHaveCount(0);
  await expect(outside.getByTestId("session-row")).toHaveCount(1);
  await expect
    .poll(async () => {
      const hits = (await (await page.request.get("/api/search?q=kumquat")).json()) as {
        sessionId: string;
      }[];
      return hits.map((h) => h.sessionId);
    })
    .toContain(kumquat);
  await sidebar.getByTestId("archived-toggle").click();
  const archived = sidebar.getByTestId("archived-list");
  await expect(rowOf(archived, kumquat)).toBeVisible();
  await fromMenu(rowOf(archived, kumquat), "menu-restore");
  await expect(rowOf(archived, kumquat)).toHaveCount(0);
  await expect(sidebar.getByText("No archived conversations.")).toBeVisible();
  // Still pinned: it comes back first.
  await expect(outside.getByTestId("session-row").first()).toHaveAttribute("data-session-id", kumquat);

  // Edit the project: rename, instructions changed.
  await falcon.getByTestId("project-edit").click();
  const dialog = page.getByTestId("project-dialog");
  await expect(dialog.getByTestId("project-instructions")).toHaveValue("Always mention the Falcon codename.");
  await dialog.getByTestId("project-name").fill("Client Falcon II");
  await dialog.getByTestId("project-save").click();
  const falcon2 = group(page, "Client Falcon II");
  await expect(falcon2).toBeVisible();

  // Delete keeping its contents: the conversation moves out, its fact becomes global.
  await falcon2.getByTestId("project-edit").click();
  await dialog.getByTestId("project-delete").click();
  const confirm = page.getByTestId("confirm-dialog").filter({ hasText: "Delete this project?" });
  await expect(confirm.getByTestId("project-delete-summary")).toContainText("1 conversation");
  await expect(confirm.getByTestId("project-delete-summary")).toContainText("1 memory");
  await expect(confirm.getByTestId("project-delete-delete")).toBeChecked();
  await confirm.getByTestId("project-delete-keep").check();
  await confirm.getByTestId("confirm-button").click();
  await expect(sidebar.getByTestId("receipt-moved")).toContainText("1 conversation");
  await expect(sidebar.getByTestId("receipt-Project")).toHaveText("1");
  await expect(sidebar.getByTestId("receipt-ChatSession")).toHaveText("0");
  await expect(group(page, "Client Falcon II")).toHaveCount(0);
  await expect(rowOf(outside, inProject)).toBeVisible();
  const after = (await (await page.request.get("/api/memories")).json()) as {
    memories: { text: string; projectId: string | null }[];
  };
  expect(after.memories.find((m) => m.text.includes("Falcon launch"))?.projectId).toBeNull();

  // Delete with its contents (the default): its conversation goes, counted in the receipt.
  const otherId = await createProject(page, "Client Osprey");
  const osprey = group(page, "Client Osprey");
  const res = await page.request.post("/api/sessions", {
    data: { title: "Osprey kickoff", projectId: otherId },
  });
  expect(res.status()).toBe(201);
  const ospreySession = ((await res.json()) as { session: { id: string } }).session.id;
  await chat.goto(ospreySession);
  await expect(rowOf(osprey, ospreySession)).toBeVisible();
  await osprey.getByTestId("project-edit").click();
  await dialog.getByTestId("project-delete").click();
  await expect(confirm.getByTestId("project-delete-delete")).toBeChecked();
  await confirm.getByTestId("confirm-button").click();
  await expect(sidebar.getByTestId("receipt-ChatSession")).toHaveText("1");
  await expect(sidebar.getByTestId("receipt-moved")).toHaveCount(0);
  await expect(group(page, "Client Osprey")).toHaveCount(0);
  // The conversation on screen went with it: the new-chat page replaces it.
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get(`/api/sessions/${ospreySession}`)).status()).toBe(404);
  // A project that is gone cannot be started in.
  const bad = await page.request.post("/api/sessions", { data: { projectId } });
  expect(bad.status()).toBe(404);
});

test("the sidebar with projects is axe-clean in light and dark and fits a phone", async ({
  page,
  chat,
  user: _user,
}) => {
  test.setTimeout(60_000);
  const project = await page.request.post("/api/projects", {
    data: { name: "A rather long project name here" },
  });
  const projectId = ((await project.json()) as { project: { id: string } }).project.id;
  const mk = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await page.request.post("/api/sessions", { data: { title, ...extra } });
    return ((await res.json()) as { session: { id: string } }).session.id;
  };
  const inside = await mk("Inside the project", { projectId });
  const pinned = await mk(`Pinned ${"verylongword".repeat(6)}`);
  const archived = await mk("Archived one");
  await page.request.patch(`/api/sessions/${pinned}`, { data: { pinned: true } });
  await page.request.patch(`/api/sessions/${archived}`, { data: { archived: true } });

  await chat.goto();
  const falcon = group(page, "A rather long project name here");
  await falcon.getByTestId("project-toggle").click();
  await expect(rowOf(falcon, inside)).toBeVisible();
  await chat.sidebar.getByTestId("archived-toggle").click();
  await expect(rowOf(chat.sidebar.getByTestId("archived-list"), archived)).toBeVisible();
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "recall-theme", value: theme, url: SCRIPTED_URL }]);
    await page.reload();
    await expect(rowOf(falcon, inside)).toBeVisible();
    await expectNoAxeViolations(page);
    // The row's menu, open, and the project dialog.
    const row = rowOf(chat.sidebar.getByTestId("session-list"), pinned);
    await row.hover();
    await row.getByTestId("session-menu").click();
    await row.getByTestId("menu-move").click();
    await expect(row.getByTestId("menu-move-to")).toHaveCount(2);
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await falcon.getByTestId("project-edit").click();
    await expect(page.getByTestId("project-dialog")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("project-dialog")).toHaveCount(0);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByTestId("menu-button").click();
  await expect(chat.sidebar).toBeVisible();
  await expect(rowOf(falcon, inside)).toBeVisible();
  await expectNoSidewaysScroll(page);
  const row = rowOf(chat.sidebar.getByTestId("session-list"), pinned);
  await row.getByTestId("session-menu").click();
  await row.getByTestId("menu-move").click();
  await expectNoSidewaysScroll(page);
  const nav = chat.sidebar.getByRole("navigation");
  expect(await nav.evaluate((n) => n.scrollWidth - n.clientWidth)).toBeLessThanOrEqual(0);
});
