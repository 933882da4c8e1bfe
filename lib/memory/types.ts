export type MemoryRole = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  name: string;
  /** JSON-encoded arguments, as the model produced them. */
  arguments: string;
}

/** One fact the model may see: not a string, so projections can render it for either API. */
export interface MemoryItem {
  role: MemoryRole;
  text: string;
  imageUrls?: string[];
  toolCalls?: ToolCall[];
  toolCallId?: string;
  summary?: boolean;
  /** History seq this item came from; absent for items not taken from history (system prompt, summaries). */
  seq?: number;
}

/** A pure function items → items with a stable id, recorded beside every snapshot and turn context. */
export interface MemoryPolicy {
  readonly id: string;
  apply(items: readonly MemoryItem[]): MemoryItem[];
}
