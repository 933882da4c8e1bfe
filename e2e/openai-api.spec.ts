import type { APIRequestContext } from "@playwright/test";
import OpenAI from "openai";
import { type ExtraServer, e2ePort, expect, MAIN_URL, startServer, test } from "./fixtures";

// The OpenAI-compatible API with server-side memory, driven by the official `openai` npm client against
// the running app. The client sends only the new question; Recall supplies the conversation's memory.

const SLOW_PORT = e2ePort("E2E_OPENAI_SLOW_PORT");
// The e2e servers' model (the demo); a name /v1/models does not list is a 404 model_not_found.
const MODEL = "recall-offline";

type Message = { id: string; seq: number; role: string; status: string; text: string };

async function createKey(api: APIRequestContext, name: string): Promise<string> {
  const res = await api.post("/api/keys", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { id: string; name: string; prefix: string; key: string };
  expect(body.name).toBe(name);
  expect(body.key.startsWith(body.prefix)).toBe(true);
  return body.key;
}

const client = (apiKey: string, baseURL = MAIN_URL) => new OpenAI({ apiKey, baseURL: `${baseURL}/v1` });

/** One streamed turn: the answer's text, the usage chunk, and the conversation named by the response. */
async function streamTurn(openai: OpenAI, content: string, sessionId?: string) {
  const { data: stream, response } = await openai.chat.completions
    .create(
      {
        model: MODEL,
        messages: [{ role: "user", content }],
        stream: true,
        stream_options: { include_usage: true },
      },
      { headers: sessionId ? { "X-Recall-Session": sessionId } : {} },
    )
    .withResponse();
  let text = "";
  let usage: OpenAI.CompletionUsage | null | undefined;
  let finish: string | null = null;
  for await (const chunk of stream) {
    expect(chunk.object).toBe("chat.completion.chunk");
    expect(chunk.id).toMatch(/^chatcmpl-/);
    text += chunk.choices[0]?.delta.content ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage, finish, sessionId: response.headers.get("x-recall-session") };
}

test.describe("OpenAI-compatible API", () => {
  test("two-turn recall with only the new question, streamed and not; the conversations show in the web UI @pg", async ({
    page,
    user,
    apiAs,
  }) => {
    const api = await apiAs(user);
    const openai = client(await createKey(api, "e2e recall"));

    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toHaveLength(1);

    // Not streamed.
    const first = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: "user", content: "My code word is MARLIN-5150." }] })
      .withResponse();
    const plainSession = first.response.headers.get("x-recall-session");
    expect(plainSession).toBeTruthy();
    expect(first.data.usage?.prompt_tokens).toBeGreaterThan(0);
    const second = await openai.chat.completions.create(
      { model: MODEL, messages: [{ role: "user", content: "What is my code word?" }] },
      { headers: { "X-Recall-Session": plainSession as string } },
    );
    expect(second.object).toBe("chat.completion");
    expect(second.choices[0]?.message.content).toContain("MARLIN-5150");
    expect(second.choices[0]?.finish_reason).toBe("stop");
    expect(second.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    expect(second.usage?.prompt_tokens).toBeGreaterThan(first.data.usage?.prompt_tokens ?? 0);

    // Streamed.
    const one = await streamTurn(openai, "My code word is KESTREL-77.");
    expect(one.sessionId).toBeTruthy();
    expect(one.sessionId).not.toBe(plainSession);
    const two = await streamTurn(openai, "What is my code word?", one.sessionId as string);
    expect(two.sessionId).toBe(one.sessionId);
    expect(two.text).toContain("KESTREL-77");
    expect(two.finish).toBe("stop");
    expect(two.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(two.usage?.completion_tokens).toBeGreaterThan(0);

    // Both conversations are the user's, with both turns and their recorded contexts.
    const listed = (await (await api.get("/api/sessions")).json()) as { sessions: { id: string }[] };
    expect(listed.sessions.map((s) => s.id)).toEqual(expect.arrayContaining([plainSession, one.sessionId]));
    for (const sessionId of [plainSession, one.sessionId] as string[]) {
      const { messages } = (await (await api.get(`/api/sessions/${sessionId}`)).json()) as {
        messages: Message[];
      };
      expect(messages.map((m) => [m.seq, m.role, m.status])).toEqual([
        [1, "user", "complete"],
        [2, "assistant", "complete"],
        [3, "user", "complete"],
        [4, "assistant", "complete"],
      ]);
      for (const answer of messages.filter((m) => m.role === "assistant")) {
        const res = await api.get(`/api/sessions/${sessionId}/turns/${answer.id}/context`);
        expect(res.status()).toBe(200);
        const { context } = (await res.json()) as { context: { entries: { source: string }[] } };
        expect(context.entries.at(-1)?.source).toBe("current");
      }
      // The second turn's context came from the server's memory: it holds the first turn.
      const last = messages.at(-1) as Message;
      const { context } = (await (
        await api.get(`/api/sessions/${sessionId}/turns/${last.id}/context`)
      ).json()) as {
        context: { entries: { source: string; seq?: number | null }[] };
      };
      expect(context.entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual([1, 2]);
    }

    // And in the browser: the sidebar lists it, and it opens with both turns.
    await page.goto(`/c/${one.sessionId}`);
    // Named after its first message, or already by the automatic title (made off the turn's path).
    await expect(page.getByTestId("sidebar").getByText(/^My code word is KESTREL-77\.?$/)).toBeVisible();
    await expect(page.getByTestId("message")).toHaveCount(4);
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(
      "KESTREL-77",
    );
  });

  test("keys from the settings page; a revoked key is refused at once; another user's conversation is a 404", async ({
    page,
    user,
    apiAs,
    createUser,
  }) => {
    await page.goto("/");
    await page.getByTestId("api-keys-link").click();
    await expect(page).toHaveURL(/\/settings\/keys$/);
    await page.getByTestId("api-key-name").fill("from the page");
    await page.getByTestId("api-key-create").click();
    const key = ((await page.getByTestId("api-key-secret").textContent()) ?? "").trim();
    expect(key).toMatch(/^rk_/);
    await expect(page.getByTestId("api-key-row")).toHaveCount(1);
    // The list never shows the key again.
    await page.reload();
    await expect(page.getByTestId("api-key-row")).toHaveCount(1);
    await expect(page.getByText(key)).toHaveCount(0);

    const openai = client(key);
    const mine = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    const sessionId = mine.response.headers.get("x-recall-session") as string;

    // Another user's key cannot reach this conversation (and learns nothing about it).
    const intruder = await createUser("intruder");
    const intruderApi = await apiAs(intruder);
    const theirs = client(await createKey(intruderApi, "intruder"));
    const foreign = await theirs.chat.completions
      .create(
        { model: MODEL, messages: [{ role: "user", content: "What is my code word?" }] },
        { headers: { "X-Recall-Session": sessionId } },
      )
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(OpenAI.NotFoundError);
    expect((foreign as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ code: "not_found" });

    // Revoke on the settings page: the very next request fails with 401.
    await page.getByTestId("api-key-revoke").click();
    await page.getByRole("dialog").getByTestId("confirm-button").click();
    await expect(page.getByTestId("api-keys-empty")).toBeVisible();
    const refused = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: "user", content: "hello again" }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(openai.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    // The conversation made with the key is still the user's.
    const api = await apiAs(user);
    expect((await api.get(`/api/sessions/${sessionId}`)).status()).toBe(200);
  });

  test.describe("on a slow model", () => {
    let server: ExtraServer | undefined;
    test.afterEach(async () => {
      await server?.stop();
      server = undefined;
    });

    test("concurrent requests on one conversation: exactly one 409, not retried by the client", async ({
      user,
      apiAs,
    }) => {
      test.setTimeout(90_000);
      server = await startServer(SLOW_PORT, { OFFLINE_MODEL_TOKEN_DELAY_MS: "200" });
      const key = await createKey(await apiAs(user), "concurrency");
      // Default retries: a 409 must come back once, not be retried behind the running turn.
      const openai = client(key, server.url);
      const first = await openai.chat.completions
        .create({ model: MODEL, messages: [{ role: "user", content: "hi" }] })
        .withResponse();
      const sessionId = first.response.headers.get("x-recall-session") as string;

      const ask = (content: string) =>
        openai.chat.completions
          .create(
            { model: MODEL, messages: [{ role: "user", content }] },
            { headers: { "X-Recall-Session": sessionId } },
          )
          .then(
            (r) => ({ ok: true as const, text: r.choices[0]?.message.content ?? "" }),
            (e: unknown) => ({ ok: false as const, error: e }),
          );
      const results = await Promise.all([ask("tell me a story"), ask("tell me another story")]);
      const conflicts = results.filter((r) => !r.ok);
      expect(conflicts).toHaveLength(1);
      const conflict = conflicts[0] as { error: unknown };
      expect(conflict.error).toBeInstanceOf(OpenAI.ConflictError);
      expect((conflict.error as InstanceType<typeof OpenAI.ConflictError>).error).toMatchObject({
        code: "turn_in_progress",
      });
      expect(
        (conflict.error as InstanceType<typeof OpenAI.ConflictError>).headers?.get("x-should-retry"),
      ).toBe("false");
      expect(results.filter((r) => r.ok)).toHaveLength(1);

      // One turn was added (the first one's two messages plus one more question and answer).
      const api = await apiAs(user);
      const { messages } = (await (await api.get(`/api/sessions/${sessionId}`)).json()) as {
        messages: Message[];
      };
      expect(messages).toHaveLength(4);
    });
  });

  test("latency: an API turn against a web turn (figures only)", async ({ user, apiAs }) => {
    const api = await apiAs(user);
    const openai = client(await createKey(api, "bench"));
    const sessionId = (
      (await (await api.post("/api/sessions", { data: { title: "bench web" } })).json()) as {
        session: { id: string };
      }
    ).session.id;
    const apiFirst = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: "user", content: "warm up" }] })
      .withResponse();
    const apiSession = apiFirst.response.headers.get("x-recall-session") as string;
    await api.post(`/api/sessions/${sessionId}/messages`, { data: { content: "warm up" } });

    const N = 10;
    const web: number[] = [];
    const viaApi: number[] = [];
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      const res = await api.post(`/api/sessions/${sessionId}/messages`, {
        data: { content: `question ${i}` },
      });
      expect((await res.text()).includes('"type":"done"')).toBe(true);
      web.push(performance.now() - t);
      t = performance.now();
      const answer = await openai.chat.completions.create(
        { model: MODEL, messages: [{ role: "user", content: `question ${i}` }] },
        { headers: { "X-Recall-Session": apiSession } },
      );
      expect(answer.choices[0]?.finish_reason).toBe("stop");
      viaApi.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const line = `[bench] turn latency, median of ${N}: web ${median(web).toFixed(1)} ms, API ${median(viaApi).toFixed(1)} ms, ratio ${(median(viaApi) / median(web)).toFixed(2)}`;
    console.log(line);
    test.info().annotations.push({ type: "bench", description: line });
  });
});
