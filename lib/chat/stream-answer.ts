import "server-only";
import { leaseKey, renewLeases, saveAnswerDrafts } from "@/lib/db/heartbeats";
import type { Lease, TurnOutcome } from "@/lib/db/leases";
import { AppError } from "@/lib/errors";
import { isAbortError, type Model, streamReply, type ToolSpec } from "@/lib/llm";
import type { MemoryItem, ToolCall } from "@/lib/memory";
import { Heartbeats } from "./heartbeats";

/** How often a streaming turn renews its lease and saves the answer's text so far. */
const HEARTBEAT_MS = 1000;

export interface AnswerResult {
  outcome: TurnOutcome;
  /** Why the answer is `failed`, or why it was stopped by something other than the user. */
  failure?: AppError;
  /** The model asked for these tools (the outcome's text is then what it wrote before asking). */
  toolCalls?: ToolCall[];
}

/** The text of an answer being written, read by the heartbeat that saves it (the loop that writes it owns it). */
export interface AnswerDraft {
  readonly text: string;
}

/** The reason a turn is stopped when its lease turns out to be someone else's. */
export const leaseLost = () =>
  new AppError("turn_in_progress", "Another turn took over this conversation, so this answer was stopped.");

/** Every answer streaming in this process, kept alive together (one timer, two statements a beat). */
const heartbeats = new Heartbeats(
  {
    renewLeases: (leases, leaseSeconds) => renewLeases({ leases, leaseSeconds }),
    saveAnswerDrafts: (drafts) => saveAnswerDrafts({ drafts }),
    keyOf: leaseKey,
  },
  HEARTBEAT_MS,
);

/**
 * Keeps a turn alive while its answer streams and commits: renews the lease and saves the draft once a second, so
 * after a crash the conversation heals as soon as the lease runs out and the user finds what they saw. A lease
 * found taken over calls `onLeaseLost`. Storage hiccups are logged and tried again on the next beat. The beats of
 * all the process's answers are batched (lib/chat/heartbeats.ts).
 */
export function startHeartbeat({
  lease,
  answerId,
  leaseSeconds,
  draft,
  onLeaseLost,
}: {
  lease: Lease;
  answerId: string;
  leaseSeconds: number;
  draft: AnswerDraft;
  onLeaseLost: () => void;
}) {
  return heartbeats.add({ lease, answerId, leaseSeconds, draft, onLeaseLost });
}

/**
 * Streams the model's answer to `items`, yielding each delta, and returns how it ended: `complete` only when the
 * model finished properly; `interrupted` when `signal` stopped it (with a failure when the reason was a lost lease
 * rather than the user); `failed` with the reason on a model error or timeout. The text streamed so far is kept
 * in every case.
 */
export async function* streamAnswer({
  items,
  model,
  signal,
  tools,
  toolChoice,
  prepare,
}: {
  items: readonly MemoryItem[];
  /** Turns the items into what is sent, just before the call (attachment references → their data). */
  prepare?: (items: readonly MemoryItem[]) => Promise<MemoryItem[]>;
  model: Model;
  tools?: readonly ToolSpec[];
  /** "none": the model must answer in text (the turn's tool steps are used up). */
  toolChoice?: "auto" | "none";
  signal: AbortSignal;
}): AsyncGenerator<string, AnswerResult> {
  let text = "";
  try {
    const sent = prepare ? await prepare(items) : items;
    for await (const event of streamReply({ items: sent, model, signal, tools, toolChoice })) {
      if (event.type === "delta") {
        text += event.text;
        yield event.text;
      } else {
        const outcome = { status: "complete" as const, text: event.text, ...event.usage };
        return event.toolCalls ? { outcome, toolCalls: event.toolCalls } : { outcome };
      }
    }
    throw new AppError("model_error", "The model stream ended before the reply was complete.");
  } catch (e) {
    if (signal.aborted || isAbortError(e)) {
      const reason: unknown = signal.reason;
      return reason instanceof AppError
        ? { outcome: { status: "interrupted", text }, failure: reason }
        : { outcome: { status: "interrupted", text } };
    }
    const failure =
      e instanceof AppError ? e : new AppError("model_error", "The model did not answer.", { cause: e });
    console.error(`[chat] answer failed: ${failure.code}: ${failure.message} (${errorText(failure.cause)})`);
    return { outcome: { status: "failed", text }, failure };
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e ?? "");
}
