import { cloneItem, type MemoryItem, type MemoryRole, SUMMARY_PREFIX } from "@/lib/memory";
import { estimateTokens, IMAGE_TOKENS } from "./estimate-tokens";

export type ContextSource = "system" | "summary" | "fact" | "history" | "current";

/** One line of the per-turn record: where an item came from and what it costs. */
export interface ContextEntry {
  source: ContextSource;
  role: MemoryRole;
  seq?: number;
  chars: number;
  tokens: number;
  /** First 120 characters of the text the model sees. */
  preview: string;
}

export interface BuiltContext {
  /** In the order sent to the model; project with `toChatMessages` / `toResponsesInput`. */
  items: MemoryItem[];
  /** Parallel to `items`. */
  entries: ContextEntry[];
  /** Sum of `entries[].tokens`; an estimate (see estimate-tokens.ts). */
  tokenEstimate: number;
  policyId: string;
  model: string;
}

export const PREVIEW_CHARS = 120;

/** The text the model sees for an item, as the projections render it (summary prefix, tool calls). */
function renderedText(item: MemoryItem): string {
  const text = item.summary ? `${SUMMARY_PREFIX}${item.text}` : item.text;
  const calls = (item.toolCalls ?? []).map((call) => `${call.name}(${call.arguments})`);
  return [text, ...calls].filter((part) => part !== "").join("\n");
}

function entryFor(item: MemoryItem, source: ContextSource): ContextEntry {
  const text = renderedText(item);
  const entry: ContextEntry = {
    source,
    role: item.role,
    chars: text.length,
    tokens: estimateTokens(text) + (item.imageUrls?.length ?? 0) * IMAGE_TOKENS,
    preview: Array.from(text).slice(0, PREVIEW_CHARS).join(""),
  };
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

/**
 * The exact context for one turn: system prompt → summaries → memory window → current question, which is
 * appended exactly once and is never subject to the memory policy.
 */
export function buildContext({
  systemPrompt,
  memory,
  question,
  policyId,
  model,
}: {
  systemPrompt: string;
  memory: readonly MemoryItem[];
  question: MemoryItem;
  policyId: string;
  model: string;
}): BuiltContext {
  const placed: { item: MemoryItem; source: ContextSource }[] = [];
  if (systemPrompt !== "") placed.push({ item: { role: "system", text: systemPrompt }, source: "system" });
  for (const item of memory) {
    if (item.summary) placed.push({ item: cloneItem(item), source: "summary" });
  }
  for (const item of memory) {
    if (item.summary || isQuestionCopy(item, question)) continue;
    placed.push({ item: cloneItem(item), source: item.role === "system" ? "system" : "history" });
  }
  placed.push({ item: cloneItem(question), source: "current" });

  const entries = placed.map(({ item, source }) => entryFor(item, source));
  return {
    items: placed.map(({ item }) => item),
    entries,
    tokenEstimate: entries.reduce((sum, entry) => sum + entry.tokens, 0),
    policyId,
    model,
  };
}
