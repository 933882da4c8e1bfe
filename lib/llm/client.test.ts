import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { MemoryItem } from "@/lib/memory";
import { type ApiStyle, createModel, isAbortError, type Model, type ReplyEvent, streamReply } from "./client";
import { DEMO_MODEL_NAME } from "./demo";
import { SCRIPTED_MODEL_NAME } from "./scripted";

const items: MemoryItem[] = [
  { role: "system", text: "You are Recall." },
  { role: "user", text: "Memory check: remember the phrase 青云-4173 and reply only 'noted'", seq: 1 },
  { role: "assistant", text: "noted", seq: 2 },
  { role: "user", text: "What phrase did I ask you to remember?", seq: 3 },
];

async function collect(gen: AsyncGenerator<ReplyEvent>): Promise<ReplyEvent[]> {
  const events: ReplyEvent[] = [];
  for await (const e of gen) events.push(e);
  return events;
}

/** A provider model whose HTTP is `fetch` (a stand-in for a real provider; nothing leaves the process). */
function providerModel(
  style: ApiStyle,
  fetch: typeof globalThis.fetch,
  timeouts: { firstByteTimeoutMs?: number; idleTimeoutMs?: number } = {},
): Model {
  return {
    client: new OpenAI({ apiKey: "sk-test", baseURL: "http://provider.invalid/v1", fetch, maxRetries: 0 }),
    model: "gpt-test",
    style,
    offline: false,
    firstByteTimeoutMs: timeouts.firstByteTimeoutMs ?? 60_000,
    idleTimeoutMs: timeouts.idleTimeoutMs ?? 30_000,
  };
}

/** A model whose fetch always answers with the given status and body. */
function failingModel(style: ApiStyle, status: number, body: unknown): Model {
  return providerModel(
    style,
    async () =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
  );
}

describe("createModel", () => {
  it("builds the offline model when there is no API key", () => {
    const model = createModel({ style: "chat" });
    expect(model).toMatchObject({ model: DEMO_MODEL_NAME, style: "chat", offline: true });
    expect(model.client.baseURL).toBe("http://offline.recall.invalid/v1");
  });

  it("builds the demo or the scripted model as configured, each answering in its own way", async () => {
    const ask = async (offline: "demo" | "scripted") => {
      const model = createModel({ style: "chat", offline });
      const items = [{ role: "user" as const, text: "My name is Ada." }];
      let text = "";
      for await (const event of streamReply({ items, model })) if (event.type === "done") text = event.text;
      return { name: model.model, text };
    };
    expect(await ask("demo")).toEqual({ name: DEMO_MODEL_NAME, text: "Nice to meet you, Ada." });
    expect(await ask("scripted")).toEqual({
      name: SCRIPTED_MODEL_NAME,
      text: "scripted: 1 received\n1 user: My name is Ada.",
    });
  });

  it("builds a provider client with an API key", () => {
    const model = createModel({
      apiKey: "sk-test",
      baseURL: "http://localhost:11434/v1",
      model: "llama3",
      style: "responses",
    });
    expect(model).toMatchObject({ model: "llama3", style: "responses", offline: false });
    expect(model.client.baseURL).toBe("http://localhost:11434/v1");
  });
});

describe.each(["chat", "responses"] as const)("streamReply (%s)", (style) => {
  it("streams deltas and a done event with the full text and usage", async () => {
    const events = await collect(streamReply({ items, model: createModel({ style }) }));
    const deltas = events.filter((e) => e.type === "delta");
    const done = events.at(-1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(done?.type).toBe("done");
    expect(done?.text).toBe("The phrase you asked me to remember is 青云-4173.");
    expect(deltas.map((e) => e.text).join("")).toBe(done?.text);
    expect(done?.type === "done" && done.usage?.promptTokens).toBeGreaterThan(0);
    expect(done?.type === "done" && done.usage?.completionTokens).toBeGreaterThan(0);
  });

  it("only knows what the items contain", async () => {
    const events = await collect(streamReply({ items: items.slice(3), model: createModel({ style }) }));
    expect(events.at(-1)?.text).toBe(
      "I don't know — nothing in this conversation asked me to remember a phrase.",
    );
  });

  it("throws an AbortError when aborted mid-stream", async () => {
    const controller = new AbortController();
    const model = createModel({ style, offlineTokenDelayMs: 30 });
    const seen: ReplyEvent[] = [];
    const run = async () => {
      for await (const e of streamReply({ items, model, signal: controller.signal })) {
        seen.push(e);
        controller.abort();
      }
    };
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAbortError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(AppError);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.type).toBe("delta");
  });

  it("throws an AbortError when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await collect(
      streamReply({ items, model: createModel({ style }), signal: controller.signal }),
    ).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });

  it("rethrows provider errors as model_error without leaking provider text", async () => {
    const model = failingModel(style, 401, {
      error: {
        message: "Incorrect API key provided: sk-te****",
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    });
    const error = await collect(streamReply({ items, model })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe("model_error");
    expect(appError.status).toBe(502);
    expect(appError.message).not.toContain("sk-te");
    expect(appError.cause).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(isAbortError(appError)).toBe(false);
  });

  it("maps connection failures to model_error", async () => {
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError("fetch failed: ECONNREFUSED 10.0.0.1:443");
    };
    const model = providerModel(style, fetch);
    const error = await collect(streamReply({ items, model })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "model_error", message: "Could not reach the model provider." });
  });
});

describe("streamReply (responses) stream integrity", () => {
  it("fails when the stream ends without a terminal event", async () => {
    const sse = [
      { type: "response.created", sequence_number: 0, response: { id: "r", object: "response", output: [] } },
      {
        type: "response.output_text.delta",
        sequence_number: 1,
        item_id: "m",
        output_index: 0,
        content_index: 0,
        delta: "partial",
        logprobs: [],
      },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join("");
    const fetch: typeof globalThis.fetch = async () =>
      new Response(sse, { status: 200, headers: { "content-type": "text/event-stream" } });
    const model = providerModel("responses", fetch);
    const error = await collect(streamReply({ items, model })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "model_error" });
  });
});

/** An SSE body that sends `frames`, then either ends or hangs (until the request is aborted). */
function sseFetch(frames: string[], { hang = false, delayFirstMs = 0 } = {}): typeof globalThis.fetch {
  return async (_url, init) => {
    const signal = init?.signal ?? undefined;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const encoder = new TextEncoder();
        if (delayFirstMs) await new Promise((r) => setTimeout(r, delayFirstMs));
        for (const frame of frames) controller.enqueue(encoder.encode(frame));
        if (!hang) controller.close();
        else signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "gpt-test",
    choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
  })}\n\n`;

describe("streamReply (chat) honest endings and timeouts", () => {
  it("completes only when the provider sends a finish_reason", async () => {
    const model = providerModel(
      "chat",
      sseFetch([chunk("Hel"), chunk("lo"), chunk(null, "stop"), "data: [DONE]\n\n"]),
    );
    const events = await collect(streamReply({ items, model }));
    expect(events.at(-1)).toEqual({ type: "done", text: "Hello" });
  });

  it("fails a stream that ends without a finish_reason, after streaming its partial text", async () => {
    const seen: ReplyEvent[] = [];
    const model = providerModel("chat", sseFetch([chunk("Hel"), chunk("lo")]));
    const error = await (async () => {
      for await (const e of streamReply({ items, model })) seen.push(e);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "model_error",
      message: "The model stream ended before the reply was complete.",
    });
    expect(seen.map((e) => e.text).join("")).toBe("Hello");
  });

  it("fails a 200 reply that is not a stream", async () => {
    const model = providerModel(
      "chat",
      async () =>
        new Response(
          JSON.stringify({
            id: "x",
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        ),
    );
    const error = await collect(streamReply({ items, model })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "model_error" });
  });

  it("times out a model that never sends its first byte", async () => {
    const model = providerModel("chat", sseFetch([], { hang: true }), { firstByteTimeoutMs: 100 });
    const started = Date.now();
    const error = await collect(streamReply({ items, model })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "model_timeout", status: 504 });
    expect((error as AppError).message).toMatch(/did not start answering/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("times out a model that falls silent in the middle of an answer", async () => {
    const seen: ReplyEvent[] = [];
    const model = providerModel("chat", sseFetch([chunk("Half an ")], { hang: true }), {
      firstByteTimeoutMs: 5_000,
      idleTimeoutMs: 100,
    });
    const error = await (async () => {
      for await (const e of streamReply({ items, model })) seen.push(e);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "model_timeout" });
    expect((error as AppError).message).toMatch(/stopped answering/);
    expect(seen.map((e) => e.text).join("")).toBe("Half an ");
  });

  it("reports the caller's own abort as an abort, not a timeout", async () => {
    const controller = new AbortController();
    const model = providerModel("chat", sseFetch([chunk("x")], { hang: true }), { idleTimeoutMs: 5_000 });
    const gen = streamReply({ items, model, signal: controller.signal });
    await gen.next();
    controller.abort();
    const error = await gen.next().catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });
});

describe("isAbortError", () => {
  it("recognizes abort errors and nothing else", () => {
    expect(isAbortError(new DOMException("x", "AbortError"))).toBe(true);
    expect(isAbortError(new OpenAI.APIUserAbortError())).toBe(true);
    expect(isAbortError(new Error("x"))).toBe(false);
    expect(isAbortError(new AppError("model_error", "x"))).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});
