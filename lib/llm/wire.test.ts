import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { demoAnswer, demoReply } from "./demo";
import { createModelFetch, estimateTokens } from "./wire";

const createOfflineFetch = (delays: { firstTokenDelayMs: number; tokenDelayMs: number }) =>
  createModelFetch(demoAnswer, delays, "recall-offline");

function client(firstTokenDelayMs = 0, tokenDelayMs = 0): OpenAI {
  return new OpenAI({
    apiKey: "offline",
    baseURL: "http://offline.test.invalid/v1",
    fetch: createOfflineFetch({ firstTokenDelayMs, tokenDelayMs }),
    maxRetries: 0,
  });
}

const QUESTION = "Tell me something about the sea, please";
const EXPECTED = demoReply([{ role: "user", text: QUESTION }]);

describe("the wire handler via the OpenAI SDK: Chat Completions", () => {
  it("streams deltas that concatenate to the reply, with usage", async () => {
    const stream = await client().chat.completions.create({
      model: "recall-offline",
      messages: [
        { role: "system", content: "You are Recall." },
        { role: "user", content: QUESTION },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) deltas.push(content);
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(EXPECTED);
    expect(finish).toBe("stop");
    expect(usage).toEqual({
      prompt_tokens: estimateTokens(`You are Recall.\n${QUESTION}`),
      completion_tokens: estimateTokens(EXPECTED),
      total_tokens: estimateTokens(`You are Recall.\n${QUESTION}`) + estimateTokens(EXPECTED),
    });
  });

  it("omits the usage chunk unless asked for it", async () => {
    const stream = await client().chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    for await (const chunk of stream) expect(chunk.usage ?? null).toBeNull();
  });

  it("answers from the request's memory, including parts arrays", async () => {
    const completion = await client().chat.completions.create({
      model: "m",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "remember the phrase 青云-4173 and reply only 'noted'" }],
        },
        { role: "assistant", content: "noted" },
        { role: "user", content: "What phrase did I ask you to remember?" },
      ],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]?.message.content).toBe("The phrase you asked me to remember is 青云-4173.");
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("waits firstTokenDelayMs before the first delta", async () => {
    const started = performance.now();
    const stream = await client(120, 0).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break;
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });

  it("really streams: deltas arrive spread over time", async () => {
    const stream = await client(0, 10).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    const times: number[] = [];
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) times.push(performance.now());
    }
    expect(times.length).toBeGreaterThan(3);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(5 * (times.length - 1));
  });

  it("stops when the request is aborted mid-stream", async () => {
    const controller = new AbortController();
    const stream = await client(0, 30).chat.completions.create(
      { model: "m", messages: [{ role: "user", content: QUESTION }], stream: true },
      { signal: controller.signal },
    );
    let text = "";
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (text.length > 0) controller.abort();
    }
    // The SDK ends iteration quietly on abort; what matters is that the reply was cut short.
    expect(controller.signal.aborted).toBe(true);
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(EXPECTED.length);
  });
});

describe("the wire handler via the OpenAI SDK: Responses", () => {
  it("streams the whole event sequence with deltas and usage", async () => {
    const stream = await client().responses.create({
      model: "recall-offline",
      instructions: "You are Recall.",
      input: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    const types: string[] = [];
    const deltas: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    const sequence: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === "response.output_text.delta") deltas.push(event.delta);
      if (event.type === "response.completed") completed = event.response;
    }
    const distinct = types.filter((t, i) => t !== types[i - 1]);
    expect(distinct).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(EXPECTED);
    expect(completed?.status).toBe("completed");
    expect(completed?.usage?.input_tokens).toBe(estimateTokens(`You are Recall.\n${QUESTION}`));
    expect(completed?.usage?.output_tokens).toBe(estimateTokens(EXPECTED));
  });

  it("works with the SDK's stream helper (finalResponse)", async () => {
    const runner = client().responses.stream({ model: "m", input: QUESTION });
    const deltas: string[] = [];
    runner.on("response.output_text.delta", (e) => deltas.push(e.delta));
    const final = await runner.finalResponse();
    expect(final.output_text).toBe(EXPECTED);
    expect(deltas.join("")).toBe(EXPECTED);
  });

  it("answers non-streaming requests with a Response object", async () => {
    const response = await client().responses.create({
      model: "m",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "my name is Ada" }] },
        { type: "message", role: "assistant", content: "Nice to meet you, Ada." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "what is my name?" }] },
      ],
    });
    expect(response.object).toBe("response");
    expect(response.output_text).toBe("Your name is Ada.");
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("waits firstTokenDelayMs before the first delta", async () => {
    const started = performance.now();
    const stream = await client(120, 0).responses.create({ model: "m", input: QUESTION, stream: true });
    let firstDeltaAt = 0;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta" && !firstDeltaAt) firstDeltaAt = performance.now();
    }
    expect(firstDeltaAt - started).toBeGreaterThanOrEqual(100);
  });

  it("stops when the request is aborted mid-stream", async () => {
    const controller = new AbortController();
    const stream = await client(0, 30).responses.create(
      { model: "m", input: QUESTION, stream: true },
      { signal: controller.signal },
    );
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") controller.abort();
    }
    expect(types.filter((t) => t === "response.output_text.delta")).toHaveLength(1);
    expect(types).not.toContain("response.completed");
  });
});

describe("the wire handler: raw HTTP behaviour", () => {
  const fetch = createOfflineFetch({ firstTokenDelayMs: 0, tokenDelayMs: 20 });
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(`http://anything.invalid/base${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });

  it("returns 404 in OpenAI's error format for unknown paths", async () => {
    const response = await post("/images/generations", { prompt: "x" });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "unknown_url" });
    expect(typeof body.error.message).toBe("string");
    expect((await fetch("http://x.invalid/v1/chat/completions")).status).toBe(404); // GET
  });

  it("surfaces a 404 through the SDK as NotFoundError", async () => {
    await expect(client().models.list()).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("rejects malformed bodies with 400", async () => {
    const response = await fetch("http://x.invalid/v1/chat/completions", { method: "POST", body: "{" });
    expect(response.status).toBe(400);
    expect((await post("/responses", {})).status).toBe(400);
  });

  it("sends SSE frames over time and errors the body with an AbortError on abort", async () => {
    const controller = new AbortController();
    const response = await post(
      "/chat/completions",
      { model: "m", messages: [{ role: "user", content: QUESTION }], stream: true },
      controller.signal,
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^data: \{/);
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("writes each text chunk as a complete chat.completion.chunk", async () => {
    const response = await post("/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "Count to 3" }],
      stream: true,
    });
    const chunks = (await response.text())
      .split("\n\n")
      .filter((f) => f.startsWith("data: {"))
      .map((f) => JSON.parse(f.slice(6)));
    const texts = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(texts.map((c) => c.choices[0].delta.content)).toEqual(["1", " 2", " 3"]);
    for (const c of texts) {
      expect(c).toEqual({ ...chunks[0], choices: [{ ...chunks[0].choices[0], delta: c.choices[0].delta }] });
    }
    expect(chunks[0]).toMatchObject({
      object: "chat.completion.chunk",
      model: "m",
      system_fingerprint: null,
    });
  });

  it("rejects immediately when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(post("/responses", { input: "x", stream: true }, controller.signal)).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("accepts a Request object", async () => {
    const response = await fetch(
      new Request("http://x.invalid/chat/completions", {
        method: "POST",
        body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
      }),
    );
    expect((await response.json()).choices[0].message.content).toContain("Offline model reply");
  });
});

describe("the wire handler via the OpenAI SDK: embeddings", () => {
  const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

  it("embeds each input deterministically into unit vectors, nearer for texts sharing content words", async () => {
    const inputs = [
      "My sister Ana moved to Lisbon last spring",
      "When did my sister move to Lisbon?",
      "The recipe needs two eggs and flour",
      "我的猫叫小白",
      "我的猫叫什么名字",
    ];
    const first = await client().embeddings.create({ model: "recall-embeddings", input: inputs });
    const again = await client().embeddings.create({ model: "recall-embeddings", input: inputs });
    const vectors = first.data.map((d) => d.embedding);
    expect(first.data.map((d) => d.index)).toEqual([0, 1, 2, 3, 4]);
    expect(first.model).toBe("recall-embeddings");
    expect(again.data.map((d) => d.embedding)).toEqual(vectors);
    for (const v of vectors) {
      expect(v).toHaveLength(256);
      expect(cosine(v, v)).toBeCloseTo(1, 5);
    }
    const [lisbon, question, recipe, cat, catQuestion] = vectors as number[][];
    expect(cosine(lisbon as number[], question as number[])).toBeGreaterThan(
      cosine(recipe as number[], question as number[]) + 0.3,
    );
    expect(cosine(cat as number[], catQuestion as number[])).toBeGreaterThan(0.3);
  });

  it("answers floats when asked for them, and 400 for an input that is not text", async () => {
    const fetch = createOfflineFetch({ firstTokenDelayMs: 0, tokenDelayMs: 0 });
    const ok = await fetch("http://offline.test.invalid/v1/embeddings", {
      method: "POST",
      body: JSON.stringify({ model: "m", input: "hello world", encoding_format: "float" }),
    });
    const body = (await ok.json()) as { data: { embedding: number[] }[]; usage: { prompt_tokens: number } };
    expect(body.data[0]?.embedding).toHaveLength(256);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    const bad = await fetch("http://offline.test.invalid/v1/embeddings", {
      method: "POST",
      body: JSON.stringify({ model: "m", input: [1, 2] }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("estimateTokens", () => {
  it("counts code points, a surrogate pair as one, and rounds up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    // Four emoji are eight UTF-16 units but four code points; a lone surrogate counts as one.
    expect(estimateTokens("😀😀😀😀")).toBe(1);
    expect(estimateTokens("😀😀😀😀\ud800")).toBe(2);
    expect(estimateTokens("绿松石手链")).toBe(2);
  });
});
