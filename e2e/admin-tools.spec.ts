import path from "node:path";
import { expectNoAxeViolations } from "./a11y";
import { ADMIN, expect, test } from "./fixtures";

// Admin → Tools: the admin adds the stdio test server (scripts/mcp-test-server.ts), starts it and sees its tools,
// switches it off and on, deletes it with a confirmation; a user switches it per conversation.

test("the admin adds, starts, switches and deletes an MCP server; a user switches it in a conversation", async ({
  page,
  user,
  pageAs,
}) => {
  void user;
  const admin = await pageAs(ADMIN);
  await admin.goto("/admin/tools");
  await expect(admin.getByTestId("admin-tools-title")).toBeVisible();
  await expectNoAxeViolations(admin);

  await admin.getByTestId("add-tool-server").click();
  const form = admin.getByTestId("tool-server-form");
  await form.getByLabel(/^Name/).fill("e2e-test");
  await form.getByLabel(/^Command/).fill(process.execPath);
  await form
    .getByLabel(/^Arguments/)
    .fill(["--import", "tsx", path.resolve("scripts/mcp-test-server.ts")].join("\n"));
  await form.getByLabel(/^Environment/).fill("MCP_TEST_GREETING=hello from e2e");
  await expectNoAxeViolations(admin);
  await form.getByTestId("tool-server-save").click();

  const row = admin.getByTestId("tool-server-e2e-test");
  await expect(row.getByTestId("tool-server-state")).toHaveText("stopped");
  await row.getByRole("button", { name: "Start and check" }).click();
  await expect(row.getByTestId("tool-server-state")).toHaveText("running");
  await expect(row).toContainText("echo");
  await expect(row).toContainText("slow");

  // The environment is masked when read back.
  const listed = await admin.request.get("/api/admin/tools");
  expect(await listed.text()).not.toContain("hello from e2e");

  // The user sees it in a conversation and switches it off there.
  const created = await page.request.post("/api/sessions", { data: { title: "Tools" } });
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  const tools = (await (await page.request.get(`/api/sessions/${sessionId}/tools`)).json()) as {
    servers: Record<string, boolean>;
    available: { id: string; name: string }[];
  };
  const server = tools.available.find((s) => s.name === "e2e-test");
  expect(server && tools.servers[server.id]).toBe(true);
  const off = await page.request.patch(`/api/sessions/${sessionId}/tools`, {
    data: { servers: { [server?.id ?? ""]: false } },
  });
  expect(((await off.json()) as { servers: Record<string, boolean> }).servers[server?.id ?? ""]).toBe(false);

  const enabled = row.getByRole("switch", { name: "Enable e2e-test" });
  await enabled.click();
  await expect(enabled).not.toBeChecked();
  await enabled.click();
  await expect(enabled).toBeChecked();

  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = admin.getByRole("dialog");
  await expect(dialog).toContainText("Delete the server e2e-test?");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
  expect((await admin.request.get(`/api/admin/tools/${server?.id}`)).status()).toBe(404);
});
