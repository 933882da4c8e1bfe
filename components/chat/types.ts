import type { MemoryState } from "@/lib/chat/memory-settings";

export type MessageStatus = "complete" | "streaming" | "interrupted" | "failed";

export interface ChatMessageView {
  id: string;
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  status: MessageStatus;
  createdAt: string;
  error?: string;
  /** As stored: an assistant message's tool calls (`{ toolCalls }`), attachments. */
  parts?: unknown;
  /** On a tool message: the call it answers. */
  toolCallId?: string | null;
  /** On an answer: the tool steps that led to it (folded from the call/result rows, or streamed live). */
  steps?: ToolStepView[];
}

/** One tool the model used in a turn, and what it returned (`ok` absent while it runs). */
export interface ToolStepView {
  id: string;
  name: string;
  arguments: string;
  ok?: boolean;
  result?: string;
}

/** GET /api/sessions/:id — one page of history, newest last. */
export interface ConversationPage {
  messages: ChatMessageView[];
  hasMore: boolean;
}

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: string;
  createdAt: string;
}

export interface ModelInfo {
  model: string;
  offline: boolean;
}

/** Messages shown before the server has named them carry a temporary id. */
export const isTemporary = (message: Pick<ChatMessageView, "id">) => message.id.startsWith("temp-");

/** GET/PATCH /api/sessions/:id/memory and POST …/memory/clear: the conversation's memory settings and state. */
export type MemoryStateView = MemoryState;
export type MemoryPolicyKind = MemoryStateView["policy"];
/** A PATCH body: any of the settings. */
export type MemoryChange = Partial<Pick<MemoryStateView, "enabled" | "policy" | "maxMessages" | "maxTokens">>;
