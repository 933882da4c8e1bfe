import { cloneItem, isPinned, suffixIndices, withinMessages } from "./items";
import { messageWindow } from "./policies";
import type { MemoryItem, MemoryPolicy, SummaryMeta } from "./types";

/**
 * AI4J's summary shape. When the history in memory reaches `trigger` messages, everything but the newest
 * `keepRecent` (whole units, as the message window keeps them) is folded, with the previous summary, into one
 * summary item. Role and prefix are fixed rather than configured: a summary is a `system` item sent as system
 * text with `SUMMARY_PREFIX`, added when it is rendered (never stored, so a new wording applies to every
 * conversation). See docs/decisions/002-memory-policies.md.
 */
export interface SummaryConfig {
  trigger: number;
  keepRecent: number;
}

/** What the injected summarizer gets: the previous summary's text (to merge) and the messages leaving memory. */
export interface SummarizerInput {
  previous?: string;
  messages: MemoryItem[];
}

/** The model call, injected (lib/memory never calls a model). Resolves to the new summary's text. */
export type Summarizer = (input: SummarizerInput, signal?: AbortSignal) => Promise<string>;

export interface SummaryPlan {
  /** The previous summary items merged into the new one (usually one). */
  previous: MemoryItem[];
  /** History items leaving memory, in order. */
  fold: MemoryItem[];
  fromSeq: number;
  throughSeq: number;
  /** History messages the new summary stands for, previous summaries' included. */
  messages: number;
  version: number;
}

export type SummaryOutcome =
  | { status: "skipped"; items: MemoryItem[] }
  | { status: "summarized"; items: MemoryItem[]; summary: MemoryItem }
  | { status: "blank" | "failed"; items: MemoryItem[]; error?: unknown };

function requireConfig({ trigger, keepRecent }: SummaryConfig): void {
  if (!Number.isInteger(keepRecent) || keepRecent < 1) {
    throw new RangeError(`keepRecent needs a positive integer, got ${keepRecent}`);
  }
  if (!Number.isInteger(trigger) || trigger <= keepRecent) {
    throw new RangeError(`trigger needs an integer above keepRecent (${keepRecent}), got ${trigger}`);
  }
}

const isSummary = (item: MemoryItem) => item.summary === true;
const historyCount = (items: readonly MemoryItem[]) => items.filter((item) => !isPinned(item)).length;

/**
 * How far past the trigger memory may grow while a summary is being made. The summarizer runs after the answer,
 * off the turn's path, so the next turns may commit before it is done; with this slack they do not push messages
 * out of memory that were never summarized. Only a summarizer failing turn after turn reaches the cap.
 */
export const SUMMARY_SLACK_FACTOR = 2;

/**
 * The snapshot policy while summaries are on: a message window of `trigger × SUMMARY_SLACK_FACTOR`, summaries
 * pinned. Summarizing (from `trigger` messages on) brings memory back to `keepRecent`.
 */
export function summaryPolicy(config: SummaryConfig): MemoryPolicy {
  requireConfig(config);
  const window = messageWindow(config.trigger * SUMMARY_SLACK_FACTOR);
  return { id: `summary:${config.keepRecent}/${config.trigger}`, apply: window.apply };
}

/** Whether memory has reached the trigger (history messages, pinned items not counted). */
export function needsSummary(items: readonly MemoryItem[], config: SummaryConfig): boolean {
  requireConfig(config);
  return historyCount(items) >= config.trigger;
}

/**
 * Which items to fold: the history items that the `keepRecent` window drops (orphan tool outputs included,
 * since the summarizer reads text) plus the previous summaries. `null` when the trigger is not reached or
 * nothing would leave.
 */
export function planSummary(items: readonly MemoryItem[], config: SummaryConfig): SummaryPlan | null {
  if (!needsSummary(items, config)) return null;
  const kept = suffixIndices(items, withinMessages(config.keepRecent));
  const fold = items.filter((item, index) => !isPinned(item) && !kept.has(index)).map(cloneItem);
  if (fold.length === 0) return null;

  const previous = items.filter(isSummary).map(cloneItem);
  const seqs = fold.flatMap((item) => (item.seq === undefined ? [] : [item.seq]));
  const metas = previous.flatMap((item) => (item.summaryMeta ? [item.summaryMeta] : []));
  const fromCandidates = [...seqs, ...metas.map((meta) => meta.fromSeq)];
  const throughCandidates = [...seqs, ...metas.map((meta) => meta.throughSeq)];
  return {
    previous,
    fold,
    fromSeq: fromCandidates.length > 0 ? Math.min(...fromCandidates) : 0,
    throughSeq: throughCandidates.length > 0 ? Math.max(...throughCandidates) : 0,
    messages: fold.length + metas.reduce((total, meta) => total + meta.messages, 0),
    version: metas.reduce((top, meta) => Math.max(top, meta.version), 0) + 1,
  };
}

/** The text handed to the summarizer as the previous summary: several previous summaries are joined. */
function previousSummaryText(plan: SummaryPlan): string | undefined {
  if (plan.previous.length === 0) return undefined;
  return plan.previous.map((item) => item.text).join("\n\n");
}

/**
 * Replaces the folded items and previous summaries with one summary item carrying its provenance; every other
 * item keeps its place, the summary takes the place of the first item it replaces. Items are matched by
 * content, so this also works on a snapshot that gained newer turns since the plan was made. A blank `text`
 * changes nothing: the originals stay (`null`).
 */
export function applySummary({
  items,
  plan,
  text,
  model,
  createdAt,
}: {
  items: readonly MemoryItem[];
  plan: SummaryPlan;
  text: string;
  model: string;
  createdAt: Date;
}): MemoryItem[] | null {
  const body = text.trim();
  if (body === "") return null;
  const meta: SummaryMeta = {
    fromSeq: plan.fromSeq,
    throughSeq: plan.throughSeq,
    messages: plan.messages,
    version: plan.version,
    model,
    createdAt: createdAt.toISOString(),
  };
  const summary: MemoryItem = { role: "system", text: body, summary: true, summaryMeta: meta };
  const replaced = new Set([...plan.previous, ...plan.fold].map((item) => JSON.stringify(cloneItem(item))));
  const out: MemoryItem[] = [];
  let placed = false;
  for (const item of items) {
    const key = JSON.stringify(cloneItem(item));
    if (replaced.has(key)) {
      replaced.delete(key);
      if (!placed) {
        out.push(summary);
        placed = true;
      }
      continue;
    }
    out.push(cloneItem(item));
  }
  if (!placed) out.unshift(summary);
  return out;
}

/**
 * The whole step, run after a turn is committed: plan, call the injected summarizer, apply. A summarizer
 * error or a blank answer keeps the originals and says so, so the caller can record it.
 */
export async function summarize({
  items,
  config,
  summarizer,
  model,
  now,
  signal,
}: {
  items: readonly MemoryItem[];
  config: SummaryConfig;
  summarizer: Summarizer;
  model: string;
  now: () => Date;
  signal?: AbortSignal;
}): Promise<SummaryOutcome> {
  const originals = items.map(cloneItem);
  const plan = planSummary(items, config);
  if (!plan) return { status: "skipped", items: originals };
  let text: string;
  try {
    const previous = previousSummaryText(plan);
    text = await summarizer(
      previous === undefined ? { messages: plan.fold } : { previous, messages: plan.fold },
      signal,
    );
  } catch (error) {
    return { status: "failed", items: originals, error };
  }
  const applied = applySummary({
    items,
    plan,
    text: typeof text === "string" ? text : "",
    model,
    createdAt: now(),
  });
  if (!applied) return { status: "blank", items: originals };
  const summary = applied.find(isSummary) as MemoryItem;
  return { status: "summarized", items: applied, summary };
}
