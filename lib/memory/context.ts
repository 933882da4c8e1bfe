import { ContextBudgetError } from "./errors";
import type { Instruction } from "./instructions";
import { cloneItem } from "./items";
import type { LongTermFact } from "./long-term";
import { type RecallCandidate, type RecallPassage, type RecallSection, selectRecall } from "./recall";
import { tokenWindow } from "./token-window";
import type { MemoryItem, TokenCounter } from "./types";

// The one place that decides what the model sees in a turn (docs/decisions/002 and 026): the system prompt, the
// long-term section, summaries, the recall section, the memory window and the question, within the budget.
// lib/context's buildContext only assembles, counts and records the result.

/** Where an item of the composed context comes from. */
export type ComposedSource =
  | "system"
  | "instructions"
  | "fact"
  | "summary"
  | "recall"
  | "history"
  | "current";

export type PlacedItem =
  | { source: "system" | "summary" | "history" | "current"; item: MemoryItem }
  | { source: "fact"; item: MemoryItem; facts: readonly LongTermFact[] }
  | { source: "recall"; item: MemoryItem; recall: RecallSection }
  | { source: "instructions"; item: MemoryItem; scope: Instruction["scope"] };

/** A memory item that is not sent: over the budget, or a copy of a system message already sent. */
export interface DroppedItem {
  item: MemoryItem;
  source: ComposedSource;
  reason: "budget" | "duplicate";
}

export interface ContextBudget {
  /** What everything sent had to fit in: min(maxTokens, modelContextTokens − answerReserve). */
  limit: number;
  maxTokens?: number;
  modelContextTokens?: number;
  answerReserve: number;
}

/** A tool definition offered to the model, by name, with what it costs. */
export interface ToolCost {
  name: string;
  tokens: number;
}

export interface ComposedContext {
  /** In the order sent. */
  placed: PlacedItem[];
  dropped: DroppedItem[];
  /** The tool definitions sent, and those left out because they did not fit beside the question. */
  tools: ToolCost[];
  droppedTools: ToolCost[];
  /** `null` when no budget was given (nothing is dropped for size). */
  budget: ContextBudget | null;
}

/** The smallest accepted `maxTokens`. */
const MIN_MAX_TOKENS = 100;
/** Room kept for the answer inside the model's context window when the caller names none. */
export const DEFAULT_ANSWER_RESERVE_TOKENS = 1024;

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

function sourceOf(item: MemoryItem): "system" | "summary" | "history" {
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

/** What recall may bring: ranked candidates of the conversation `sessionId`, and the section's own limit. */
export interface RecallInput {
  candidates: readonly RecallCandidate[];
  /** Passages of the conversation's project files, best first (docs/decisions/037-project-files.md). */
  passages?: readonly RecallPassage[] | undefined;
  sessionId: string;
  maxTokens: number;
}

/**
 * The context for one turn: system prompt → long-term section → summaries → recall section → memory window →
 * current question, which is placed exactly once and is never subject to the memory policy or the budget. A
 * memory system item equal to the system prompt or to an earlier one is sent once.
 *
 * With `maxTokens` and/or `modelContextTokens`, everything sent (system prompt through question, reply priming
 * included) fits in min(maxTokens, modelContextTokens − answerReserve): the long-term section goes first when it
 * alone does not fit; memory is cut by the token window (whole units from the newest back, pinned items first),
 * and if the pinned items alone do not fit, the oldest summaries and then the oldest memory system items go. The
 * recall section gets what is left, up to its own limit: the window keeps priority. The system prompt and the
 * question are never dropped; when they alone do not fit, `ContextBudgetError` is thrown.
 */
export function composeContext({
  systemPrompt,
  memory,
  question,
  longTerm,
  recall,
  count,
  replyPriming,
  maxTokens,
  modelContextTokens,
  answerReserve,
  tools = [],
  instructions = [],
}: {
  systemPrompt: string;
  memory: readonly MemoryItem[];
  question: MemoryItem;
  /** The user's long-term facts as one section (longTermSection), sent right after the system prompt. */
  longTerm?: { item: MemoryItem; facts: readonly LongTermFact[] } | null | undefined;
  /** Recall candidates; null or absent: no recall section. */
  recall?: RecallInput | null | undefined;
  count: TokenCounter;
  /** Tokens added once per request to prime the reply (counted against the budget). */
  replyPriming: number;
  /** Budget for everything sent (≥ 100). */
  maxTokens?: number | undefined;
  /** The model's context window; the answer's reserve is kept free inside it. */
  modelContextTokens?: number | undefined;
  /** Tokens kept for the answer (default `DEFAULT_ANSWER_RESERVE_TOKENS`); only used with a budget. */
  answerReserve?: number | undefined;
  /**
   * Tool definitions to offer. They are counted before any memory; when they do not fit beside the system prompt
   * and the question they are all left out rather than failing the turn.
   */
  tools?: readonly ToolCost[];
  /**
   * The user's and the conversation's instructions (instructionItems), sent right after the system prompt. Each is
   * counted with the system prompt and the question before anything else; one that does not fit beside them is
   * left out (recorded as dropped) rather than failing the turn.
   */
  instructions?: readonly Instruction[];
}): ComposedContext {
  const budget = budgetFor({ maxTokens, modelContextTokens, answerReserve });
  const dropped: DroppedItem[] = [];

  const system: MemoryItem | undefined =
    systemPrompt === "" ? undefined : { role: "system", text: systemPrompt };
  const systemTexts = new Set(system ? [system.text] : []);
  let rest: MemoryItem[] = [];
  for (const item of memory) {
    if (isQuestionCopy(item, question)) continue;
    if (item.role === "system" && !item.summary) {
      if (systemTexts.has(item.text)) {
        dropped.push({ item: cloneItem(item), source: "system", reason: "duplicate" });
        continue;
      }
      systemTexts.add(item.text);
    }
    rest.push(cloneItem(item));
  }

  let longTermSection = longTerm ?? null;
  let recallLeft = Number.POSITIVE_INFINITY;
  let keptTools = [...tools];
  let keptInstructions = [...instructions];
  let droppedTools: ToolCost[] = [];
  if (budget) {
    const questionTokens = count(question);
    let fixed = (system ? count(system) : 0) + questionTokens + replyPriming;
    if (fixed > budget.limit) {
      throw new ContextBudgetError({ questionTokens, requiredTokens: fixed, budget: budget.limit });
    }
    keptInstructions = [];
    for (const i of instructions) {
      const tokens = count(i.item);
      if (fixed + tokens > budget.limit) {
        dropped.push({ item: cloneItem(i.item), source: "instructions", reason: "budget" });
        continue;
      }
      fixed += tokens;
      keptInstructions.push(i);
    }
    const toolTokens = tools.reduce((sum, t) => sum + t.tokens, 0);
    if (fixed + toolTokens > budget.limit) {
      droppedTools = keptTools;
      keptTools = [];
    } else {
      fixed += toolTokens;
    }
    // The section has its own limit (LONG_TERM_MEMORY_MAX_TOKENS); it goes before any history when even it
    // does not fit.
    if (longTermSection && fixed + count(longTermSection.item) > budget.limit) {
      dropped.push({ item: cloneItem(longTermSection.item), source: "fact", reason: "budget" });
      longTermSection = null;
    }
    const left = budget.limit - fixed - (longTermSection ? count(longTermSection.item) : 0);
    const windowed = tokenWindow({ maxTokens: left, count }).apply(rest);
    const kept = keptPositions(rest, windowed);
    rest.forEach((item, index) => {
      if (!kept.has(index)) dropped.push({ item, source: sourceOf(item), reason: "budget" });
    });
    rest = windowed;
    // Pinned items alone over the budget (the window then kept no history): oldest summaries go first.
    let used = rest.reduce((total, item) => total + count(item), 0);
    while (used > left) {
      const oldestSummary = rest.findIndex((item) => item.summary);
      const [item] = rest.splice(oldestSummary === -1 ? 0 : oldestSummary, 1);
      if (!item) break;
      used -= count(item);
      dropped.push({ item, source: sourceOf(item), reason: "budget" });
    }
    recallLeft = left - used;
  }

  const windowSeqs = new Set(rest.flatMap((item) => (item.seq === undefined ? [] : [item.seq])));
  const recalled =
    recall && (recall.candidates.length > 0 || (recall.passages?.length ?? 0) > 0)
      ? selectRecall({
          candidates: recall.candidates,
          passages: recall.passages ?? [],
          sessionId: recall.sessionId,
          windowSeqs,
          questionSeq: question.seq,
          maxTokens: Math.min(recall.maxTokens, recallLeft),
          count,
        })
      : null;

  const placed: PlacedItem[] = [];
  if (system) placed.push({ item: system, source: "system" });
  for (const i of keptInstructions)
    placed.push({ item: cloneItem(i.item), source: "instructions", scope: i.scope });
  if (longTermSection) {
    placed.push({ item: cloneItem(longTermSection.item), source: "fact", facts: longTermSection.facts });
  }
  for (const item of rest) if (item.summary) placed.push({ item, source: "summary" });
  if (recalled) placed.push({ item: recalled.item, source: "recall", recall: recalled });
  for (const item of rest) if (!item.summary) placed.push({ item, source: sourceOf(item) });
  placed.push({ item: cloneItem(question), source: "current" });
  return { placed, dropped, budget, tools: keptTools, droppedTools };
}
