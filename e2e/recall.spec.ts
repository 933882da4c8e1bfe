import type { APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { type ChatPage, expect, importConversation, test } from "./fixtures";

// Recall end to end with the demo model a newcomer meets: a fact stated 60 messages before the question, far outside
// the window of 20, reaches the answer through the recalled section, in English and in Chinese; the line under the
// answer names it and links to the message; clearing memory forgets it; another conversation gets it only when its
// recall reaches all the user's conversations. The history is seeded through POST /api/import (fast, and indexed as
// any stored message is). The tests tagged @pg also run on PostgreSQL.

const WINDOW = 20;
const FILLER = 60;

interface Seeded {
  sessionId: string;
  /** The id of the message stating the fact (seq 1). */
  factId: string;
}

/**
 * One imported conversation: the statement and its answer, then FILLER messages about other things, so that the
 * statement is FILLER messages before the next question.
 */
async function seed(
  request: APIRequestContext,
  {
    title,
    statement,
    reply,
    filler,
  }: { title: string; statement: string; reply: string; filler: (n: number) => [string, string] },
): Promise<Seeded> {
  const pairs: [string, string][] = [[statement, reply]];
  for (let n = 1; n <= FILLER / 2; n++) pairs.push(filler(n));
  const sessionId = await importConversation(request, {
    title,
    texts: pairs.flat(),
    memorySettings: { enabled: true, policy: "window", maxMessages: WINDOW },
  });
  const page = await request.get(`/api/sessions/${sessionId}?limit=500`);
  const { messages: stored } = (await page.json()) as { messages: { id: string; seq: number }[] };
  expect(stored).toHaveLength(FILLER + 2);
  return { sessionId, factId: stored.find((m) => m.seq === 1)?.id as string };
}

const english = (n: number): [string, string] => [
  `Give me tip ${n} for keeping a tidy desk.`,
  `Tip ${n}: put one thing back where it belongs before you start the next task.`,
];
const chinese = (n: number): [string, string] => [
  `请给我第${n}条整理书桌的建议。`,
  `第${n}条建议：开始下一件事之前，先把一样东西放回原处。`,
];

/** The line under the last answer, opened: its items and their links. */
async function openMemoryUsed(chat: ChatPage) {
  const line = chat.assistantItems.last().getByTestId("memory-used");
  await expect(line).toBeVisible();
  const toggle = line.getByTestId("memory-used-toggle");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // Callers have waited for hydration (chat.goto, chat.hydrated after a reload): a key pressed before it is lost.
  await toggle.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  return { line, toggle, items: line.getByTestId("memory-used-items") };
}

test.describe("recall with the demo model", () => {
  test("a fact 60 messages back is recalled, named under the answer and linked to its message @pg", async ({
    page,
    chat,
    user: _user,
  }) => {
    // Seeding, a turn, four axe runs and a reload: over a minute on one loaded core.
    test.setTimeout(120_000);
    const { sessionId, factId } = await seed(page.request, {
      title: "Desk tips",
      statement: "My dog is called Biscuit.",
      reply: "Biscuit is a lovely name for a dog.",
      filler: english,
    });
    await chat.goto(sessionId);
    expect((await chat.send("What is my dog called?")).text).toBe("Your dog is called Biscuit.");

    // The context holds the statement as a recalled item, with its score, though the window starts far later.
    const { panel, entries } = await chat.openContext(-1);
    expect(entries.filter((e) => e.source === "history")).toHaveLength(WINDOW);
    expect(entries.find((e) => e.source === "recalled" && e.seq === 1)?.preview).toBe(
      "My dog is called Biscuit.",
    );
    await expect(panel.getByTestId("context-recalled-score").first()).toHaveText(/\d/);
    await panel.getByRole("button", { name: "Close" }).click();

    const { toggle, items } = await openMemoryUsed(chat);
    await expect(toggle).toHaveText(/Used \d+ earlier messages?/);
    const link = items.locator('[data-kind="recalled"][data-seq="1"]').getByTestId("memory-used-link");
    await expect(link).toHaveAttribute("href", `/c/${sessionId}?message=${factId}`);
    // The opened line, and the memory control with its recall settings, pass axe.
    await expectNoAxeViolations(page);
    await chat.memory.open();
    await expect(chat.memory.popover.getByTestId("memory-recall")).toHaveValue("conversation");
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");

    // The line is part of the stored answer: a reload shows it again.
    await page.reload();
    await chat.hydrated();
    await expect(chat.assistantItems.last().getByTestId("memory-used")).toBeVisible();

    // Following the link opens the conversation at the statement.
    const again = await openMemoryUsed(chat);
    await again.items.locator('[data-kind="recalled"][data-seq="1"]').getByTestId("memory-used-link").click();
    await expect(page).toHaveURL(`/c/${sessionId}?message=${factId}`);
    await expect(page.locator('[data-anchored="true"]')).toContainText("My dog is called Biscuit.");
  });

  test("in Chinese too @pg", async ({ page, chat, user: _user }) => {
    const { sessionId, factId } = await seed(page.request, {
      title: "书桌建议",
      statement: "我的狗叫豆豆。",
      reply: "豆豆是个可爱的名字。",
      filler: chinese,
    });
    await chat.goto(sessionId);
    expect((await chat.send("我的狗叫什么？")).text).toBe("你的狗叫豆豆。");
    const { items } = await openMemoryUsed(chat);
    await expect(
      items.locator('[data-kind="recalled"][data-seq="1"]').getByTestId("memory-used-link"),
    ).toHaveAttribute("href", `/c/${sessionId}?message=${factId}`);
  });

  test("after clear memory it is not recalled @pg", async ({ page, chat, user: _user }) => {
    const { sessionId } = await seed(page.request, {
      title: "Desk tips",
      statement: "My dog is called Biscuit.",
      reply: "Biscuit is a lovely name for a dog.",
      filler: english,
    });
    await chat.goto(sessionId);
    expect((await chat.send("What is my dog called?")).text).toBe("Your dog is called Biscuit.");
    await chat.memory.clear();
    await page.keyboard.press("Escape");
    const answer = await chat.send("What is my dog called?");
    expect(answer.text).toContain("I don't know");
    expect(answer.text).not.toContain("Biscuit");
    await expect(chat.assistantItems.last().getByTestId("memory-used")).toHaveCount(0);
    const { entries } = await chat.openContext(-1);
    expect(entries.map((e) => e.source)).toEqual(["system", "current"]);
  });

  test("a new conversation recalls it only with the scope all my conversations @pg", async ({
    page,
    chat,
    user: _user,
  }) => {
    // Seeding, a turn, four axe runs and a reload: over a minute on one loaded core.
    test.setTimeout(120_000);
    const { sessionId, factId } = await seed(page.request, {
      title: "Desk tips",
      statement: "My dog is called Biscuit.",
      reply: "Biscuit is a lovely name for a dog.",
      filler: english,
    });
    await chat.goto();
    expect((await chat.send("What is my dog called?")).text).toContain("I don't know");
    await expect(chat.assistantItems.last().getByTestId("memory-used")).toHaveCount(0);

    // The header's memory control says it in plain words; all my conversations reaches the other one.
    await chat.memory.open();
    await expect(chat.memory.popover.getByLabel("Also recalls relevant earlier messages")).toHaveValue(
      "conversation",
    );
    await chat.memory.set({ recall: "all", recallMaxTokens: 2000 });
    await page.keyboard.press("Escape");
    expect((await chat.send("What is my dog called?")).text).toBe("Your dog is called Biscuit.");
    const { items } = await openMemoryUsed(chat);
    const item = items.locator('[data-kind="recalled"][data-seq="1"]');
    await expect(item).toContainText("another conversation");
    await expect(item.getByTestId("memory-used-link")).toHaveAttribute(
      "href",
      `/c/${sessionId}?message=${factId}`,
    );
  });
});
