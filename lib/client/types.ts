import type { MemoryState } from "@/lib/chat/memory-settings";
import type { MemoryUsed } from "@/lib/context/memory-used";

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
  /** The previous message on its path (null: a root). Absent on messages shown before the server named them. */
  parentId?: string | null;
  /**
   * Its versions: the children of its parent, oldest first, and which one this is. On a folded answer,
   * the versions of its group's first message (the question's child on the path).
   */
  siblings?: Siblings;
  /** On an answer: what it used beyond its window of recent messages (null: only the window). */
  memoryUsed?: MemoryUsed | null;
  /** On an answer: the registry id of the model that wrote it (null: written before models were recorded). */
  model?: string | null;
  /** …and that model's name, when the registry still knows it. */
  modelName?: string;
  /** On an answer: the tokens the provider reported for it (null: none recorded). */
  promptTokens?: number | null;
  completionTokens?: number | null;
}

export interface Siblings {
  /** 0-based position of this message among `ids`. */
  index: number;
  count: number;
  ids: string[];
}

/** One tool the model used in a turn, and what it returned (`ok` absent while it runs). */
export interface ToolStepView {
  id: string;
  name: string;
  arguments: string;
  ok?: boolean;
  result?: string;
}

/** GET (and PATCH) /api/sessions/:id — one page of the active path, newest last. */
export interface ConversationPage {
  session?: SessionView;
  messages: ChatMessageView[];
  hasMore: boolean;
}

/** The conversation as GET /api/sessions/:id describes it. */
export interface SessionView {
  id: string;
  title: string;
  /** The last message of the branch the user is on (null: no messages yet). */
  activeLeafId?: string | null;
  /** The user renamed it: the automatic title never replaces it. */
  titleByUser?: boolean;
  /** When an import made it (null: started here). */
  importedAt?: string | null;
}

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: string;
  createdAt: string;
  /** Decision 036: its project (null: none); when it was pinned and archived (null: it is not). */
  projectId?: string | null;
  pinnedAt?: string | null;
  archivedAt?: string | null;
  /** When an import made it (null: started here): the row says "Imported". */
  importedAt?: string | null;
}

/** GET /api/projects: one of the user's projects. */
export interface ProjectView {
  id: string;
  name: string;
  /** Sent after the system prompt in each of its conversations ("": none). */
  instructions: string;
  /** Its conversations in the list (archived ones not counted). */
  sessionCount: number;
  /** Its memories: a deletion removes them or makes them global. */
  factCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/projects/:id/files: one file of a project (only its text is kept, cut into `chunkCount` parts). */
export interface ProjectFileView {
  id: string;
  projectId: string;
  name: string;
  mime: string;
  bytes: number;
  chunkCount: number;
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
export type MemoryChange = Partial<
  Pick<MemoryStateView, "enabled" | "policy" | "maxMessages" | "maxTokens" | "recall" | "recallMaxTokens">
>;
/** Where recalled messages may come from: nowhere, this conversation's path, or all the user's conversations. */
export type RecallScope = MemoryStateView["recall"];
