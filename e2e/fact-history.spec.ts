import { expectNoAxeViolations } from "./a11y";
import { expect, test, withScriptedModel } from "./fixtures";

// Fact history and expiry on /memory (docs/decisions/030-fact-history.md): a fact learned in the chat, replaced by a
// newer one and edited by the user shows each version; the user sets an expiry and clears it. axe finds nothing.

withScriptedModel();

const remember = (fact: string) => `/tool remember ${JSON.stringify({ fact })}`;

test("edit a fact, see its history; set and clear its expiry", async ({ page, chat, user: _user }) => {
  await chat.goto();
  await chat.send(remember("My favourite colour is teal"));
  await chat.send(remember("My favourite colour is amber"));

  await page.goto("/memory");
  const item = page.getByTestId("memory-item").filter({ hasText: "amber" });
  await item.getByTestId("memory-edit").click();
  const field = page.getByTestId("memory-edit-input");
  await field.fill("My favourite colour is dark amber");
  await field.press("Enter");
  await expect(page.getByTestId("memory-edit-input")).toHaveCount(0);

  const edited = page.getByTestId("memory-item").filter({ hasText: "dark amber" });
  await edited.getByTestId("memory-history").locator("summary").click();
  const versions = edited.getByTestId("memory-version");
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toHaveAttribute("data-change", "created");
  await expect(versions.nth(0)).toContainText("My favourite colour is amber");
  await expect(versions.nth(0)).toContainText("by the assistant");
  await expect(versions.nth(1)).toHaveAttribute("data-change", "edited");
  await expect(versions.nth(1)).toContainText("by you");
  await expect(versions.nth(1)).toContainText("My favourite colour is dark amber");
  await expect(edited.getByTestId("memory-expiry")).toHaveText("Never expires");
  await expectNoAxeViolations(page);

  const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await edited.getByTestId("memory-expiry-field").fill(day);
  const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.ok());
  await edited.getByRole("button", { name: "Set expiry" }).click();
  await saved;
  await expect(edited.getByTestId("memory-expiry")).toContainText("Expires");
  const id = (await edited.getAttribute("data-memory-id")) ?? "";
  const stored = (await (await page.request.get(`/api/memories/${id}`)).json()) as {
    memory: { expiresAt: string };
  };
  expect(Date.parse(stored.memory.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

  await edited.getByRole("button", { name: "Never expire" }).click();
  await expect(edited.getByTestId("memory-expiry")).toHaveText("Never expires");
  const cleared = (await (await page.request.get(`/api/memories/${id}`)).json()) as {
    memory: { expiresAt: null };
  };
  expect(cleared.memory.expiresAt).toBeNull();
  await expectNoAxeViolations(page);
});

test("the deletion dialog names the facts learned in the conversation; the receipt counts the same", async ({
  page,
  chat,
  user: _user,
}) => {
  await chat.goto();
  await chat.send(remember("I live in Lisbon"));
  const kept = chat.sessionId();
  await chat.goto();
  await chat.send(remember("My favourite colour is teal"));
  await chat.send(remember("My dog is called Rex"));
  const doomed = chat.sessionId();
  expect(kept && doomed && kept !== doomed).toBeTruthy();

  const row = page
    .getByTestId("session-list")
    .locator("li")
    .filter({ has: page.locator(`[data-delete-for="${doomed}"]`) });
  await row.getByTestId("session-link").focus();
  await row.getByTestId("delete-session").click();
  const dialog = page.getByRole("dialog", { name: "Delete this conversation?" });
  await expect(dialog.getByTestId("delete-fact-count")).toHaveText(
    "2 long-term facts learned in it go with it (listed on the Memory page).",
  );
  await expectNoAxeViolations(page);
  await dialog.getByTestId("confirm-button").click();
  await expect(page.getByTestId("receipt-MemoryFact")).toHaveText("2");

  // The other conversation's fact stays, and its own dialog names its one fact.
  await page.goto("/memory");
  await expect(page.getByTestId("memory-item").getByTestId("memory-text")).toHaveText(["I live in Lisbon"]);
  await chat.goto(kept ?? "");
  const other = page
    .getByTestId("session-list")
    .locator("li")
    .filter({ has: page.locator(`[data-delete-for="${kept}"]`) });
  await other.getByTestId("session-link").focus();
  await other.getByTestId("delete-session").click();
  await expect(dialog.getByTestId("delete-fact-count")).toHaveText(
    "1 long-term fact learned in it goes with it (listed on the Memory page).",
  );
  // Keeping it instead: the conversation goes, the fact stays with "a deleted conversation" as its source.
  const keep = dialog.getByTestId("delete-keep-facts");
  await expect(keep).not.toBeChecked();
  await keep.check();
  await expectNoAxeViolations(page);
  await dialog.getByTestId("confirm-button").click();
  await expect(page.getByTestId("receipt-MemoryFact")).toHaveText("0");
  await expect(page.getByTestId("receipt-kept-facts")).toHaveText(
    "1 long-term fact was kept; its source is now “a deleted conversation”.",
  );
  await page.goto("/memory");
  const item = page.getByTestId("memory-item");
  await expect(item.getByTestId("memory-text")).toHaveText(["I live in Lisbon"]);
  await expect(item.getByTestId("memory-source-deleted")).toContainText("in a deleted conversation");
});
