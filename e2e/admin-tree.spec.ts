import type { APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { ADMIN, expect, test } from "./fixtures";

// The admin's session review shows the message tree — every branch, the active path marked, parents
// and branch points — beside the memory. The branches are made through the chat API (regenerate, edit).

type Meta = { userMessage: { id: string; seq: number }; assistantMessage: { id: string; seq: number } };

/** One turn through the chat API; returns the ids of its question and answer (the stream's `meta` event). */
async function turn(
  request: APIRequestContext,
  sessionId: string,
  data: Record<string, unknown>,
): Promise<Meta> {
  const res = await request.post(`/api/sessions/${sessionId}/messages`, { data });
  expect(res.status(), await res.text().catch(() => "")).toBe(200);
  const events = (await res.text())
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { type: string } & Partial<Meta>);
  expect(events.at(-1)?.type).toBe("done");
  const meta = events.find((e) => e.type === "meta");
  if (!meta?.userMessage || !meta.assistantMessage) throw new Error("no meta event");
  return { userMessage: meta.userMessage, assistantMessage: meta.assistantMessage };
}

test("the admin sees every branch, the active path, parents and branch points, and can show the path alone", async ({
  page,
  user,
  pageAs,
}) => {
  void user;
  const created = await page.request.post("/api/sessions", { data: { title: "Branches" } });
  expect(created.status()).toBe(201);
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  // 1 Q1 ─ 2 A1 ─┬─ 3 Q2 ─┬─ 4 A2
  //              │        └─ 5 A2, regenerated
  //              └─ 6 Q2, edited ─ 7 A2'   ← active leaf
  const first = await turn(page.request, sessionId, { content: "Say something about rivers" });
  const second = await turn(page.request, sessionId, { content: "And about lakes?" });
  await turn(page.request, sessionId, { regenerate: second.assistantMessage.id });
  const edited = await turn(page.request, sessionId, {
    content: "And about seas?",
    parentId: first.assistantMessage.id,
  });
  expect(edited.assistantMessage.seq).toBe(7);

  const admin = await pageAs(ADMIN);
  await admin.goto(`/admin/sessions/${sessionId}`);
  const messages = admin.getByTestId("admin-message");
  await expect(messages).toHaveCount(7);
  const shown = () =>
    messages.evaluateAll((nodes) =>
      nodes.map((n) => [Number(n.getAttribute("data-seq")), n.getAttribute("data-on-path") === "true"]),
    );
  expect(await shown()).toEqual([
    [1, true],
    [2, true],
    [3, false],
    [4, false],
    [5, false],
    [6, true],
    [7, true],
  ]);
  const message = (seq: number) => admin.locator(`[data-testid="admin-message"][data-seq="${seq}"]`);
  await expect(message(2).getByTestId("branch-point")).toHaveText("2 versions follow");
  await expect(message(3).getByTestId("branch-point")).toHaveText("2 versions follow");
  await expect(message(5).getByTestId("parent-note")).toHaveText("reply to #3");
  await expect(message(6).getByTestId("parent-note")).toHaveText("reply to #2");
  await expect(message(6).getByTestId("version-note")).toHaveText("one of 2 versions");
  await expect(message(4).getByTestId("parent-note")).toHaveCount(0); // its parent is the message above
  await expect(message(7).getByTestId("path-badge")).toHaveText("active path · last message");
  await expect(message(4).getByTestId("path-badge")).toHaveText("other branch");
  // "reply to #2" links to message 2 on the page.
  await message(6).getByTestId("parent-note").getByRole("link").click();
  await expect(admin).toHaveURL(/#msg-2$/);
  await expectNoAxeViolations(admin);

  // Active path only: the four messages the user sees; the others are counted, not lost.
  await admin.getByTestId("branch-filter").getByText("Active path only").click();
  await expect(messages).toHaveCount(4);
  expect((await shown()).map(([seq]) => seq)).toEqual([1, 2, 6, 7]);
  await expect(admin.getByTestId("branches-hidden")).toHaveText("3 messages on other branches hidden");
  await expect(message(6).getByTestId("parent-note")).toHaveCount(0);
  await expectNoAxeViolations(admin);
  await admin.getByTestId("branch-filter").getByText("All branches").click();
  await expect(messages).toHaveCount(7);
});

test("deleting a user says their long-term memories go too", async ({ user, pageAs }) => {
  const admin = await pageAs(ADMIN);
  await admin.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  await admin
    .locator(`[data-testid="admin-user-row"][data-email="${user.email}"]`)
    .getByTestId("user-delete")
    .click();
  const dialog = admin.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("long-term memories (0 remembered facts)");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});
