import "server-only";
import { turnInputSchema } from "@/lib/chat/schemas";
import type { TurnEvent } from "@/lib/chat/sse";
import { titleFrom } from "@/lib/chat/title";
import { openTurn } from "@/lib/chat/turn";
import { turnRequest } from "@/lib/chat/turn-request";
import { createSession, unsafeDeleteSessionById } from "@/lib/db/sessions";
import { AppError, errorStatus } from "@/lib/errors";
import { readJson } from "@/lib/http";
import { chatCompletionRequestSchema, parseMemoryMode, planTurn, requestedSession } from "./chat-request";
import { v1ModelOf } from "./models";
import { assertApiTurnAllowed, openAiError, openAiErrorType, v1ErrorResponse } from "./v1-route";

// POST /v1/chat/completions: adapts OpenAI's wire format to the one turn pipeline (lib/chat/turn.ts openTurn) and
// its events to OpenAI's `chat.completion` / `chat.completion.chunk` objects. No turn logic lives here.

const SESSION_HEADER = "x-recall-session";

type Meta = Extract<TurnEvent, { type: "meta" }>;
type Done = Extract<TurnEvent, { type: "done" }>;
type Failure = Extract<TurnEvent, { type: "error" }>;

/** The status an error event's code stands for (model errors are 502 when the code is not one of ours). */
function statusOf(code: string): number {
  return (errorStatus as Record<string, number>)[code] ?? 502;
}

const completionId = (meta: Meta) => `chatcmpl-${meta.assistantMessage.id}`;
const createdOf = (meta: Meta) => Math.floor(Date.parse(meta.assistantMessage.createdAt) / 1000);

/**
 * The turn's usage as OpenAI spells it (the done event always carries both counts), plus `recall_tokens`: the
 * part of the prompt that recalled earlier messages took (0 when none were).
 */
const usageOf = (done: Done) => ({
  prompt_tokens: done.promptTokens,
  completion_tokens: done.completionTokens,
  total_tokens: done.promptTokens + done.completionTokens,
  recall_tokens: done.recallTokens ?? 0,
});

/** Reads, validates and runs one chat completion for `userId`. */
export async function chatCompletion({ req, userId }: { req: Request; userId: string }): Promise<Response> {
  const body = await readJson(req, chatCompletionRequestSchema);
  const mode = parseMemoryMode(req.headers.get("x-recall-memory"));
  const plan = planTurn(body, mode);
  const input = turnInputSchema.parse({ content: plan.question });
  const request = turnRequest(input);
  if (request.kind !== "ask") throw new AppError("bad_request", "The last message must be a question.");
  const named = requestedSession(req.headers.get(SESSION_HEADER), body);
  const model = await v1ModelOf(body.model);
  await assertApiTurnAllowed(userId);

  // Without a named conversation, a new one — a normal ChatSession, so it shows in the web sidebar.
  const sessionId = named ?? (await createSession({ userId, title: titleFrom(request.content) })).id;
  const headers = { [SESSION_HEADER]: sessionId };
  // Stopped when the request is aborted or a streamed reply's client goes away (the turn then ends interrupted).
  const stop = new AbortController();
  const signal = AbortSignal.any([req.signal, stop.signal]);
  let events: AsyncIterable<TurnEvent>;
  try {
    events = await openTurn({
      sessionId,
      userId,
      input,
      signal,
      overrides: { systemPrompt: plan.systemPrompt, clientMemory: plan.clientMemory, ...model },
    });
  } catch (e) {
    // Nothing was recorded; a conversation made for this request alone is removed again.
    if (!named) {
      await unsafeDeleteSessionById({ sessionId, actorId: userId }).catch(() => undefined);
      return v1ErrorResponse(e);
    }
    return v1ErrorResponse(e, headers);
  }
  return body.stream
    ? streamed({ events, stop, sessionId, includeUsage: body.stream_options?.include_usage === true })
    : await collected({ events, sessionId });
}

/** stream: false — the whole answer as one `chat.completion`. */
async function collected({
  events,
  sessionId,
}: {
  events: AsyncIterable<TurnEvent>;
  sessionId: string;
}): Promise<Response> {
  const headers = { [SESSION_HEADER]: sessionId };
  let meta: Meta | null = null;
  let text = "";
  let result: Response | null = null;
  // Read to the end whatever comes: the last event is the commit's.
  for await (const event of events) {
    if (event.type === "meta") meta = event;
    else if (event.type === "delta") text += event.text;
    else if (event.type === "error") result = turnFailed(event, headers);
    else if (event.type === "done" && meta) {
      result = Response.json(
        {
          id: completionId(meta),
          object: "chat.completion",
          created: createdOf(meta),
          model: meta.model,
          system_fingerprint: null,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: text, refusal: null },
              logprobs: null,
              finish_reason: event.status === "complete" ? "stop" : "length",
            },
          ],
          usage: usageOf(event),
        },
        { headers },
      );
    }
  }
  return (
    result ?? openAiError(500, "internal_error", "The answer ended without a result. Try again.", headers)
  );
}

/**
 * A turn that started and then failed: its question and the failed answer are in the history, so the client must
 * not resend it blindly (the official clients retry 5xx by default).
 */
function turnFailed(event: Failure, headers: Record<string, string>): Response {
  return openAiError(statusOf(event.code), event.code, event.message, {
    ...headers,
    "x-should-retry": "false",
  });
}

const encoder = new TextEncoder();
const frame = (data: unknown) =>
  encoder.encode(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);

/** stream: true — `chat.completion.chunk`s as the answer arrives, then (with include_usage) a usage chunk, then [DONE]. */
function streamed({
  events,
  stop,
  sessionId,
  includeUsage,
}: {
  events: AsyncIterable<TurnEvent>;
  stop: AbortController;
  sessionId: string;
  includeUsage: boolean;
}): Response {
  const chunk = (m: Meta, choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id: completionId(m),
    object: "chat.completion.chunk",
    created: createdOf(m),
    model: m.model,
    system_fingerprint: null,
    choices,
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  const choice = (delta: Record<string, unknown>, finish: string | null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });
  /** The OpenAI chunks one turn event becomes. */
  const chunksOf = (event: TurnEvent, meta: Meta | null): unknown[] => {
    if (event.type === "meta") return [chunk(event, [choice({ role: "assistant", content: "" }, null)])];
    if (event.type === "error") {
      // OpenAI's streaming error: a data line with an `error` object (the official clients throw an APIError).
      const type = openAiErrorType(statusOf(event.code));
      return [{ error: { message: event.message, type, param: null, code: event.code } }];
    }
    if (!meta) return [];
    if (event.type === "delta") return [chunk(meta, [choice({ content: event.text }, null)])];
    if (event.type === "done") {
      const finish = event.status === "complete" ? "stop" : "length";
      return [
        chunk(meta, [choice({}, finish)]),
        ...(includeUsage ? [chunk(meta, [], { usage: usageOf(event) })] : []),
        "[DONE]",
      ];
    }
    return [];
  };

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const write = (data: unknown) => {
        if (!open) return;
        try {
          controller.enqueue(frame(data));
        } catch {
          open = false;
        }
      };
      let meta: Meta | null = null;
      // Read to the end even after the client left: the last event is the commit's.
      for await (const event of events) {
        if (event.type === "meta") meta = event;
        for (const data of chunksOf(event, meta)) write(data);
      }
      if (!open) return;
      open = false;
      controller.close();
    },
    cancel(reason) {
      // The client went away: stop the turn (interrupted, with the text so far kept).
      stop.abort(reason);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      [SESSION_HEADER]: sessionId,
    },
  });
}
