import { hashEmbedding } from "@/lib/search/hash-embedding";
// An in-process, OpenAI-compatible HTTP handler, handed to the OpenAI SDK as its `fetch` (docs/decisions/003 and
// 022). It serves POST …/chat/completions and POST …/responses, streamed as SSE in the exact wire format or as
// plain JSON, so the app's real code path — SDK, streaming parsers, abort handling — runs without a provider. What
// it answers is decided by a pure `Responder` of the request: the demo model's or the scripted test model's.

/** One message of the request, both API shapes made alike. */
export interface WireMessage {
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  /** Image URLs of the message, in order. */
  images: string[];
  /** Tools the (assistant) message called. */
  calls: { name: string; arguments: string }[];
}

export interface WireRequest {
  messages: WireMessage[];
  /** Names of the tools offered ([] when none are, or `tool_choice` is "none"). */
  tools: string[];
}

export type WireAnswer = { reply: string } | { calls: { name: string; arguments: unknown }[] };
type Responder = (request: WireRequest) => WireAnswer;

interface WireOptions {
  /** Delay before the first text delta (the "thinking" time), and between the following ones (ms). */
  firstTokenDelayMs: number;
  tokenDelayMs: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Rough token estimate: one token per four characters (code points), rounded up. Counted without splitting the
 * text into an array: a whole context is estimated on every request.
 */
export function estimateTokens(text: string): number {
  let points = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        points--;
        i++;
      }
    }
  }
  return Math.ceil(points / 4);
}

/** Splits a reply into small word-ish chunks that concatenate back to it exactly. */
export function chunkReply(text: string): string[] {
  const chunks: string[] = [];
  for (const word of text.match(/\s*\S+|\s+$/gu) ?? []) {
    const chars = [...word];
    for (let i = 0; i < chars.length; i += 12) chunks.push(chars.slice(i, i + 12).join(""));
  }
  return chunks.join("") === text ? chunks : text ? [text] : [];
}

// ---------------------------------------------------------------------------------------------------------
// Reading a request.
// ---------------------------------------------------------------------------------------------------------

function parts(content: unknown): { text: string; images: string[] } {
  if (typeof content === "string") return { text: content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (typeof part === "string") texts.push(part);
    if (!isObject(part)) continue;
    if (typeof part.text === "string") texts.push(part.text);
    else if (typeof part.refusal === "string") texts.push(part.refusal);
    if (isObject(part.image_url) && typeof part.image_url.url === "string") images.push(part.image_url.url);
    if (part.type === "input_image" && typeof part.image_url === "string") images.push(part.image_url);
  }
  return { text: texts.filter(Boolean).join("\n"), images };
}

function roleOf(role: unknown): WireMessage["role"] {
  if (role === "developer" || role === "system") return "system";
  return role === "assistant" || role === "tool" ? role : "user";
}

const message = (role: WireMessage["role"], content: unknown, calls: WireMessage["calls"] = []) => ({
  role,
  ...parts(content),
  calls,
});

/** The messages of a Chat Completions or Responses request body. */
export function requestMessages(body: Json): WireMessage[] {
  if (Array.isArray(body.messages)) {
    return body.messages.filter(isObject).map((m) =>
      message(
        roleOf(m.role),
        m.content,
        (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isObject).map((c) => {
          const fn = isObject(c.function) ? c.function : {};
          return { name: String(fn.name ?? ""), arguments: String(fn.arguments ?? "") };
        }),
      ),
    );
  }
  const out: WireMessage[] = [];
  if (typeof body.instructions === "string") out.push(message("system", body.instructions));
  if (typeof body.input === "string") return [...out, message("user", body.input)];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (!isObject(item)) continue;
    if (item.type === "function_call_output") out.push(message("tool", item.output));
    else if (item.type === "function_call") {
      const call = { name: String(item.name ?? ""), arguments: String(item.arguments ?? "") };
      const last = out.at(-1);
      // Parallel calls arrive as separate items; they belong to one assistant turn.
      if (last?.role === "assistant" && last.calls.length > 0 && last.text === "") last.calls.push(call);
      else out.push(message("assistant", "", [call]));
    } else if (item.type === "message" || (item.type === undefined && "role" in item)) {
      out.push(message(roleOf(item.role), item.content));
    }
  }
  return out;
}

/** Names of the functions the request offers (both API shapes); none when `tool_choice` is "none". */
function offeredTools(body: Json): string[] {
  if (body.tool_choice === "none") return [];
  return (Array.isArray(body.tools) ? body.tools : [])
    .filter(isObject)
    .map((t) => (isObject(t.function) ? t.function : t).name)
    .filter((name): name is string => typeof name === "string");
}

// ---------------------------------------------------------------------------------------------------------
// Writing the answer.
// ---------------------------------------------------------------------------------------------------------

interface Turn {
  id: string;
  created: number;
  model: string;
  reply: string;
  calls: { id: string; name: string; arguments: string }[];
  usage: { prompt: number; completion: number };
}

/** One SSE frame, sent after `delayMs`. */
interface Frame {
  delayMs: number;
  data: string;
}

const uid = () => crypto.randomUUID().replaceAll("-", "");
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const apiError = (status: number, message: string, code: string | null = null) =>
  json(status, { error: { message, type: "invalid_request_error", param: null, code } });

function abortError(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name === "AbortError"
    ? reason
    : new DOMException("This operation was aborted", "AbortError");
}

const encoder = new TextEncoder();

/**
 * An SSE body that sends its frames on a fixed schedule — each frame `delayMs` after the one before it, counted
 * from the start, so a late timer does not push back every later frame — and errors with an AbortError when
 * `signal` aborts. Frames are made as they are due (an 800-token answer is not 800 frames held in memory); those
 * already late when made (the process was busy) leave together in one chunk, as a network would deliver them.
 */
function sse(frames: Iterable<Frame>, signal: AbortSignal | undefined): Response {
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const onAbort = () => {
        if (over) return;
        over = true;
        clearTimeout(timer);
        wake();
        controller.error(abortError(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) onAbort();
      void (async () => {
        const started = performance.now();
        let due = 0;
        let batch = "";
        const send = () => {
          if (batch) controller.enqueue(encoder.encode(batch));
          batch = "";
        };
        for (const frame of frames) {
          due += frame.delayMs;
          const wait = due - (performance.now() - started);
          // A frame due already (the process was busy) joins those waiting to leave with it.
          if (frame.delayMs === 0 || wait > 0) send();
          if (frame.delayMs > 0 && wait > 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, wait);
            });
          }
          if (over) return;
          batch += frame.data;
        }
        over = true;
        signal?.removeEventListener("abort", onAbort);
        send();
        controller.close();
      })();
    },
    cancel() {
      over = true;
      clearTimeout(timer);
      wake();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

function chatCompletion(t: Turn, body: Json, o: WireOptions, signal: AbortSignal | undefined): Response {
  const usage = {
    prompt_tokens: t.usage.prompt,
    completion_tokens: t.usage.completion,
    total_tokens: t.usage.prompt + t.usage.completion,
  };
  const finish = t.calls.length ? "tool_calls" : "stop";
  const head = { id: t.id, created: t.created, model: t.model, system_fingerprint: null };
  if (body.stream !== true) {
    const toolCalls = t.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
    return json(200, {
      ...head,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: t.calls.length
            ? { role: "assistant", content: null, refusal: null, tool_calls: toolCalls }
            : { role: "assistant", content: t.reply, refusal: null },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
    });
  }
  const withUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
  const frame = (delayMs: number, delta: Json | null, extra: Json = {}): Frame => ({
    delayMs,
    data: `data: ${JSON.stringify({
      ...head,
      object: "chat.completion.chunk",
      choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: extra.finish ?? null }] : [],
      ...(withUsage ? { usage: extra.usage ?? null } : {}),
    })}\n\n`,
  });
  const delay = (i: number) => (i === 0 ? o.firstTokenDelayMs : o.tokenDelayMs);
  // A text chunk is the same bytes as frame(…, { content }), from a template: one small stringify a token.
  const template = frame(0, { content: "\u0000" }).data;
  const hole = template.lastIndexOf('"\\u0000"');
  const before = template.slice(0, hole);
  const after = template.slice(hole + 8);
  function* frames(): Generator<Frame> {
    yield frame(0, { role: "assistant", content: "" });
    let i = 0;
    for (const content of chunkReply(t.reply)) {
      yield { delayMs: delay(i++), data: `${before}${JSON.stringify(content)}${after}` };
    }
    // A call streams like OpenAI's: id and name first, then the arguments.
    for (const [index, c] of t.calls.entries()) {
      yield frame(index === 0 ? o.firstTokenDelayMs : 0, {
        tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }],
      });
      yield frame(0, { tool_calls: [{ index, function: { arguments: c.arguments } }] });
    }
    yield frame(0, {}, { finish });
    if (withUsage) yield frame(0, null, { usage });
    yield { delayMs: 0, data: "data: [DONE]\n\n" };
  }
  return sse(frames(), signal);
}

function response(t: Turn, body: Json, o: WireOptions, signal: AbortSignal | undefined): Response {
  const itemId = `msg_${t.id}`;
  const text = (s: string) => ({ type: "output_text", text: s, annotations: [], logprobs: [] });
  const msg = (done: boolean) => ({
    id: itemId,
    type: "message",
    role: "assistant",
    status: done ? "completed" : "in_progress",
    content: done ? [text(t.reply)] : [],
  });
  const call = (c: Turn["calls"][number], done: boolean) => ({
    id: `fc_${c.id}`,
    type: "function_call",
    call_id: c.id,
    name: c.name,
    arguments: done ? c.arguments : "",
    status: done ? "completed" : "in_progress",
  });
  const whole = (done: boolean) => ({
    id: t.id,
    object: "response",
    created_at: t.created,
    status: done ? "completed" : "in_progress",
    completed_at: done ? t.created : null,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: isObject(body.metadata) ? body.metadata : {},
    model: t.model,
    output: done ? (t.calls.length ? t.calls.map((c) => call(c, true)) : [msg(true)]) : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: done
      ? {
          input_tokens: t.usage.prompt,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: t.usage.completion,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: t.usage.prompt + t.usage.completion,
        }
      : null,
  });
  if (body.stream !== true) return json(200, whole(true));
  let seq = 0;
  const event = (type: string, data: Json, delayMs = 0): Frame => ({
    delayMs,
    data: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
  });
  function* frames(): Generator<Frame> {
    yield event("response.created", { response: whole(false) });
    yield event("response.in_progress", { response: whole(false) });
    for (const [output_index, c] of t.calls.entries()) {
      const at = { item_id: `fc_${c.id}`, output_index };
      yield event(
        "response.output_item.added",
        { output_index, item: call(c, false) },
        output_index ? 0 : o.firstTokenDelayMs,
      );
      yield event("response.function_call_arguments.delta", { ...at, delta: c.arguments });
      yield event("response.function_call_arguments.done", { ...at, arguments: c.arguments });
      yield event("response.output_item.done", { output_index, item: call(c, true) });
    }
    if (!t.calls.length) {
      const at = { item_id: itemId, output_index: 0, content_index: 0 };
      yield event("response.output_item.added", { output_index: 0, item: msg(false) });
      yield event("response.content_part.added", { ...at, part: text("") });
      let i = 0;
      for (const delta of chunkReply(t.reply)) {
        yield event(
          "response.output_text.delta",
          { ...at, delta, logprobs: [] },
          i++ ? o.tokenDelayMs : o.firstTokenDelayMs,
        );
      }
      yield event("response.output_text.done", { ...at, text: t.reply, logprobs: [] });
      yield event("response.content_part.done", { ...at, part: text(t.reply) });
      yield event("response.output_item.done", { output_index: 0, item: msg(true) });
    }
    yield event("response.completed", { response: whole(true) });
  }
  return sse(frames(), signal);
}

async function readBody(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string> {
  if (init?.body !== undefined && init.body !== null) {
    return typeof init.body === "string" ? init.body : new Response(init.body).text();
  }
  return input instanceof Request ? input.clone().text() : "";
}

/**
 * A `fetch` for `new OpenAI({ fetch })` (any base URL) that answers with `respond`. Other paths get a 404 in
 * OpenAI's error format; the stream honours the request's AbortSignal.
 */
/**
 * POST /embeddings: the offline embeddings (lib/search/hash-embedding.ts) of `input` (a string or strings), as
 * floats or, when `encoding_format` is base64 (what the OpenAI SDK asks for by default), as base64 of
 * little-endian float32s.
 */
function embeddingsResponse(body: Record<string, unknown>, name: string): Response {
  const input = body.input;
  const texts = typeof input === "string" ? [input] : input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === "string")) {
    return apiError(400, "'input' must be a string or a non-empty array of strings.", "invalid_value");
  }
  const base64 = body.encoding_format === "base64";
  const data = texts.map((text, index) => {
    const vector = hashEmbedding(text);
    return {
      object: "embedding",
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
    };
  });
  const tokens = estimateTokens(texts.join("\n"));
  return Response.json({
    object: "list",
    data,
    model: typeof body.model === "string" && body.model ? body.model : name,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export function createModelFetch(respond: Responder, options: WireOptions, name: string): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const signal = init?.signal ?? request?.signal ?? undefined;
    if (signal?.aborted) throw abortError(signal);
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "");
    const chat = path.endsWith("/chat/completions");
    const embeddings = path.endsWith("/embeddings");
    if (method !== "POST" || !(chat || embeddings || path.endsWith("/responses"))) {
      return apiError(
        404,
        `Unknown request: ${method} ${url.pathname}. The offline model serves POST /chat/completions, POST /responses and POST /embeddings.`,
        "unknown_url",
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(input, init));
    } catch {
      return apiError(400, "The request body is not valid JSON.");
    }
    if (!isObject(body)) return apiError(400, "The request body must be a JSON object.");
    if (embeddings) return embeddingsResponse(body, name);
    if (chat ? !Array.isArray(body.messages) : body.input === undefined && body.instructions === undefined) {
      return apiError(400, `'${chat ? "messages" : "input"}' is required.`, "missing_required_parameter");
    }
    const messages = requestMessages(body);
    const answer = respond({ messages, tools: offeredTools(body) });
    const reply = "reply" in answer ? answer.reply : "";
    const calls =
      "calls" in answer
        ? answer.calls.map((c) => ({
            id: `call_${uid().slice(0, 24)}`,
            name: c.name,
            arguments: JSON.stringify(c.arguments),
          }))
        : [];
    const turn: Turn = {
      id: `${chat ? "chatcmpl-" : "resp_"}${uid()}`,
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === "string" && body.model ? body.model : name,
      reply,
      calls,
      usage: {
        prompt: estimateTokens(messages.map((m) => m.text).join("\n")),
        completion: estimateTokens(reply + calls.map((c) => c.name + c.arguments).join("")),
      },
    };
    return chat ? chatCompletion(turn, body, options, signal) : response(turn, body, options, signal);
  };
}
