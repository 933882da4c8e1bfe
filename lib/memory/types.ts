export type MemoryRole = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  name: string;
  /** JSON-encoded arguments, as the model produced them. */
  arguments: string;
}

/** What a summary covers and how it was made: shown in the context inspector ("summary of #1–#40, v3"). */
export interface SummaryMeta {
  /** First history seq folded into the summary (over all its versions). */
  fromSeq: number;
  /** Last history seq folded into the summary. */
  throughSeq: number;
  /** How many history messages it stands for, over all its versions. */
  messages: number;
  /** 1 for the first summary of a conversation, +1 each time it is merged with newer messages. */
  version: number;
  /** The model that wrote it. */
  model: string;
  /** ISO 8601 time it was written. */
  createdAt: string;
}

/** One fact the model may see: not a string, so projections can render it for either API. */
export interface MemoryItem {
  role: MemoryRole;
  text: string;
  /**
   * Images of a user item: URLs, or references to attachments (`attachment:<id>?w=&h=`, see ./attachments.ts) that
   * are resolved to data URLs only for the model call. Attached text files are part of `text`.
   */
  imageUrls?: string[];
  toolCalls?: ToolCall[];
  toolCallId?: string;
  summary?: boolean;
  /** Provenance of a summary item (only on items with `summary: true`). */
  summaryMeta?: SummaryMeta;
  /** History seq this item came from; absent for items not taken from history (system prompt, summaries). */
  seq?: number;
}

/** A pure function items → items with a stable id, recorded beside every snapshot and turn context. */
export interface MemoryPolicy {
  readonly id: string;
  apply(items: readonly MemoryItem[]): MemoryItem[];
}

/** Tokens one item costs when sent (message overhead included); injected so lib/memory stays tokenizer-free. */
export type TokenCounter = (item: MemoryItem) => number;
