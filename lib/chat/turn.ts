import "server-only";
import { beginTurn, type TurnOverrides, type TurnPlan } from "./begin-turn";
import { commitTurn } from "./commit-turn";
import { startLiveTurn } from "./live";
import { runTurn } from "./run-turn";
import type { TurnInput } from "./schemas";
import type { TurnEvent } from "./sse";
import { leaseLost, startHeartbeat } from "./stream-answer";
import { turnRequest } from "./turn-request";

export type { TurnOverrides } from "./begin-turn";

/**
 * One chat turn, in three phases (docs/decisions/020-turn-phases-and-data-layer.md):
 *
 * 1. `beginTurn` — one transaction before the first event: take the session's lease, append the question (or
 *    reopen the answer being retried), load memory, build and record the context. Its errors (404, 409, 422) are
 *    thrown here, so a transport can still answer them with an HTTP status.
 * 2. `runTurn` — the model and the tool loop, as events: meta, (delta | tool_call | tool_result)*. A heartbeat
 *    renews the lease and saves the draft the loop writes, once a second, until the commit is done.
 * 3. `commitTurn` — the answer and the snapshot it leaves, fenced by the lease; its result is the last event,
 *    `done` (with the token counts) or `error`.
 *
 * The events are data; transports encode them (SSE below for the web chat, OpenAI chunks in lib/api). The
 * returned events must be read to the end: that is what commits the turn. `signal` stops the model early (the
 * answer is then committed as interrupted with the text so far).
 */
export async function openTurn({
  sessionId,
  userId,
  input,
  signal,
  overrides,
}: {
  sessionId: string;
  userId: string;
  input: TurnInput;
  signal?: AbortSignal;
  overrides?: TurnOverrides;
}): Promise<AsyncIterable<TurnEvent>> {
  const plan = await beginTurn({ sessionId, userId, request: turnRequest(input), overrides });
  return turnEvents(plan, signal);
}

async function* turnEvents(plan: TurnPlan, signal: AbortSignal | undefined): AsyncGenerator<TurnEvent> {
  const stop = new AbortController();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const run = runTurn(plan, stop.signal);
  const heartbeat = startHeartbeat({
    lease: plan.lease,
    answerId: plan.answer.id,
    leaseSeconds: plan.leaseSeconds,
    draft: run.draft,
    onLeaseLost: () => stop.abort(leaseLost()),
  });
  try {
    yield* run;
    const outcome = run.outcome;
    if (!outcome) throw new Error("The turn's events ended without an outcome.");
    if (outcome.leaseLost) stop.abort(leaseLost());
    // A reply that arrived in one read would otherwise be followed by the commit in the same run of microtasks, and
    // its text would reach the client only after the commit's statements. Only then: the yield splits the text and
    // `done` into two writes.
    if (run.textUnwritten) await new Promise((resolve) => setImmediate(resolve));
    yield await commitTurn(plan, outcome);
  } finally {
    heartbeat.stop();
  }
}

/**
 * The web chat's transport: a turn as a text/event-stream body (decision 005). The turn runs detached from the
 * request (decision 033): a client that goes away only stops following it; `signal` (or the stop route) stops it.
 */
export async function startTurn(args: {
  sessionId: string;
  userId: string;
  input: TurnInput;
  signal?: AbortSignal;
  overrides?: TurnOverrides;
}): Promise<ReadableStream<Uint8Array>> {
  return startLiveTurn(args, (signal) => openTurn({ ...args, signal }));
}
