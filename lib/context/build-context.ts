import {
  cloneItem,
  type LongTermFact,
  type MemoryItem,
  type MemoryRole,
  type SummaryMeta,
  tokenWindow,
} from "@/lib/memory";
import { ContextBudgetError } from "./errors";
import { type EncodingName, renderedText, type Tokenizer, tokenizerFor } from "./tokenizer";

/**
 * `fact`: the long-term memory section; `tool`: a tool step of this turn (a call and its results); `tools`: a tool
 * definition offered to the model (sent beside the messages, counted like them).
 */
export type ContextSource = "system" | "summary" | "fact" | "history" | "current" | "tool" | "tools";

/** One line of the per-turn record: where an item came from and what it costs. */
export interface ContextEntry {
  source: ContextSource;
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

/** A memory item that was not sent: over the budget, or a copy of a system message already sent. */
export interface DroppedEntry {
  source: ContextSource;
  role: MemoryRole;
  seq?: number;
  tokens: number;
  reason: "budget" | "duplicate";
}

export interface ContextBudget {
  /** What everything sent had to fit in: min(maxTokens, modelContextTokens − answerReserve). */
  limit: number;
  maxTokens?: number;
  modelContextTokens?: number;
  answerReserve: number;
}

/** A tool the turn may offer the model: its name and its definition as the model receives it. */
export interface ToolDefinition {
  name: string;
  text: string;
}

export interface BuiltContext {
  /** In the order sent to the model; project with `toChatMessages` / `toResponsesInput`. */
  items: MemoryItem[];
  /** Parallel to `items`. */
  entries: ContextEntry[];
  /** The tool definitions that fit (source `tools`, the tool's name as preview); their tokens are in `tokens`. */
  tools: ContextEntry[];
  /** Real token count of the request: the entries plus the reply priming (`replyPriming`). */
  tokens: number;
  /** The same number as `tokens`, under the name the stored turn record uses (kept for compatibility). */
  tokenEstimate: number;
  /** Tokens OpenAI adds once per request to prime the reply; in `tokens`, not in any entry. */
  replyPriming: number;
  encoding: EncodingName;
  /** `null` when no budget was given (nothing is dropped for size). */
  budget: ContextBudget | null;
  dropped: DroppedEntry[];
  policyId: string;
  model: string;
}

export const PREVIEW_CHARS = 120;
/** The smallest accepted `maxTokens`. */
const MIN_MAX_TOKENS = 100;
/** Room kept for the answer inside the model's context window when the caller names none. */
export const DEFAULT_ANSWER_RESERVE_TOKENS = 1024;

function entryFor(item: MemoryItem, source: ContextSource, tokenizer: Tokenizer): ContextEntry {
  const text = renderedText(item);
  const entry: ContextEntry = {
    source,
    role: item.role,
    chars: text.length,
    tokens: tokenizer.countItem(item),
    preview: Array.from(text).slice(0, PREVIEW_CHARS).join(""),
  };
  if (item.seq !== undefined) entry.seq = item.seq;
  if (item.summaryMeta) entry.summary = { ...item.summaryMeta };
  if (item.imageUrls?.length) entry.images = [...item.imageUrls];
  return entry;
}

const sumTokens = (entries: readonly { tokens: number }[]) => entries.reduce((sum, e) => sum + e.tokens, 0);

function toolEntry(tool: ToolDefinition, tokenizer: Tokenizer): ContextEntry {
  return {
    source: "tools",
    role: "system",
    chars: tool.text.length,
    tokens: tokenizer.countText(tool.text),
    preview: tool.name,
  };
}

function droppedEntry(
  item: MemoryItem,
  source: ContextSource,
  reason: DroppedEntry["reason"],
  tokenizer: Tokenizer,
): DroppedEntry {
  const entry: DroppedEntry = { source, role: item.role, tokens: tokenizer.countItem(item), reason };
  if (item.seq !== undefined) entry.seq = item.seq;
  return entry;
}

function sameContent(a: MemoryItem, b: MemoryItem): boolean {
  return (
    a.role === b.role &&
    a.text === b.text &&
    (a.summary ?? false) === (b.summary ?? false) &&
    JSON.stringify(a.imageUrls ?? []) === JSON.stringify(b.imageUrls ?? [])
  );
}

/**
 * Memory may already hold the current question (a snapshot rebuilt after the user message was appended).
 * With seqs on both sides the seq decides; otherwise equal content does, which may drop an identical earlier
 * message but never sends the question twice.
 */
function isQuestionCopy(item: MemoryItem, question: MemoryItem): boolean {
  if (item.seq !== undefined && question.seq !== undefined) return item.seq === question.seq;
  return sameContent(item, question);
}

function sourceOf(item: MemoryItem): ContextSource {
  if (item.summary) return "summary";
  return item.role === "system" ? "system" : "history";
}

function requireTokens(value: number, name: string, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer of at least ${min}, got ${value}`);
  }
}

function budgetFor({
  maxTokens,
  modelContextTokens,
  answerReserve,
}: {
  maxTokens: number | undefined;
  modelContextTokens: number | undefined;
  answerReserve: number | undefined;
}): ContextBudget | null {
  if (maxTokens === undefined && modelContextTokens === undefined) return null;
  const reserve = answerReserve ?? DEFAULT_ANSWER_RESERVE_TOKENS;
  requireTokens(reserve, "answerReserve", 0);
  const budget: ContextBudget = { limit: Number.POSITIVE_INFINITY, answerReserve: reserve };
  if (maxTokens !== undefined) {
    requireTokens(maxTokens, "maxTokens", MIN_MAX_TOKENS);
    budget.maxTokens = maxTokens;
    budget.limit = maxTokens;
  }
  if (modelContextTokens !== undefined) {
    requireTokens(modelContextTokens, "modelContextTokens", MIN_MAX_TOKENS + reserve);
    budget.modelContextTokens = modelContextTokens;
    budget.limit = Math.min(budget.limit, modelContextTokens - reserve);
  }
  return budget;
}

/** Positions in `all` of the items of `kept`, a subsequence of it (equal items are interchangeable). */
function keptPositions(all: readonly MemoryItem[], kept: readonly MemoryItem[]): Set<number> {
  const positions = new Set<number>();
  let k = 0;
  all.forEach((item, index) => {
    const next = kept[k];
    if (next && JSON.stringify(cloneItem(item)) === JSON.stringify(next)) {
      positions.add(index);
      k++;
    }
  });
  return positions;
}

/**
 * The exact context for one turn: system prompt → summaries → memory window → current question, which is
 * appended exactly once and is never subject to the memory policy or the budget. A memory system item equal to
 * the system prompt or to an earlier one is sent once.
 *
 * With `maxTokens` and/or `modelContextTokens`, everything sent (system prompt through question, reply priming
 * included) fits in min(maxTokens, modelContextTokens − answerReserve): memory is cut by the token window (whole
 * units from the newest back, pinned items first), and if the pinned items alone do not fit, the oldest
 * summaries and then the oldest memory system items go. The system prompt and the question are never dropped;
 * when they alone do not fit, `ContextBudgetError` is thrown. Tokens are counted with the model's encoding
 * (`tokenizer` overrides it).
 */
export function buildContext({
  systemPrompt,
  memory,
  question,
  policyId,
  model,
  tokenizer = tokenizerFor(model),
  maxTokens,
  modelContextTokens,
  answerReserve,
  longTermMemory,
  tools = [],
}: {
  systemPrompt: string;
  /**
   * Tool definitions to offer. They are counted before any memory; when they do not fit beside the system prompt
   * and the question they are all left out (dropped, reason `budget`) rather than failing the turn.
   */
  tools?: readonly ToolDefinition[];
  /** The user's long-term facts as one section (lib/memory longTermSection), sent right after the system prompt. */
  longTermMemory?: { item: MemoryItem; facts: readonly LongTermFact[] } | null | undefined;
  memory: readonly MemoryItem[];
  question: MemoryItem;
  policyId: string;
  model: string;
  tokenizer?: Tokenizer;
  /** Budget for everything sent (≥ 100). */
  maxTokens?: number;
  /** The model's context window; the answer's reserve is kept free inside it. */
  modelContextTokens?: number;
  /** Tokens kept for the answer (default `DEFAULT_ANSWER_RESERVE_TOKENS`); only used with a budget. */
  answerReserve?: number;
}): BuiltContext {
  const budget = budgetFor({ maxTokens, modelContextTokens, answerReserve });
  const count = tokenizer.countItem;
  const dropped: DroppedEntry[] = [];

  const system: MemoryItem | undefined =
    systemPrompt === "" ? undefined : { role: "system", text: systemPrompt };
  const systemTexts = new Set(system ? [system.text] : []);
  let rest: MemoryItem[] = [];
  for (const item of memory) {
    if (isQuestionCopy(item, question)) continue;
    if (item.role === "system" && !item.summary) {
      if (systemTexts.has(item.text)) {
        dropped.push(droppedEntry(item, "system", "duplicate", tokenizer));
        continue;
      }
      systemTexts.add(item.text);
    }
    rest.push(cloneItem(item));
  }

  let longTerm = longTermMemory ?? null;
  let toolEntries = tools.map((t) => toolEntry(t, tokenizer));
  if (budget) {
    const questionTokens = count(question);
    let fixed = (system ? count(system) : 0) + questionTokens + tokenizer.replyPriming;
    if (fixed > budget.limit) {
      throw new ContextBudgetError({ questionTokens, requiredTokens: fixed, budget: budget.limit });
    }
    const toolTokens = sumTokens(toolEntries);
    if (fixed + toolTokens > budget.limit) {
      for (const e of toolEntries)
        dropped.push({ source: "tools", role: "system", tokens: e.tokens, reason: "budget" });
      toolEntries = [];
    }
    fixed += sumTokens(toolEntries);
    // The section has its own limit (LONG_TERM_MEMORY_MAX_TOKENS); it goes before any history when even it
    // does not fit.
    if (longTerm && fixed + count(longTerm.item) > budget.limit) {
      dropped.push(droppedEntry(longTerm.item, "fact", "budget", tokenizer));
      longTerm = null;
    }
    const left = budget.limit - fixed - (longTerm ? count(longTerm.item) : 0);
    const windowed = tokenWindow({ maxTokens: left, count }).apply(rest);
    const kept = keptPositions(rest, windowed);
    rest.forEach((item, index) => {
      if (!kept.has(index)) dropped.push(droppedEntry(item, sourceOf(item), "budget", tokenizer));
    });
    rest = windowed;
    // Pinned items alone over the budget (the window then kept no history): oldest summaries go first.
    let used = rest.reduce((total, item) => total + count(item), 0);
    while (used > left) {
      const oldestSummary = rest.findIndex((item) => item.summary);
      const [item] = rest.splice(oldestSummary === -1 ? 0 : oldestSummary, 1);
      if (!item) break;
      used -= count(item);
      dropped.push(droppedEntry(item, sourceOf(item), "budget", tokenizer));
    }
  }

  const placed: { item: MemoryItem; source: ContextSource }[] = [];
  if (system) placed.push({ item: system, source: "system" });
  if (longTerm) placed.push({ item: cloneItem(longTerm.item), source: "fact" });
  for (const item of rest) if (item.summary) placed.push({ item, source: "summary" });
  for (const item of rest) if (!item.summary) placed.push({ item, source: sourceOf(item) });
  placed.push({ item: cloneItem(question), source: "current" });

  const entries = placed.map(({ item, source }) => entryFor(item, source, tokenizer));
  const factsEntry = entries.find((e) => e.source === "fact");
  if (factsEntry && longTerm) {
    factsEntry.facts = longTerm.facts.map((f) => ({
      id: f.id,
      sourceSessionId: f.sourceSessionId,
      sourceMessageId: f.sourceMessageId,
    }));
  }
  const tokens = sumTokens(entries) + sumTokens(toolEntries) + tokenizer.replyPriming;
  return {
    items: placed.map(({ item }) => item),
    entries,
    tools: toolEntries,
    tokens,
    tokenEstimate: tokens,
    replyPriming: tokenizer.replyPriming,
    encoding: tokenizer.encoding,
    budget,
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
