import {
  type ComposedContext,
  type ContextBudget,
  cloneItem,
  type InstructionScope,
  type MemoryItem,
  type MemoryRole,
  type SummaryMeta,
} from "@/lib/memory";

import { type EncodingName, renderedText, type Tokenizer, tokenizerFor } from "./tokenizer";

/**
 * `fact`: the long-term memory section; `recall`: the recalled-messages section itself (its header and envelope);
 * `recalled`: one message sent in that section; `file`: one passage of a project file sent in it; `tool`: a tool step of this turn (a call and its results); `tools`: a
 * tool definition offered to the model (sent beside the messages, counted like them).
 */
export type ContextSource =
  | "system"
  | "instructions"
  | "summary"
  | "fact"
  | "recall"
  | "recalled"
  | "file"
  | "history"
  | "current"
  | "tool"
  | "tools";

/** One line of the per-turn record: where an item came from and what it costs. */
export interface ItemEntry {
  source: Exclude<ContextSource, "recalled" | "file">;
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
  facts?: { id: string; sourceSessionId: string | null; sourceMessageId: string | null }[];
  /** On an `instructions` entry: the user's (from their settings) or this conversation's system prompt. */
  scope?: InstructionScope;
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

/**
 * One passage of a project file sent in the recall section, after its messages (docs/decisions/037-project-files.md):
 * which file, and where in it (`position` of `chunkCount`, 1-based); its tokens are what its line costs there.
 */
export interface FileEntry {
  source: "file";
  role: "system";
  fileId: string;
  fileName: string;
  chunkId: number;
  position: number;
  chunkCount: number;
  score: number;
  tokens: number;
  preview: string;
}

export type ContextEntry = ItemEntry | RecalledEntry | FileEntry;

/** A memory item that was not sent: over the budget, or a copy of a system message already sent. */
export interface DroppedEntry {
  source: ContextSource;
  role: MemoryRole;
  seq?: number;
  tokens: number;
  reason: "budget" | "duplicate";
}

/** A tool the turn may offer the model: its name and its definition as the model receives it. */
export interface ToolDefinition {
  name: string;
  text: string;
}

export interface BuiltContext {
  /** In the order sent to the model; project with `toChatMessages` / `toResponsesInput`. */
  items: MemoryItem[];
  /**
   * In the same order: one entry per item, except that the recall section's entry is followed by one `recalled`
   * entry per message it holds (the section entry then counts only its header and envelope).
   */
  entries: ContextEntry[];
  /** The tool definitions that fit (source `tools`, the tool's name as preview); their tokens are in `tokens`. */
  tools: ItemEntry[];
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

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The first PREVIEW_CHARS code points, as `Array.from` counts them (a surrogate pair is one, a lone surrogate one),
 * without splitting the text: a turn records ~60 previews, the recall section's of thousands of characters.
 */
const preview = (text: string) => {
  let end = 0;
  for (let points = 0; points < PREVIEW_CHARS && end < text.length; points++) {
    end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(0, end);
};

const firstLine = (text: string) => {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
};

const sumTokens = (entries: readonly { tokens: number }[]) => entries.reduce((sum, e) => sum + e.tokens, 0);

function toolEntry(tool: ToolDefinition, tokenizer: Tokenizer): ItemEntry {
  return {
    source: "tools",
    role: "system",
    chars: tool.text.length,
    tokens: tokenizer.countText(tool.text),
    preview: tool.name,
  };
}

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
  tools = [],
  policyId,
  model,
  tokenizer = tokenizerFor(model),
}: {
  composed: ComposedContext;
  /** The definitions of the tools offered; those composeContext kept (`composed.tools`) are sent and counted. */
  tools?: readonly ToolDefinition[];
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
    if (placed.source === "instructions") entry.scope = placed.scope;
    if (placed.source !== "recall") {
      entries.push(entry);
      continue;
    }
    recallTokens = entry.tokens;
    const { messages, headerTokens } = placed.recall;
    entries.push({ ...entry, tokens: headerTokens, preview: preview(firstLine(placed.item.text)) });
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
    for (const p of placed.recall.passages) {
      entries.push({
        source: "file",
        role: "system",
        fileId: p.fileId,
        fileName: p.fileName,
        chunkId: p.chunkId,
        position: p.position,
        chunkCount: p.chunkCount,
        score: p.score,
        tokens: p.tokens,
        preview: preview(p.text),
      });
    }
  }
  const dropped = composed.dropped.map(({ item, source, reason }) => {
    const entry: DroppedEntry = { source, role: item.role, tokens: tokenizer.countItem(item), reason };
    if (item.seq !== undefined) entry.seq = item.seq;
    return entry;
  });
  const keptTools = new Set(composed.tools.map((t) => t.name));
  const toolEntries = tools.filter((t) => keptTools.has(t.name)).map((t) => toolEntry(t, tokenizer));
  for (const t of composed.droppedTools) {
    dropped.push({ source: "tools", role: "system", tokens: t.tokens, reason: "budget" });
  }
  const tokens = sumTokens(entries) + sumTokens(toolEntries) + tokenizer.replyPriming;
  return {
    items: composed.placed.map(({ item }) => cloneItem(item)),
    entries,
    tools: toolEntries,
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
  const tokens = sumTokens(entries) + sumTokens(context.tools) + context.replyPriming;
  return {
    ...context,
    items: [...context.items, ...step.map(cloneItem)],
    entries,
    tokens,
    tokenEstimate: tokens,
  };
}
