import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { MemoryItem } from "@/lib/memory";

// The request side of POST /v1/chat/completions: validation and the pure mapping from OpenAI's `messages` to one
// Recall turn (question, system prompt override, client-sent memory). No I/O here.

const contentPart = z.object({ type: z.string() }).loose();

const messageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"], {
    message: "role must be system, developer, user, assistant or tool",
  }),
  content: z
    .union([z.string(), z.array(contentPart)])
    .nullable()
    .optional(),
  name: z.string().optional(),
  tool_calls: z.array(z.unknown()).nullable().optional(),
  tool_call_id: z.string().optional(),
});
export type ChatRequestMessage = z.infer<typeof messageSchema>;

export const chatCompletionRequestSchema = z.object({
  /** A model id from /v1/models: the answer comes from it (unknown or disabled: 404 model_not_found). */
  model: z.string().max(200).optional(),
  messages: z.array(messageSchema).min(1, "messages must contain at least one message"),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullable().optional(),
  n: z
    .number()
    .int()
    .nullable()
    .optional()
    .refine((n) => n == null || n === 1, "only n = 1 is supported"),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export type MemoryMode = "server" | "client";

/** `X-Recall-Memory`: absent or `server` (the conversation's memory), `client` (the messages sent are the context). */
export function parseMemoryMode(header: string | null): MemoryMode {
  const value = header?.trim().toLowerCase() ?? "";
  if (value === "" || value === "server") return "server";
  if (value === "client") return "client";
  throw new AppError("bad_request", "X-Recall-Memory must be `server` (the default) or `client`.");
}

/** The conversation a request names: the `X-Recall-Session` header, else `metadata.recall_session`. */
export function requestedSession(header: string | null, body: ChatCompletionRequest): string | undefined {
  const named = header?.trim() || body.metadata?.recall_session?.trim();
  if (named && named.length > 64)
    throw new AppError("bad_request", "X-Recall-Session is not a conversation id.");
  return named || undefined;
}

/** The text of a message: a string, or its text parts joined. Images and other parts are refused (400). */
function textOf(message: ChatRequestMessage, index: number): string {
  const { content } = message;
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.type === "text" && typeof part.text === "string") return part.text;
      throw new AppError(
        "bad_request",
        `messages[${index}]: content parts of type "${part.type}" are not supported; send text (a string or "text" parts).`,
      );
    })
    .join("");
}

export interface PlannedTurn {
  question: string;
  systemPrompt?: string;
  clientMemory?: MemoryItem[];
}

const isSystem = (m: ChatRequestMessage) => m.role === "system" || m.role === "developer";

/**
 * One turn from OpenAI's messages. The last message must be the user's new question. Leading system (or
 * developer) messages replace the system prompt for this turn. With server-side memory the messages in between
 * are ignored (the conversation's memory is used); with client memory they become the memory for this turn, as
 * text items — tool messages and assistant tool calls are refused (400), since the turn could not record them.
 */
export function planTurn(body: ChatCompletionRequest, mode: MemoryMode): PlannedTurn {
  const { messages } = body;
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex] as ChatRequestMessage;
  if (last.role !== "user") {
    throw new AppError(
      "bad_request",
      `The last message must be the user's new question (role "user"), not "${last.role}".`,
    );
  }
  const question = textOf(last, lastIndex);

  let start = 0;
  const system: string[] = [];
  while (start < lastIndex && isSystem(messages[start] as ChatRequestMessage)) {
    system.push(textOf(messages[start] as ChatRequestMessage, start));
    start++;
  }
  const plan: PlannedTurn = { question };
  if (system.length > 0) plan.systemPrompt = system.join("\n\n");
  if (mode === "client") {
    plan.clientMemory = messages.slice(start, lastIndex).map((m, i) => memoryItemOf(m, start + i));
  }
  return plan;
}

function memoryItemOf(message: ChatRequestMessage, index: number): MemoryItem {
  if (message.role === "tool" || (message.tool_calls?.length ?? 0) > 0) {
    throw new AppError(
      "bad_request",
      `messages[${index}]: tool calls and tool results are not supported with X-Recall-Memory: client; send text messages.`,
    );
  }
  const role = message.role === "developer" ? "system" : message.role;
  return { role, text: textOf(message, index) };
}
