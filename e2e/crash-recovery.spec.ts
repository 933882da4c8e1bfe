import { request as playwrightRequest } from "@playwright/test";
import { readTurnEvents } from "../lib/chat/sse";
import {
  ADMIN,
  type Credentials,
  type ExtraServer,
  e2ePort,
  expect,
  signInViaApi,
  startServer,
  test,
} from "./fixtures";

// A server killed with SIGKILL in the middle of an answer, then started again: the conversation heals within
// seconds, the user finds the text they saw marked interrupted with Retry, and nothing is lost or duplicated.
// Runs on SQLite and on PostgreSQL (@pg): the lease and the partial saves live in the database.

const PORT = e2ePort("E2E_CRASH_PORT");
const LEASE_SECONDS = 5;
const serverEnv = {
  // Slow enough that an answer (~12 words) is still being written 2.5 s after its first word, when the server
  // dies; fast enough that the next turn's whole answer comes within a request's 15 s.
  OFFLINE_MODEL_TOKEN_DELAY_MS: "600",
  TURN_LEASE_SECONDS: String(LEASE_SECONDS),
};

type Message = { id: string; seq: number; role: string; status: string; text: string };

/**
 * Signs `user` in on `origin`, creates a conversation there and starts one turn whose answer is read as it streams
 * (a plain fetch: Playwright's request context would wait for the whole body).
 */
async function startStreamingTurn(origin: string, user: Credentials, title: string) {
  const api = await playwrightRequest.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  await signInViaApi(api, user);
  const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const created = await api.post("/api/sessions", { data: { title } });
  expect(created.status()).toBe(201);
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  const response = await fetch(`${origin}/api/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/json" },
    body: JSON.stringify({ content: "tell me a long story please" }),
  });
  expect(response.status).toBe(200);
  return { api, sessionId, events: readTurnEvents(response.body as ReadableStream<Uint8Array>) };
}

test.describe("crash recovery", () => {
  let server: ExtraServer | undefined;
  test.afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test("a server killed mid-answer heals: interrupted text kept, next turn within 15 s, nothing duplicated @pg", async ({
    page,
    chat,
    user,
  }) => {
    test.setTimeout(120_000);
    server = await startServer(PORT, serverEnv);
    const origin = server.url;
    // One turn, read as it streams; the server dies once the answer has been streaming for 2.5 s.
    const { api, sessionId, events } = await startStreamingTurn(origin, user, "crash");
    let streamed = "";
    let firstDeltaAt = 0;
    for (;;) {
      const { value, done } = await events.next();
      if (done) throw new Error("the answer ended before the crash; make the offline model slower");
      if (value.type !== "delta") continue;
      streamed += value.text;
      firstDeltaAt ||= Date.now();
      if (Date.now() - firstDeltaAt > 2500) break;
    }
    await server.crash();
    await events.return(undefined).catch(() => undefined);

    server = await startServer(PORT, serverEnv);
    const restartedAt = Date.now();

    // The next turn is accepted once the dead turn's lease has run out: 409 until then, never longer than 15 s.
    let accepted = 0;
    while (!accepted) {
      const res = await api.post(`/api/sessions/${sessionId}/messages`, {
        data: { content: "are you there?" },
      });
      if (res.status() === 200) {
        accepted = Date.now();
        await res.body();
        break;
      }
      expect(res.status(), await res.text()).toBe(409);
      expect(Date.now() - restartedAt).toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(accepted - restartedAt).toBeLessThanOrEqual(15_000);

    const history = (await (await api.get(`/api/sessions/${sessionId}`)).json()) as { messages: Message[] };
    expect(history.messages.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "interrupted"],
      [3, "user", "complete"],
      [4, "assistant", "complete"],
    ]);
    const kept = history.messages[1]?.text ?? "";
    // Saved about every second while streaming: at least a second's worth of what the user saw, all of it true.
    expect(kept.length).toBeGreaterThan(0);
    expect(streamed.startsWith(kept)).toBe(true);

    // One snapshot, made by the turn after the crash: the interrupted answer is history, not memory.
    const admin = await playwrightRequest.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
    await signInViaApi(admin, ADMIN);
    const review = (await (await admin.get(`/api/admin/sessions/${sessionId}`)).json()) as {
      snapshot: { throughSeq: number; items: { seq?: number }[] } | null;
    };
    expect(review.snapshot?.throughSeq).toBe(4);
    expect(review.snapshot?.items.map((i) => i.seq)).toEqual([1, 3, 4]);

    // The user sees the text they saw, marked interrupted, with Retry.
    await chat.goto(sessionId);
    const interrupted = page.locator('[data-testid="message"][data-seq="2"]');
    await expect(interrupted).toHaveAttribute("data-status", "interrupted");
    await expect(interrupted.getByTestId("message-text")).toContainText(kept.slice(0, 20));
    await Promise.all([api.dispose(), admin.dispose()]);
  });

  test("a view that follows an answer being written stops following when the lease expires @pg", async ({
    chat,
    user,
  }) => {
    test.setTimeout(120_000);
    // Still being written once another server's page has loaded it: at 300 ms a word it had ended first on a loaded
    // machine ("complete", expected "streaming").
    server = await startServer(PORT, { ...serverEnv, OFFLINE_MODEL_TOKEN_DELAY_MS: "1500" });
    const { api, sessionId, events } = await startStreamingTurn(server.url, user, "followed");
    let deltas = 0;
    while (deltas < 3) {
      const { value, done } = await events.next();
      if (done) throw new Error("the answer ended too early");
      if (value.type === "delta") deltas++;
    }

    // Another tab (the main server, same database) follows the answer being written…
    await chat.goto(sessionId);
    const answer = chat.assistantItems.last();
    await expect(answer).toHaveAttribute("data-status", "streaming");
    // …the writing server dies, and once its lease runs out the view says so and offers Retry.
    await server.crash();
    await events.return(undefined).catch(() => undefined);
    await expect(answer).toHaveAttribute("data-status", "interrupted", {
      timeout: (LEASE_SECONDS + 10) * 1000,
    });
    await expect(chat.retryButton).toBeVisible();
    await api.dispose();
  });
});
