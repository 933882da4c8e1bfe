import type { APIRequestContext, Locator } from "@playwright/test";
import { ADMIN, type ChatPage, expect, lastReceived, sent, test, withScriptedModel } from "./fixtures";

// Per-conversation memory from the chat header: a fact from turn 1 reaching the model at turn 15 only through a
// summary, gone with a plain window of the same size; the header control changing what the next answer is sent;
// and clearing memory while the history stays. The scripted model answers with the list of what it received, so
// each test asserts on what reached the model.

withScriptedModel();

const FACT = "My code word is 青云-4173.";
const CODE = "青云-4173";
const QUESTION = "What is my code word?";
const FILLERS = 13;

/** A new, empty conversation of the signed-in user (made through the API, as the sidebar would). */
async function createConversation(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/sessions", { data: { title: "Memory" } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

/** One turn through the API; resolves once the whole event stream is read, i.e. the turn is committed. */
async function turnViaApi(request: APIRequestContext, sessionId: string, content: string) {
  const res = await request.post(`/api/sessions/${sessionId}/messages`, { data: { content } });
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('"type":"done"');
}

/** These tests are about the window and summaries: recall (on by default) would bring the fact back by itself. */
async function recallOff(request: APIRequestContext, sessionId: string) {
  const res = await request.patch(`/api/sessions/${sessionId}/memory`, { data: { recall: "off" } });
  expect(res.status()).toBe(200);
}

interface MemoryJson {
  summary?: { fromSeq: number; throughSeq: number; messages: number; version: number };
}

async function memoryOf(request: APIRequestContext, sessionId: string): Promise<MemoryJson> {
  const res = await request.get(`/api/sessions/${sessionId}/memory`);
  expect(res.status()).toBe(200);
  return (await res.json()) as MemoryJson;
}

/**
 * In a new conversation: the policy set through the header control, the fact said in the chat, 13 fillers
 * through the API, the page reloaded, and the question asked at turn 15.
 */
async function factThenFillersThenAsk(
  chat: ChatPage,
  policy: "window" | "summary",
): Promise<{ sessionId: string }> {
  const { request } = chat.page;
  const sessionId = await createConversation(request);
  await recallOff(request, sessionId);
  await chat.goto(sessionId);
  await expect(chat.memory.text).toHaveText("Remembers the last 20 messages");
  await chat.memory.set({ policy, maxMessages: 4 });
  await expect(chat.memory.text).toHaveText(
    policy === "summary" ? "Summary + the last 4 messages" : "Remembers the last 4 messages",
  );

  expect((await chat.send(FACT)).status).toBe("complete");
  for (let i = 1; i <= FILLERS; i++) {
    await turnViaApi(request, sessionId, `Filler ${i}: tell me something about the number ${i * 7}.`);
  }
  if (policy === "summary") {
    // The summary is written right after a turn, off its path. The question below does not need the newest one
    // (every version keeps the fact); waiting for it here only lets the header show it after the reload.
    await expect
      .poll(async () => (await memoryOf(request, sessionId)).summary?.fromSeq, {
        message: "a summary from #1",
      })
      .toBe(1);
  }

  await chat.goto(sessionId);
  const answer = await chat.send(QUESTION);
  expect(answer.status).toBe("complete");
  const messages = await chat.messages();
  // Turn 15: the fact, 13 fillers, then the question.
  expect(messages).toHaveLength(30);
  expect(messages[0]).toMatchObject({ role: "user", seq: 1, text: FACT });
  expect(messages[28]).toMatchObject({ role: "user", seq: 29, text: QUESTION });
  return { sessionId };
}

/** The entries of a context panel with their token counts, as shown. */
function entryTokens(panel: Locator) {
  return panel
    .getByTestId("context-entry-tokens")
    .evaluateAll((nodes) => nodes.map((n) => Number((n.textContent ?? "").replace(/\D/g, ""))));
}

test.describe("conversation memory", () => {
  test("a fact from turn 1 reaches the model at turn 15 through a summary @pg", async ({
    chat,
    user: _signedIn,
  }) => {
    const { sessionId } = await factThenFillersThenAsk(chat, "summary");
    const received = await lastReceived(chat.page.request, sessionId);
    // Inside the summary the model was sent, not as a message of its own; the question comes last, once.
    expect(sent(received, "system", "Summary of the earlier conversation").join("\n")).toContain(
      `User: ${FACT}`,
    );
    expect(sent(received, "user")).not.toContain(FACT);
    expect(sent(received, "user").filter((t) => t === QUESTION)).toHaveLength(1);
    expect(received.entries.at(-1)).toMatchObject({ role: "user", text: QUESTION });
    await expect(chat.memory.text).toHaveText(
      /^Summary \+ the last 4 messages · \d+ earlier ones summarized$/,
    );

    const { panel, entries } = await chat.openContext(-1);
    // The fact reached the model only inside the summary: message #1 itself was not sent.
    expect(entries.filter((e) => e.source === "summary")).toHaveLength(1);
    expect(entries.some((e) => e.seq === 1)).toBe(false);
    const history = entries.filter((e) => e.source === "history");
    expect(history.length).toBeGreaterThanOrEqual(4);
    expect(history.length).toBeLessThanOrEqual(8);
    await expect(panel.getByTestId("context-summary-range")).toHaveText(
      /^Summary of #1–#\d+, v\d+ \(\d+ messages\)$/,
    );
    await expect(panel.getByTestId("context-policy")).toHaveText("Summary + the last 4 messages");
  });

  test("with a window of 4 and no summary, the fact from turn 1 is not sent", async ({
    chat,
    user: _signedIn,
  }) => {
    const { sessionId } = await factThenFillersThenAsk(chat, "window");
    const received = await lastReceived(chat.page.request, sessionId);
    expect(JSON.stringify(received.entries)).not.toContain(CODE);
    // The last four messages (two fillers and their answers), then the question.
    expect(sent(received, "user")).toEqual([
      "Filler 12: tell me something about the number 84.",
      "Filler 13: tell me something about the number 91.",
      QUESTION,
    ]);
    expect(sent(received, "assistant")).toHaveLength(2);

    const { panel, entries } = await chat.openContext(-1);
    expect(entries.filter((e) => e.source === "summary")).toHaveLength(0);
    expect(entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([25, 26, 27, 28]);
    await expect(panel.getByTestId("context-policy")).toHaveText("Window of the last 4 messages");
  });

  test("the header control changes the next answer's memory, and the inspector says so", async ({
    chat,
    user: _signedIn,
  }) => {
    await chat.goto();
    // A new chat has no memory of its own yet: the control comes with the conversation.
    await expect(chat.memory.trigger).toBeHidden();
    await chat.send(FACT);
    await chat.send("Tell me about rivers.");
    await recallOff(chat.page.request, chat.sessionId() as string);
    await chat.page.reload();
    await expect(chat.memory.text).toHaveText("Remembers the last 20 messages");

    // Keyboard: the popover opens on the trigger, Escape closes it and gives focus back.
    await chat.memory.trigger.focus();
    await chat.page.keyboard.press("Enter");
    await expect(chat.memory.popover).toBeVisible();
    await expect(chat.memory.popover.getByTestId("memory-enabled")).toBeFocused();
    await chat.page.keyboard.press("Escape");
    await expect(chat.memory.popover).toBeHidden();
    await expect(chat.memory.trigger).toBeFocused();

    // A value out of range is refused by the server, in its words, and nothing changes.
    await chat.memory.submit({ maxMessages: 0 });
    await expect(chat.memory.error).toHaveText("maxMessages must be an integer from 1 to 10000");
    await expect(chat.memory.text).toHaveText("Remembers the last 20 messages");

    await chat.memory.set({ policy: "window", maxMessages: 2 });
    await expect(chat.memory.text).toHaveText("Remembers the last 2 messages");
    await chat.page.keyboard.press("Escape");

    await chat.send(QUESTION);
    const received = await lastReceived(chat.page.request, chat.sessionId() as string);
    expect(sent(received, "user")).toEqual(["Tell me about rivers.", QUESTION]);
    expect(JSON.stringify(received.entries)).not.toContain(CODE);
    const { panel, entries } = await chat.openContext(-1);
    expect(entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([3, 4]);
    await expect(panel.getByTestId("context-policy")).toHaveText("Window of the last 2 messages");
    // Real token counts per entry and per tool definition offered, and a total that covers them all (plus the
    // request's reply priming).
    const tokens = await entryTokens(panel);
    expect(tokens).toHaveLength(entries.length);
    expect(tokens.every((n) => n > 0)).toBe(true);
    const toolTokens = await panel
      .getByTestId("context-tool-tokens")
      .evaluateAll((nodes) => nodes.map((n) => Number((n.textContent ?? "").replace(/\D/g, ""))));
    expect(toolTokens.length).toBeGreaterThan(0);
    const total = Number(
      ((await panel.getByTestId("context-tokens").textContent()) ?? "").replace(/\D/g, ""),
    );
    const sum = [...tokens, ...toolTokens].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(sum);
    expect(total).toBeLessThan(sum + 10);

    // Memory off: the next answer is sent no history at all.
    await chat.memory.set({ enabled: false });
    await expect(chat.memory.text).toHaveText("Memory off");
    await chat.page.keyboard.press("Escape");
    await chat.send("Tell me about lakes.");
    const alone = await lastReceived(chat.page.request, chat.sessionId() as string);
    expect(alone.entries.map((e) => e.role)).toEqual(["system", "user"]);
    const off = await chat.openContext(-1);
    expect(off.entries.filter((e) => e.source === "history")).toHaveLength(0);
    await expect(off.panel.getByTestId("context-policy")).toHaveText("Memory off");
  });

  test("clearing memory forgets the fact while the history still shows it @pg", async ({
    chat,
    user: _signedIn,
  }) => {
    await chat.goto();
    await chat.send(FACT);
    await chat.send(QUESTION);
    const sessionId = chat.sessionId() as string;
    expect(sent(await lastReceived(chat.page.request, sessionId), "user")).toEqual([FACT, QUESTION]);

    await chat.memory.clear();
    await expect(chat.memory.text).toHaveText("Memory cleared — remembers only what was said since");
    const divider = chat.page.getByTestId("memory-cleared-divider");
    await expect(divider).toHaveText("Memory cleared here — the model no longer sees the messages above");
    // Right after the last message said before the clear.
    await expect(
      chat.page.locator('[data-testid="message"][data-seq="4"] + [data-testid="memory-cleared-divider"]'),
    ).toBeVisible();
    await chat.page.keyboard.press("Escape");

    await chat.send(QUESTION);
    const received = await lastReceived(chat.page.request, sessionId);
    expect(JSON.stringify(received.entries)).not.toContain(CODE);
    expect(sent(received, "user")).toEqual([QUESTION]);
    const { entries } = await chat.openContext(-1);
    expect(entries.filter((e) => e.seq !== null && e.seq <= 4)).toEqual([]);

    // After a reload: the history still has the fact, marked as said before the clear.
    await chat.goto(sessionId);
    const messages = await chat.messages();
    expect(messages[0]).toMatchObject({ role: "user", seq: 1, text: FACT });
    expect(messages).toHaveLength(6);
    await expect(divider).toHaveCount(1);
    await expect(
      chat.page.locator('[data-testid="message"][data-seq="4"] + [data-testid="memory-cleared-divider"]'),
    ).toBeVisible();
    await expect(chat.memory.text).toHaveText("Remembers the last 20 messages · since memory was cleared");
  });
});

test("the admin sees a conversation's memory settings and its clear", async ({
  page,
  user: _signedIn,
  pageAs,
}) => {
  const sessionId = await createConversation(page.request);
  const patched = await page.request.patch(`/api/sessions/${sessionId}/memory`, {
    data: { policy: "summary", maxMessages: 4 },
  });
  expect(patched.status()).toBe(200);
  await turnViaApi(page.request, sessionId, FACT);
  expect((await page.request.post(`/api/sessions/${sessionId}/memory/clear`, { data: {} })).status()).toBe(
    200,
  );

  const admin = await pageAs(ADMIN);
  await admin.goto(`/admin/sessions/${sessionId}`);
  const settings = admin.getByTestId("memory-settings");
  await expect(settings.getByTestId("memory-settings-enabled")).toHaveText("on");
  await expect(settings.getByTestId("memory-settings-policy")).toHaveText("summary");
  await expect(settings.getByTestId("memory-settings-cleared")).toHaveText("yes, after #2");
  await expect(admin.getByTestId("next-context")).toContainText("Summary + the last 4 messages");
});
