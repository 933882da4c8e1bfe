import path from "node:path";
import { ADMIN, expect, test, withScriptedModel } from "./fixtures";

// MCP tools in a conversation: the admin adds the stdio test server (scripts/mcp-test-server.ts); a user switches it
// off and on in the chat header's tools menu; the scripted model calls its tool (`/tool <name> <JSON>`), and the
// step shows under the answer and the offered tools with their cost in the context inspector.

withScriptedModel();

test("a user switches an MCP server in a conversation; the model's call shows under the answer and in the inspector @pg", async ({
  page,
  chat,
  user,
  apiAs,
}) => {
  void user;
  const admin = await apiAs(ADMIN);
  const name = `e2e-${Date.now().toString(36).slice(-8)}`;
  const created = await admin.post("/api/admin/tools", {
    data: {
      name,
      transport: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", path.resolve("scripts/mcp-test-server.ts")],
      enabled: true,
      timeoutMs: 10_000,
      maxResultChars: 2000,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const serverId = ((await created.json()) as { server: { id: string } }).server.id;
  const echo = `${name}__echo`;
  const call = `/tool ${echo} ${JSON.stringify({ text: "hello from the MCP server" })}`;
  try {
    await chat.goto();
    await chat.send("hello");
    const sessionId = chat.sessionId();

    // On by default; the user switches it off here.
    await page.getByTestId("tools-menu").click();
    const toggle = page.getByTestId("tools-menu-panel").locator(`[data-server="${name}"]`);
    await expect(toggle).toBeChecked();
    const saved = () =>
      page.waitForResponse(
        (r) =>
          r.url().endsWith(`/api/sessions/${sessionId}/tools`) && r.request().method() === "PATCH" && r.ok(),
      );
    let done = saved();
    await toggle.click();
    await done;
    await expect(toggle).not.toBeChecked();
    // Escape closes the menu and gives the focus back to its button.
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("tools-menu-panel")).toBeHidden();
    await expect(page.getByTestId("tools-menu")).toBeFocused();
    expect((await chat.send(call)).text).toContain(`${echo} is not offered`);

    // Switched on again: the model calls the tool and answers with its result.
    await page.getByTestId("tools-menu").click();
    done = saved();
    await toggle.click();
    await done;
    await expect(toggle).toBeChecked();
    await page.keyboard.press("Escape");
    const answer = await chat.send(call);
    expect(answer.status).toBe("complete");
    expect(answer.text).toContain("hello from the MCP server");

    const step = chat.assistantItems.last().getByTestId("tool-step");
    await expect(step).toHaveCount(1);
    await expect(step).toHaveAttribute("data-tool", echo);
    await expect(step).toHaveAttribute("data-ok", "true");
    await expect(step.locator("summary")).toHaveText(`Used the ${echo} tool`);
    await step.locator("summary").click();
    await expect(step).toContainText('"text": "hello from the MCP server"');
    await expect(step).toContainText('"output": "hello from the MCP server"');

    // The inspector lists the offered tools with what each definition cost, this server's among them.
    const { panel } = await chat.openContext();
    const offered = panel.getByTestId("context-tool").filter({ hasText: echo });
    await expect(offered).toHaveCount(1);
    await expect(offered.getByTestId("context-tool-tokens")).toHaveText(/^[1-9]\d* tok$/);

    // After a reload the step is still there (read from the stored call and result).
    await page.reload();
    await expect(chat.assistantItems.last().getByTestId("tool-step")).toHaveAttribute("data-tool", echo);
  } finally {
    expect((await admin.delete(`/api/admin/tools/${serverId}`)).ok()).toBe(true);
  }
});
