// One turn from the browser: POST /api/sessions/:id/messages and its text/event-stream answer, read into the
// server's TurnEvents (lib/chat/sse.ts holds the wire format and its reader, pure, shared with the server's tests).
import { readTurnEvents, type TurnEvent } from "@/lib/chat/sse";
import { isAbort, RequestError, request } from "./api";

export type { TurnEvent };

/**
 * What POST /api/sessions/:id/messages is asked: a question (after `parentId` when given: null makes it a new first
 * question — an edit of the first one), a new answer to the question of `regenerate`, or a retry of a failed answer.
 */
export type TurnBody =
  | { content: string; parentId?: string | null; attachments?: string[] }
  | { regenerate: string; model?: string }
  | { retryMessageId: string };

/**
 * How a turn ended, seen from before the server's `meta` event (which says the message is stored):
 * - accepted: `meta` arrived; `ending` says whether the stream then reached its last event (`finished`), broke
 *   (`lost`) or was stopped by the user (`stopped`).
 * - rejected: the server answered with an error before storing anything (validation, conflict, storage).
 * - unreachable: no answer at all — the message was not sent.
 * - stopped: the user pressed Stop before the server answered; the server may or may not hold the message.
 */
export type TurnResult =
  | { kind: "accepted"; ending: "finished" | "lost" | "stopped" }
  | { kind: "rejected"; error: RequestError }
  | { kind: "unreachable"; error: RequestError }
  | { kind: "stopped" };

/**
 * Streams one turn, handing every event to `onEvent` as it arrives, and says how it ended. `notSent` is the
 * message of the RequestError when no answer came.
 */
export async function streamTurn({
  sessionId,
  body,
  signal,
  onEvent,
  notSent,
  lost,
}: {
  sessionId: string;
  body: TurnBody;
  signal: AbortSignal;
  onEvent: (event: TurnEvent) => void;
  notSent: string;
  /** The message when the server answered without a body. */
  lost: string;
}): Promise<TurnResult> {
  let accepted = false;
  let finished = false;
  try {
    const res = await request(
      `/api/sessions/${sessionId}/messages`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal },
      notSent,
    );
    if (!res.body) throw new RequestError(lost, res.status);
    for await (const event of readTurnEvents(res.body)) {
      if (event.type === "meta") accepted = true;
      if (event.type === "done" || event.type === "error") finished = true;
      onEvent(event);
    }
    if (!accepted) return { kind: "unreachable", error: new RequestError(notSent, 0) };
    // The stream ended without its last event: the connection broke, the answer is not known to be whole.
    return { kind: "accepted", ending: finished ? "finished" : "lost" };
  } catch (e) {
    if (accepted) return { kind: "accepted", ending: signal.aborted ? "stopped" : "lost" };
    if (isAbort(e) || signal.aborted) return { kind: "stopped" };
    if (e instanceof RequestError && e.status > 0) return { kind: "rejected", error: e };
    return { kind: "unreachable", error: new RequestError(notSent, 0) };
  }
}

/**
 * Follows an answer written elsewhere (GET …/messages/:messageId/stream): its events from the start, then the rest
 * live. Says whether its last event arrived (`finished`), the stream broke (`lost`) or `signal` stopped following.
 */
export async function followAnswer({
  sessionId,
  messageId,
  signal,
  onEvent,
}: {
  sessionId: string;
  messageId: string;
  signal: AbortSignal;
  onEvent: (event: TurnEvent) => void;
}): Promise<"finished" | "lost" | "stopped"> {
  let finished = false;
  try {
    const res = await request(
      `/api/sessions/${encodeURIComponent(sessionId)}/messages/${encodeURIComponent(messageId)}/stream`,
      { signal },
    );
    if (!res.body) return "lost";
    for await (const event of readTurnEvents(res.body)) {
      if (event.type === "done" || event.type === "error") finished = true;
      onEvent(event);
    }
  } catch {
    if (signal.aborted) return "stopped";
  }
  return finished ? "finished" : "lost";
}
