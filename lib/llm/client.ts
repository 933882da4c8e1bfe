import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { type MemoryItem, type ToolCall, toChatMessages, toResponsesInput } from "@/lib/memory";
import { DEMO_MODEL_NAME, demoAnswer } from "./demo";
import { SCRIPTED_MODEL_NAME, scriptedAnswer } from "./scripted";
import { sseEvents } from "./sse-events";
import { createModelFetch } from "./wire";

// The one place that creates an OpenAI client.

export type ApiStyle = "chat" | "responses";

export interface Model {
  client: OpenAI;
  model: string;
  style: ApiStyle;
  /** True when this is the in-process offline model (no OPENAI_API_KEY). The UI labels it. */
  offline: boolean;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

export interface ModelConfig {
  /** Absent or empty: the offline model. */
  apiKey?: string | undefined;
  /** Which offline model (default: the demo). */
  offline?: "demo" | "scripted" | undefined;
  baseURL?: string | undefined;
  model?: string | undefined;
  style: ApiStyle;
  offlineFirstTokenDelayMs?: number | undefined;
  offlineTokenDelayMs?: number | undefined;
  /** SDK retries for a real provider (default: the SDK's). The offline model never retries. */
  maxRetries?: number | undefined;
  /** How long the model may take to send its first byte, and to stay silent after that (ms). */
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** Base URL the offline client pretends to talk to; `.invalid` can never resolve, so nothing leaves the process. */
const OFFLINE_BASE_URL = "http://offline.recall.invalid/v1";

export function createModel(config: ModelConfig): Model {
  const timeouts = {
    firstByteTimeoutMs: config.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
  if (!config.apiKey) {
    const scripted = config.offline === "scripted";
    const name = scripted ? SCRIPTED_MODEL_NAME : DEMO_MODEL_NAME;
    const fetch = createModelFetch(
      scripted ? scriptedAnswer : demoAnswer,
      {
        firstTokenDelayMs: config.offlineFirstTokenDelayMs ?? 0,
        tokenDelayMs: config.offlineTokenDelayMs ?? 0,
      },
      name,
    );
    return {
      client: new OpenAI({ apiKey: "offline", baseURL: OFFLINE_BASE_URL, fetch, maxRetries: 0 }),
      model: config.model ?? name,
      style: config.style,
      offline: true,
      ...timeouts,
    };
  }
  return {
    client: new OpenAI({
      apiKey: config.apiKey,
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...(config.maxRetries !== undefined ? { maxRetries: config.maxRetries } : {}),
      // streamReply's watchdog enforces the timeouts with clear messages; the SDK's own is only a backstop.
      timeout: timeouts.firstByteTimeoutMs + 5000,
    }),
    model: config.model ?? "gpt-4o-mini",
    style: config.style,
    offline: false,
    ...timeouts,
  };
}

let cached: Model | undefined;

/** The configured model, built once from `env`. */
export function getModel(): Model {
  cached ??= createModel({
    apiKey: env.OPENAI_API_KEY,
    offline: env.OFFLINE_MODEL,
    baseURL: env.OPENAI_BASE_URL,
    model: env.model,
    style: env.OPENAI_API_STYLE,
    offlineFirstTokenDelayMs: env.OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS,
    offlineTokenDelayMs: env.OFFLINE_MODEL_TOKEN_DELAY_MS,
    firstByteTimeoutMs: env.MODEL_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: env.MODEL_IDLE_TIMEOUT_MS,
  });
  return cached;
}

export interface ReplyUsage {
  promptTokens?: number;
  completionTokens?: number;
}

/** `toolCalls`: the model asks for these tools to be run (then called again with their results). */
export type ReplyEvent =
  | { type: "delta"; text: string }
  | { type: "done"; text: string; usage?: ReplyUsage; toolCalls?: ToolCall[] };

/** A function the model may call: its name, what it does, and its arguments as JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface StreamReplyOptions {
  /** The exact context for this turn, in order (system prompt, memory, current question). */
  items: readonly MemoryItem[];
  /** Aborting stops the stream; the generator then throws an AbortError (see `isAbortError`). */
  signal?: AbortSignal | undefined;
  /** Defaults to `getModel()`. */
  model?: Model | undefined;
  /** Functions offered to the model; none: a plain reply. */
  tools?: readonly ToolSpec[] | undefined;
  /** "none": the tools stay described but the model must answer in text. */
  toolChoice?: "auto" | "none" | undefined;
}

/** True for an interruption (the caller's signal, the SDK's user-abort error, a DOM AbortError). */
export function isAbortError(e: unknown): boolean {
  if (e instanceof OpenAI.APIUserAbortError) return true;
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "AbortError";
}

function abortErrorFrom(signal: AbortSignal | undefined, fallback?: unknown): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  if (fallback instanceof Error && fallback.name === "AbortError") return fallback;
  return new DOMException("The model stream was aborted.", "AbortError");
}

/** A message safe to show a user: says what kind of failure, never the provider's own text. */
function safeMessage(e: unknown): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return "The model provider did not answer in time.";
  if (e instanceof OpenAI.APIConnectionError) return "Could not reach the model provider.";
  if (e instanceof OpenAI.APIError) {
    const status = e.status;
    if (status === 401 || status === 403) return "The model provider rejected the configured credentials.";
    if (status === 404) return "The model provider does not know the configured model or endpoint.";
    if (status === 429) return "The model provider is rate limiting requests; try again shortly.";
    if (status === 400 || status === 413 || status === 422) return "The model provider rejected the request.";
    if (status !== undefined && status >= 500) return "The model provider had an internal error.";
  }
  return "The model request failed.";
}

function modelError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError("model_error", safeMessage(e), { cause: e });
}

/**
 * A watchdog over one model request: aborts it when the first byte does not come within `firstByteMs`, or when
 * the stream then stays silent for `idleMs`. `signal` combines it with the caller's own signal.
 */
function watchdog({
  firstByteMs,
  idleMs,
  outer,
}: {
  firstByteMs: number;
  idleMs: number;
  outer?: AbortSignal;
}) {
  const controller = new AbortController();
  let timeout: AppError | null = null;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, message: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timeout = new AppError("model_timeout", message);
      controller.abort(timeout);
    }, ms);
  };
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  arm(firstByteMs, `The model did not start answering within ${Math.round(firstByteMs / 1000)} s.`);
  let idle = false;
  return {
    signal: controller.signal,
    /** Call on every piece of the stream: the idle clock starts again (the same timer, not a new one a token). */
    alive: () => {
      if (idle) timer?.refresh();
      else {
        idle = true;
        arm(idleMs, `The model stopped answering (nothing for ${Math.round(idleMs / 1000)} s).`);
      }
    },
    timedOut: () => timeout,
    stop: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}

/**
 * The provider's stream events, a read of the body at a time, parsed as the SDK's stream would (its `[DONE]`
 * ends them; an event carrying an `error` is an APIError) but without its per-event iterators.
 */
async function* providerEvents<T>(response: Response): AsyncGenerator<T[]> {
  if (!response.body) return;
  for await (const events of sseEvents(response.body)) {
    const out: T[] = [];
    for (const { data } of events) {
      if (data.startsWith("[DONE]")) {
        if (out.length) yield out;
        return;
      }
      const parsed = JSON.parse(data) as T & { error?: Record<string, unknown> };
      if (parsed?.error) throw new OpenAI.APIError(undefined, parsed.error, undefined, response.headers);
      out.push(parsed);
    }
    if (out.length) yield out;
  }
}

const cutOff = () => new AppError("model_error", "The model stream ended before the reply was complete.");

/**
 * Streams the model's reply to `items`: text deltas as they arrive, then one `done` with the full text and
 * usage when the provider reports it. A reply counts as done only when the provider says it finished (a
 * `finish_reason`, or a terminal Responses event); a stream that just stops, or a reply that is not a stream, is a
 * `model_error`. Provider failures throw `AppError("model_error")`, silence beyond the configured timeouts
 * `AppError("model_timeout")`; an abort by the caller throws an AbortError (see `isAbortError`).
 */
export async function* streamReply(options: StreamReplyOptions): AsyncGenerator<ReplyEvent, void, undefined> {
  const { items, signal } = options;
  const tools = options.tools ?? [];
  const model = options.model ?? getModel();
  if (signal?.aborted) throw abortErrorFrom(signal);
  // Projection errors are ours (bad items), not the provider's: let them through unwrapped.
  const messages = model.style === "chat" ? toChatMessages(items) : [];
  const input = model.style === "responses" ? toResponsesInput(items) : [];
  const dog = watchdog({ firstByteMs: model.firstByteTimeoutMs, idleMs: model.idleTimeoutMs, outer: signal });
  let text = "";
  let usage: ReplyUsage | undefined;
  let finished = false;
  const calls: ToolCall[] = [];
  try {
    if (model.style === "chat") {
      const response = await model.client.chat.completions
        .create(
          {
            model: model.model,
            messages,
            stream: true,
            stream_options: { include_usage: true },
            ...(tools.length
              ? {
                  tools: tools.map((t) => ({ type: "function" as const, function: { ...t } })),
                  tool_choice: options.toolChoice ?? "auto",
                }
              : {}),
          },
          { signal: dog.signal },
        )
        .asResponse();
      for await (const chunk of providerEvents<ChatCompletionChunk>(response)) {
        dog.alive();
        // The deltas of one read of the stream leave as one.
        let delta = "";
        for (const data of chunk) {
          const choice = data.choices[0];
          if (choice?.delta?.content) delta += choice.delta.content;
          // Tool calls arrive in pieces, keyed by index: the id and name first, then the arguments in chunks.
          for (const part of choice?.delta?.tool_calls ?? []) {
            const call = calls[part.index] ?? { id: "", name: "", arguments: "" };
            calls[part.index] = call;
            if (part.id) call.id = part.id;
            if (part.function?.name) call.name += part.function.name;
            if (part.function?.arguments) call.arguments += part.function.arguments;
          }
          if (choice?.finish_reason) finished = true;
          if (data.usage) {
            usage = {
              promptTokens: data.usage.prompt_tokens,
              completionTokens: data.usage.completion_tokens,
            };
          }
        }
        if (delta) {
          text += delta;
          yield { type: "delta", text: delta };
        }
      }
    } else {
      const response = await model.client.responses
        .create(
          {
            model: model.model,
            input,
            stream: true,
            store: false,
            ...(tools.length
              ? {
                  tools: tools.map((t) => ({ type: "function" as const, strict: false, ...t })),
                  tool_choice: options.toolChoice ?? "auto",
                }
              : {}),
          },
          { signal: dog.signal },
        )
        .asResponse();
      for await (const chunk of providerEvents<ResponseStreamEvent>(response)) {
        dog.alive();
        let delta = "";
        for (const event of chunk) {
          switch (event.type) {
            case "response.output_text.delta":
              delta += event.delta;
              break;
            case "response.output_item.done":
              if (event.item.type === "function_call") {
                calls.push({
                  id: event.item.call_id,
                  name: event.item.name,
                  arguments: event.item.arguments,
                });
              }
              break;
            case "response.completed":
            case "response.incomplete":
              finished = true;
              if (event.response.usage) {
                usage = {
                  promptTokens: event.response.usage.input_tokens,
                  completionTokens: event.response.usage.output_tokens,
                };
              }
              break;
            case "response.failed":
              throw new AppError("model_error", "The model failed to produce a reply.", {
                cause: event.response.error,
              });
            case "error":
              throw new AppError("model_error", "The model provider reported an error.", { cause: event });
          }
        }
        if (delta) {
          text += delta;
          yield { type: "delta", text: delta };
        }
      }
    }
  } catch (e) {
    const timeout = dog.timedOut();
    if (timeout) throw timeout;
    if (signal?.aborted || isAbortError(e)) throw abortErrorFrom(signal, e);
    throw modelError(e);
  } finally {
    dog.stop();
  }
  // The SDK ends a stream's iteration without an error when its request is aborted mid-body.
  const timeout = dog.timedOut();
  if (timeout) throw timeout;
  if (signal?.aborted) throw abortErrorFrom(signal);
  if (!finished) throw cutOff();
  const toolCalls = calls.filter(Boolean);
  if (toolCalls.some((c) => !c.id || !c.name)) {
    throw new AppError("model_error", "The model asked for a tool without naming it.");
  }
  yield {
    type: "done",
    text,
    ...(usage ? { usage } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
  };
}
