import type { APIRequestContext } from "@playwright/test";
import { expect, importConversation, test } from "./fixtures";

// Summaries that cover everything (issue 24 item 4, decision 034): an imported 500-message conversation switched to
// the summary policy is summarized from its start by the background job, so a fact stated in message #1 reaches the
// model — inside the summary, with recall off — and the demo model, which knows only what it was sent, answers it.
// The tests tagged @pg also run on PostgreSQL.

const MESSAGES = 500;
const WINDOW = 4;
const FACT = "My locker code is 4721.";
const QUESTION = "What is my locker code?";

interface MemoryJson {
  summary?: { fromSeq: number; throughSeq: number; messages: number };
}

/** FACT, then tidy-desk tips and their answers, MESSAGES in all, under a window of WINDOW with recall off. */
function importLongConversation(request: APIRequestContext): Promise<string> {
  const texts = Array.from({ length: MESSAGES }, (_, i) => {
    const n = Math.floor(i / 2);
    if (i === 0) return FACT;
    return i % 2 === 0
      ? `Give me tip ${n} for keeping a tidy desk.`
      : `Tip ${n}: put one thing back where it belongs before you start the next task.`;
  });
  return importConversation(request, {
    title: "Desk tips",
    texts,
    memorySettings: { enabled: true, policy: "window", maxMessages: WINDOW, recall: "off" },
    start: Date.parse("2026-09-01T09:00:00.000Z"),
  });
}

test("an imported 500-message conversation switched to summary is summarized from #1; its first fact is answered @pg", async ({
  chat,
  user: _signedIn,
}) => {
  // 500 messages imported, then summarized segment by segment on a shared machine.
  test.setTimeout(120_000);
  const { request } = chat.page;
  const sessionId = await importLongConversation(request);
  const memoryOf = async () => {
    const res = await request.get(`/api/sessions/${sessionId}/memory`);
    expect(res.status()).toBe(200);
    return (await res.json()) as MemoryJson;
  };
  // Before the switch: a window of 4, no summary.
  expect((await memoryOf()).summary).toBeUndefined();

  const patched = await request.patch(`/api/sessions/${sessionId}/memory`, { data: { policy: "summary" } });
  expect(patched.status(), await patched.text()).toBe(200);
  // The backlog runs in the background, segment by segment, until the summary reaches the memory's oldest message.
  await expect
    .poll(async () => (await memoryOf()).summary?.fromSeq ?? 0, {
      message: "a summary from #1",
      timeout: 60_000,
    })
    .toBe(1);
  const { summary } = await memoryOf();
  const through = summary?.throughSeq ?? 0;
  expect(through).toBeGreaterThan(MESSAGES - 20);
  expect(summary?.messages).toBe(through);

  await chat.goto(sessionId);
  await expect(chat.memory.text).toHaveText(
    new RegExp(`^Summary \\+ the last ${WINDOW} messages · ${through} earlier ones summarized$`),
  );
  const answer = await chat.send(QUESTION);
  expect(answer.status).toBe("complete");
  expect(answer.text).toContain("4721");

  const { panel, entries } = await chat.openContext(-1);
  // Through the summary only: neither message #1 nor a recalled item was sent.
  expect(entries.filter((e) => e.source === "summary")).toHaveLength(1);
  expect(entries.some((e) => e.seq === 1)).toBe(false);
  expect(entries.some((e) => e.source === "recall")).toBe(false);
  await expect(panel.getByTestId("context-summary-range")).toHaveText(
    /^Summary of #1–#\d+, v\d+ \(\d+ messages\)$/,
  );
});
