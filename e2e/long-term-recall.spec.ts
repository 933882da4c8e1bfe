import { expect, lastReceived, sent, test, withScriptedModel } from "./fixtures";

// Long-term memory end to end: a fact remembered in one conversation reaches the model in another, traced to its
// source, updated, and gone with the conversation it came from; switched off, nothing is injected. The scripted
// model calls the remember tool as each test scripts it ("/tool remember {…}") and lists what it received.

withScriptedModel();

const remember = (fact: string) => `/tool remember ${JSON.stringify({ fact, subject: "favourite colour" })}`;
const REMEMBER = remember("My favourite colour is teal");
const ASK = "What is my favourite colour?";
const LONG_TERM = "Long-term memory";

test.describe("long-term memory across conversations", () => {
  test("remember in A, recall in B with a link back to A, update, delete A and it is forgotten", async ({
    page,
    chat,
    user: _user,
  }) => {
    // Conversation A: the model calls the remember tool; the chat shows the step collapsed, expandable.
    await chat.goto();
    expect((await chat.send(REMEMBER)).text).toMatch(
      /^remember → \{"remembered":\{.*"My favourite colour is teal"/,
    );
    const a = chat.sessionId() as string;
    const step = chat.assistantItems.last().getByTestId("tool-step");
    await expect(step).toHaveAttribute("data-tool", "remember");
    await expect(step.locator("summary")).toHaveText("Remembered: My favourite colour is teal");
    await step.locator("summary").click();
    await expect(step).toContainText('"fact": "My favourite colour is teal"');

    // Reload keeps the step with its answer (the call and result rows fold into it).
    await page.reload();
    await expect(chat.items).toHaveCount(2);
    await expect(chat.assistantItems.last().getByTestId("tool-step")).toHaveAttribute("data-ok", "true");

    // Conversation B is sent it, and its context shows the long-term entry linking to A's message.
    await chat.openNewChat();
    await expect(chat.emptyState).toBeVisible();
    await chat.send(ASK);
    const b = chat.sessionId() as string;
    const inB = await lastReceived(page.request, b);
    expect(sent(inB, "system", LONG_TERM)).toEqual([
      expect.stringContaining("] My favourite colour is teal"),
    ]);
    expect(sent(inB, "user")).toEqual([ASK]);
    const { panel, entries } = await chat.openContext(-1);
    expect(entries.map((e) => e.source)).toEqual(["system", "fact", "current"]);
    await expect(panel.getByTestId("context-fact")).toContainText("My favourite colour is teal");
    const source = panel.getByTestId("context-fact-source");
    await expect(source).toHaveAttribute("href", new RegExp(`^/c/${a}\\?message=[\\w-]+$`));

    // Following the link opens A at the message the fact came from.
    await source.click();
    await expect(page).toHaveURL(new RegExp(`/c/${a}\\?message=`));
    await expect(chat.items.first()).toContainText(REMEMBER);
    await expect(page.locator('[data-anchored="true"]')).toBeFocused();

    // In A the colour changes: the fact is superseded, and B is sent the new one only.
    expect((await chat.send(remember("My favourite colour is amber"))).text).toMatch(
      /"replaced":\[\{.*"My favourite colour is teal"/,
    );
    await chat.goto(b);
    await chat.send(ASK);
    const updated = sent(await lastReceived(page.request, b), "system", LONG_TERM).join("\n");
    expect(updated).toContain("] My favourite colour is amber");
    expect(updated).not.toContain("teal");

    // /memory lists the current fact.
    await page.goto("/memory");
    await expect(page.getByTestId("memory-item")).toHaveCount(1);
    await expect(page.getByTestId("memory-item")).toContainText("My favourite colour is amber");

    // Deleting A deletes what was learned there: the receipt counts the memories, and a new chat does not know.
    const deleted = await page.request.delete(`/api/sessions/${a}`);
    expect(deleted.ok()).toBe(true);
    const { receipt } = (await deleted.json()) as { receipt: { deleted: Record<string, number> } };
    expect(receipt.deleted.MemoryFact).toBe(2);
    await chat.goto();
    await chat.send(ASK);
    const after = await lastReceived(page.request, chat.sessionId() as string);
    expect(after.entries.map((e) => e.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(after.entries)).not.toMatch(/teal|amber/);
    expect((await chat.openContext(-1)).entries.map((e) => e.source)).toEqual(["system", "current"]);
    await page.goto("/memory");
    await expect(page.getByTestId("memory-empty")).toBeVisible();
  });

  test("switched off on /memory: nothing is injected and nothing new is remembered", async ({
    page,
    chat,
    user: _user,
  }) => {
    await chat.goto();
    await chat.send(REMEMBER);

    const off = await page.request.patch("/api/me/settings", { data: { longTermMemory: false } });
    expect(off.ok()).toBe(true);
    await chat.openNewChat();
    await expect(chat.emptyState).toBeVisible();
    await chat.send(ASK);
    const received = await lastReceived(page.request, chat.sessionId() as string);
    expect(JSON.stringify(received.entries)).not.toContain("teal");
    expect(received.tools).not.toContain("remember");
    expect((await chat.openContext(-1)).entries.map((e) => e.source)).toEqual(["system", "current"]);
    expect((await chat.send('/tool remember {"fact":"My favourite food is ramen"}')).text).toMatch(
      /^\/tool: remember is not offered/,
    );
    await expect(chat.assistantItems.last().getByTestId("tool-step")).toHaveCount(0);
  });
});
