import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y";
import { expect, test } from "./fixtures";

// Extraction after each answer (issue 24) with the demo model on the main server (which runs with
// MEMORY_EXTRACTION=off, so each test chooses for its user): "Save to memory?" chips under the answer, accepting
// them, and a new conversation that knows the facts; automatic mode with Undo. Every wait is for an element.

/** Chosen after the page is open: the request carries the page's Origin, as the app's own writes do. */
async function chooseMode(page: Page, mode: "suggest" | "auto") {
  const res = await page.request.patch("/api/me/settings", {
    data: { memoryExtraction: mode },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.ok()).toBe(true);
}

test("suggest: chips under the answer, accepted (one edited), and a new conversation knows both", async ({
  page,
  chat,
  user: _user,
}) => {
  await chat.goto();
  await chooseMode(page, "suggest");
  await chat.send("I'm vegetarian and I live in Lyon");
  const facts = chat.assistantItems.last().getByTestId("extracted-fact");
  await expect(facts).toHaveCount(2);
  await expect(chat.assistantItems.last().getByTestId("extracted-facts")).toContainText("Save to memory?");
  await expect(facts.nth(0)).toContainText("I'm vegetarian");
  await expect(facts.nth(1)).toContainText("I live in Lyon");
  await expectNoAxeViolations(page);

  await facts.nth(0).getByTestId("extracted-fact-save").click();
  await expect(facts.nth(0)).toHaveAttribute("data-status", "active");
  await expect(facts.nth(0)).toContainText("Remembered: I'm vegetarian");
  await facts.nth(1).getByTestId("extracted-fact-edit").click();
  await facts.nth(1).getByTestId("extracted-fact-input").fill("I live in Lyon, France");
  await facts.nth(1).getByTestId("extracted-fact-save").click();
  await expect(facts.nth(1)).toContainText("Remembered: I live in Lyon, France");

  await chat.openNewChat();
  const answer = await chat.send("What do you know about me?");
  expect(answer.text).toContain("I'm vegetarian");
  expect(answer.text).toContain("I live in Lyon, France");
});

test("suggest: dismissed on the answer, reviewed on /memory", async ({ page, chat, user: _user }) => {
  await chat.goto();
  await chooseMode(page, "suggest");
  await chat.send("I like jazz. My favourite colour is teal");
  const facts = chat.assistantItems.last().getByTestId("extracted-fact");
  await expect(facts).toHaveCount(2);
  await facts.nth(0).getByTestId("extracted-fact-dismiss").click();
  await expect(facts).toHaveCount(1);

  await page.goto("/memory");
  const review = page.getByTestId("suggestion-list");
  await expect(review.getByTestId("extracted-fact")).toHaveCount(1);
  await expect(review).toContainText("My favourite colour is teal");
  await expect(page.getByTestId("extraction-mode-suggest")).toBeChecked();
  await review.getByTestId("extracted-fact-save").click();
  await expect(page.getByTestId("suggestion-list")).toHaveCount(0);
  await expect(page.getByTestId("memory-item")).toHaveCount(1);
  await expect(page.getByTestId("memory-item")).toContainText("My favourite colour is teal");
  await expectNoAxeViolations(page);
});

test("auto: saved at once and shown as Remembered, Undo forgets it", async ({ page, chat, user: _user }) => {
  await chat.goto();
  await chooseMode(page, "auto");
  await chat.send("I live in Lyon");
  const fact = chat.assistantItems.last().getByTestId("extracted-fact");
  await expect(fact).toHaveAttribute("data-status", "active");
  await expect(fact).toContainText("Remembered: I live in Lyon");
  await fact.getByTestId("extracted-fact-undo").click();
  await expect(fact).toHaveCount(0);

  await chat.openNewChat();
  const answer = await chat.send("What do you know about me?");
  expect(answer.text).not.toContain("Lyon");
});
