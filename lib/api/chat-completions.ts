import "server-only";
import { turnInputSchema } from "@/lib/chat/schemas";
import { readTurnEvents, type TurnEvent } from "@/lib/chat/sse";
import { titleFrom } from "@/lib/chat/title";
import { startTurn } from "@/lib/chat/turn";
import { tokenizerFor } from "@/lib/context";
import { createSession, unsafeDeleteSessionById } from "@/lib/db/sessions";
import { getTurnContextByMessageId } from "@/lib/db/turns";
import { AppError, errorStatus } from "@/lib/errors";
import { readJson } from "@/lib/http";
import { chatCompletionRequestSchema, parseMemoryMode, planTurn, requestedSession } from "./chat-request";
import { assertApiTurnAllowed, openAiError, openAiErrorType, v1ErrorResponse } from "./v1-route";

// POST /v1/chat/completions: adapts OpenAI's wire format to the one turn pipeline (lib/chat/turn.ts startTurn) and
// its events back to OpenAI's `chat.completion` / `chat.completion.chunk` objects. No turn logic lives here.

export const SESSION_HEADER = "x-recall-session";

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

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
 * The turn's usage: what the provider reported, else counted with the model's tokenizer — the prompt is the
 * recorded context's token total, the completion the answer's tokens — so `usage` is always present.
 */
async function usageOf({
  done,
  meta,
  sessionId,
  userId,
  text,
}: {
  done: Done;
  meta: Meta;
  sessionId: string;
  userId: string;
  text: string;
}): Promise<Usage> {
  let prompt = done.promptTokens;
  let completion = done.completionTokens;
  if (prompt === undefined) {
    const context = await getTurnContextByMessageId({
      sessionId,
      userId,
      messageId: meta.assistantMessage.id,
    });
    prompt = context.tokenEstimate;
  }
  if (completion === undefined) completion = tokenizerFor(meta.model).countText(text);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Reads, validates and runs one chat completion for `userId`. */
export async function chatCompletion({ req, userId }: { req: Request; userId: string }): Promise<Response> {
  const body = await readJson(req, chatCompletionRequestSchema);
  const mode = parseMemoryMode(req.headers.get("x-recall-memory"));
  const plan = planTurn(body, mode);
  const input = turnInputSchema.parse({ content: plan.question });
  if (!("content" in input)) throw new AppError("bad_request", "The last message must be a question.");
  const named = requestedSession(req.headers.get(SESSION_HEADER), body);
  await assertApiTurnAllowed(userId);

  // Without a named conversation, a new one — a normal ChatSession, so it shows in the web sidebar.
  const sessionId = named ?? (await createSession({ userId, title: titleFrom(input.content) })).id;
  const headers = { [SESSION_HEADER]: sessionId };
  let turn: ReadableStream<Uint8Array>;
  try {
    turn = await startTurn({
      sessionId,
      userId,
      input,
      signal: req.signal,
      overrides: { systemPrompt: plan.systemPrompt, clientMemory: plan.clientMemory },
    });
  } catch (e) {
    // Nothing was recorded; a conversation made for this request alone is removed again.
    if (!named) {
      await unsafeDeleteSessionById({ sessionId, actorId: userId }).catch(() => undefined);
      return v1ErrorResponse(e);
    }
    return v1ErrorResponse(e, headers);
  }
  // Piped so a streamed reply's client going away can cancel the turn's stream (the turn then ends interrupted).
  const stop = new AbortController();
  const events = readTurnEvents(turn.pipeThrough(new TransformStream(), { signal: stop.signal }));
  return body.stream
    ? streamed({ events, stop, sessionId, userId, includeUsage: body.stream_options?.include_usage === true })
    : await collected({ events, sessionId, userId });
}

/** stream: false — the whole answer as one `chat.completion`. */
async function collected({
  events,
  sessionId,
  userId,
}: {
  events: AsyncGenerator<TurnEvent>;
  sessionId: string;
  userId: string;
}): Promise<Response> {
  const headers = { [SESSION_HEADER]: sessionId };
  let meta: Meta | null = null;
  let text = "";
  for await (const event of events) {
    if (event.type === "meta") meta = event;
    else if (event.type === "delta") text += event.text;
    else if (event.type === "error") return turnFailed(event, headers);
    else if (event.type === "done" && meta) {
      const usage = await usageOf({ done: event, meta, sessionId, userId, text });
      return Response.json(
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
          usage,
        },
        { headers },
      );
    }
  }
  return openAiError(500, "internal_error", "The answer ended without a result. Try again.", headers);
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
  userId,
  includeUsage,
}: {
  events: AsyncGenerator<TurnEvent>;
  stop: AbortController;
  sessionId: string;
  userId: string;
  includeUsage: boolean;
}): Response {
  let meta: Meta | null = null;
  let text = "";
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

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value: event, done } = await events.next();
      if (done) {
        controller.close();
        return;
      }
      if (event.type === "meta") {
        meta = event;
        controller.enqueue(frame(chunk(event, [choice({ role: "assistant", content: "" }, null)])));
      } else if (event.type === "delta" && meta) {
        text += event.text;
        controller.enqueue(frame(chunk(meta, [choice({ content: event.text }, null)])));
      } else if (event.type === "done" && meta) {
        const finish = event.status === "complete" ? "stop" : "length";
        controller.enqueue(frame(chunk(meta, [choice({}, finish)])));
        if (includeUsage) {
          const usage = await usageOf({ done: event, meta, sessionId, userId, text });
          controller.enqueue(frame(chunk(meta, [], { usage })));
        }
        controller.enqueue(frame("[DONE]"));
        controller.close();
      } else if (event.type === "error") {
        // OpenAI's streaming error: a data line with an `error` object (the official clients throw an APIError).
        const status = statusOf(event.code);
        controller.enqueue(
          frame({
            error: { message: event.message, type: openAiErrorType(status), param: null, code: event.code },
          }),
        );
        controller.close();
      }
    },
    cancel(reason) {
      // The client went away: cancel the turn's stream, which stops it (interrupted, with the text so far kept).
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
