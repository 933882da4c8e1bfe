import {
  type ComposedContext,
  type ContextBudget,
  cloneItem,
  type MemoryItem,
  type MemoryRole,
  type SummaryMeta,
} from "@/lib/memory";

import { type EncodingName, renderedText, type Tokenizer, tokenizerFor } from "./tokenizer";

/**
 * `fact`: the long-term memory section; `recall`: the recalled-messages section itself (its header and envelope);
 * `recalled`: one message sent in that section; `tool`: a tool step of this turn (a call and its results).
 */
export type ContextSource =
  | "system"
  | "summary"
  | "fact"
  | "recall"
  | "recalled"
  | "history"
  | "current"
  | "tool";

/** One line of the per-turn record: where an item came from and what it costs. */
export interface ItemEntry {
  source: Exclude<ContextSource, "recalled">;
  role: MemoryRole;
  seq?: number;
  chars: number;
  /** Real tokens for this message (envelope included), by the model's encoding. */
  tokens: number;
  /** First 120 characters of the text the model sees. */
  preview: string;
  /** On a summary: the history range it covers, how many messages, its version, the model and when. */
  summary?: SummaryMeta;
  /** On a message with pictures: their references (`attachment:<id>?w=&h=`), never the bytes. */
  images?: string[];
  /** On the long-term memory section: each fact sent, with the conversation and message it was learned from. */
  facts?: { id: string; sourceSessionId: string; sourceMessageId: string }[];
}

/**
 * One earlier message sent in the recall section (right after that section's own `recall` entry); its tokens are
 * what its line costs inside the section.
 */
export interface RecalledEntry {
  source: "recalled";
  role: "user" | "assistant";
  seq: number;
  sessionId: string;
  messageId: string;
  /** ISO 8601. */
  createdAt: string;
  score: number;
  tokens: number;
  preview: string;
}

export type ContextEntry = ItemEntry | RecalledEntry;

/** A memory item that was not sent: over the budget, or a copy of a system message already sent. */
export interface DroppedEntry {
  source: ContextSource;
  role: MemoryRole;
  seq?: number;
  tokens: number;
  reason: "budget" | "duplicate";
}

export interface BuiltContext {
  /** In the order sent to the model; project with `toChatMessages` / `toResponsesInput`. */
  items: MemoryItem[];
  /**
   * In the same order: one entry per item, except that the recall section's entry is followed by one `recalled`
   * entry per message it holds (the section entry then counts only its header and envelope).
   */
  entries: ContextEntry[];
  /** Real token count of the request: the entries plus the reply priming (`replyPriming`). */
  tokens: number;
  /** The same number as `tokens`, under the name the stored turn record uses (kept for compatibility). */
  tokenEstimate: number;
  /** Tokens OpenAI adds once per request to prime the reply; in `tokens`, not in any entry. */
  replyPriming: number;
  /** Tokens of the recall section as sent, header included (0 when there is none). */
  recallTokens: number;
  encoding: EncodingName;
  /** `null` when no budget was given (nothing is dropped for size). */
  budget: ContextBudget | null;
  dropped: DroppedEntry[];
  policyId: string;
  model: string;
}

export const PREVIEW_CHARS = 120;

const preview = (text: string) => Array.from(text).slice(0, PREVIEW_CHARS).join("");

function entryFor(item: MemoryItem, source: ItemEntry["source"], tokenizer: Tokenizer): ItemEntry {
  const text = renderedText(item);
  const entry: ItemEntry = {
    source,
    role: item.role,
    chars: text.length,
    tokens: tokenizer.countItem(item),
    preview: preview(text),
  };
  if (item.seq !== undefined) entry.seq = item.seq;
  if (item.summaryMeta) entry.summary = { ...item.summaryMeta };
  if (item.imageUrls?.length) entry.images = [...item.imageUrls];
  return entry;
}

/**
 * Assembles a context composed by lib/memory (`composeContext`, which decides what is sent): counts every item
 * with the model's encoding (`tokenizer` overrides it) and records what was sent and what was dropped.
 */
export function buildContext({
  composed,
  policyId,
  model,
  tokenizer = tokenizerFor(model),
}: {
  composed: ComposedContext;
  policyId: string;
  model: string;
  tokenizer?: Tokenizer;
}): BuiltContext {
  const entries: ContextEntry[] = [];
  let recallTokens = 0;
  for (const placed of composed.placed) {
    const entry = entryFor(placed.item, placed.source, tokenizer);
    if (placed.source === "fact") {
      entry.facts = placed.facts.map((f) => ({
        id: f.id,
        sourceSessionId: f.sourceSessionId,
        sourceMessageId: f.sourceMessageId,
      }));
    }
    if (placed.source !== "recall") {
      entries.push(entry);
      continue;
    }
    recallTokens = entry.tokens;
    const { messages, headerTokens } = placed.recall;
    entries.push({ ...entry, tokens: headerTokens, preview: preview(placed.item.text.split("\n")[0] ?? "") });
    for (const m of messages) {
      entries.push({
        source: "recalled",
        role: m.role,
        seq: m.seq,
        sessionId: m.sessionId,
        messageId: m.messageId,
        createdAt: m.createdAt.toISOString(),
        score: m.score,
        tokens: m.tokens,
        preview: preview(m.text),
      });
    }
  }
  const dropped = composed.dropped.map(({ item, source, reason }) => {
    const entry: DroppedEntry = { source, role: item.role, tokens: tokenizer.countItem(item), reason };
    if (item.seq !== undefined) entry.seq = item.seq;
    return entry;
  });
  const tokens = entries.reduce((sum, entry) => sum + entry.tokens, 0) + tokenizer.replyPriming;
  return {
    items: composed.placed.map(({ item }) => cloneItem(item)),
    entries,
    tokens,
    tokenEstimate: tokens,
    replyPriming: tokenizer.replyPriming,
    recallTokens,
    encoding: tokenizer.encoding,
    budget: composed.budget,
    dropped,
    policyId,
    model,
  };
}

/**
 * The context of the next model call in a turn that used tools: what was sent, then the step (the assistant's calls
 * and the tool results), recorded as `tool` entries so the inspector shows exactly what each call was sent.
 */
export function withToolStep(
  context: BuiltContext,
  step: readonly MemoryItem[],
  tokenizer: Tokenizer = tokenizerFor(context.model),
): BuiltContext {
  const entries = [...context.entries, ...step.map((item) => entryFor(item, "tool", tokenizer))];
  const tokens = entries.reduce((sum, entry) => sum + entry.tokens, 0) + context.replyPriming;
  return {
    ...context,
    items: [...context.items, ...step.map(cloneItem)],
    entries,
    tokens,
    tokenEstimate: tokens,
  };
}
