import "server-only";
import {
  getAnswerForUser,
  listStopRequests,
  requestAnswerStop,
  type StoredAnswer,
} from "@/lib/db/live-answers";
import { type LiveListener, type LiveNotice, liveListener } from "@/lib/db/live-channel";
import { AppError } from "@/lib/errors";
import { eventStream } from "./event-stream";
import { type LivePublisher, livePublisher } from "./live-fanout";
import type { TurnEvent } from "./sse";

// Answers that keep going (docs/decisions/033-live-answers.md): a web turn runs detached from the request that
// started it. Its events go to an in-process log that any number of streams follow — the request that started it,
// a reload, another tab — and a stream that goes away only stops following. Only Stop (or the end) ends an answer.

interface LiveAnswer {
  messageId: string | null;
  sessionId: string;
  userId: string;
  stop: AbortController;
  /** Every event so far, consecutive deltas merged: a follower that arrives late replays it. */
  log: TurnEvent[];
  followers: Set<(event: TurnEvent | null) => void>;
  ended: boolean;
  startedAt: Date;
  /** Announces the text to followers on other instances (PostgreSQL); null on SQLite or after a tool step. */
  publisher: LivePublisher | null;
  /** Length of the text announced so far: the offset of the next delta. */
  announced: number;
}

/** How often a follower of an answer written by another instance reads the stored draft. */
const LIVE_POLL_MS = 250;
/** …while the live channel brings the text: the stored row is read only for its end or a lost lease. */
const LISTENING_POLL_MS = 1000;

const KEY = Symbol.for("recall.liveAnswers");
type Registry = Map<string, LiveAnswer>;
const shared = globalThis as Record<symbol, Registry | undefined>;
// One registry per process, whichever route's bundle loads this module first.
const registry: Registry = shared[KEY] ?? new Map();
shared[KEY] = registry;

/** How often this process reads the stop requests made elsewhere for the answers it runs. */
const STOP_POLL_MS = 500;
let stopPoll: ReturnType<typeof setInterval> | null = null;
let polling = false;

async function readStopRequests() {
  if (polling || registry.size === 0) return;
  polling = true;
  try {
    for (const { id, stopRequestedAt } of await listStopRequests({ ids: [...registry.keys()] })) {
      const live = registry.get(id);
      // A request older than this run was for an earlier run of the same answer (a retry reopens it).
      if (live && stopRequestedAt >= live.startedAt) live.stop.abort();
    }
  } catch (e) {
    console.warn(`[chat] reading stop requests failed, retrying: ${String(e)}`);
  } finally {
    polling = false;
  }
}

function watchStops() {
  if (registry.size > 0 && !stopPoll) {
    stopPoll = setInterval(() => void readStopRequests(), STOP_POLL_MS);
    stopPoll.unref();
  } else if (registry.size === 0 && stopPoll) {
    clearInterval(stopPoll);
    stopPoll = null;
  }
}

function record(live: LiveAnswer, event: TurnEvent) {
  const last = live.log.at(-1);
  // The log's deltas are its own copies, so the merge appends in place (no new object a token).
  if (event.type === "delta" && last?.type === "delta") last.text += event.text;
  else live.log.push(event.type === "delta" ? { ...event } : event);
  for (const follow of live.followers) follow(event);
}

async function pump(live: LiveAnswer, events: AsyncIterable<TurnEvent>) {
  try {
    for await (const event of events) {
      if (event.type === "meta") {
        live.messageId = event.assistantMessage.id;
        registry.set(live.messageId, live);
        watchStops();
        live.publisher = livePublisher(live.messageId);
      } else if (event.type === "delta") {
        live.publisher?.push(live.announced, event.text);
        live.announced += event.text.length;
      } else if (event.type === "tool_call" && live.publisher) {
        // After a tool step the stored draft starts again: followers elsewhere go back to reading it.
        live.publisher.end();
        live.publisher = null;
      }
      record(live, event);
    }
  } catch (e) {
    console.error(`[chat] a detached answer in session ${live.sessionId} failed: ${String(e)}`);
    record(live, { type: "error", code: "internal_error", message: "The answer could not be finished." });
  } finally {
    live.ended = true;
    live.publisher?.end();
    if (live.messageId && registry.get(live.messageId) === live) registry.delete(live.messageId);
    watchStops();
    for (const follow of live.followers) follow(null);
    live.followers.clear();
  }
}

/** A stream of `live` from its first event: the log so far, then the rest as it comes, until the end. */
function follow(live: LiveAnswer): ReadableStream<Uint8Array> {
  return eventStream(async (send, clientGone) => {
    for (const event of live.log) send(event);
    if (live.ended) return;
    await new Promise<void>((resolve) => {
      const listener = (event: TurnEvent | null) => {
        if (event) send(event);
        else done();
      };
      const done = () => {
        live.followers.delete(listener);
        resolve();
      };
      live.followers.add(listener);
      clientGone.addEventListener("abort", done, { once: true });
    });
  });
}

/**
 * Starts a turn detached from the request: `open` begins it (its errors are thrown before anything runs, so the
 * route can answer them with a status) and gets the signal only Stop fires. `signal` is a stop from the caller
 * (tests, in-process users); the returned stream only follows — cancelling it changes nothing.
 */
export async function startLiveTurn(
  { sessionId, userId, signal }: { sessionId: string; userId: string; signal?: AbortSignal },
  open: (signal: AbortSignal) => Promise<AsyncIterable<TurnEvent>>,
): Promise<ReadableStream<Uint8Array>> {
  const stop = new AbortController();
  const startedAt = new Date();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const events = await open(stop.signal);
  const live: LiveAnswer = {
    messageId: null,
    sessionId,
    userId,
    stop,
    log: [],
    followers: new Set(),
    ended: false,
    startedAt,
    publisher: null,
    announced: 0,
  };
  const stream = follow(live);
  void pump(live, events);
  return stream;
}

const notFound = () => new AppError("not_found", "This answer does not exist or is not yours.");

function localAnswer(sessionId: string, messageId: string, userId: string): LiveAnswer | null {
  const live = registry.get(messageId);
  return live && !live.ended && live.sessionId === sessionId && live.userId === userId ? live : null;
}

export interface StopResult {
  id: string;
  /** The answer was being written and has been told to stop (false: it had already ended; nothing changed). */
  stopping: boolean;
  status: StoredAnswer["status"];
}

/**
 * Stops an answer of the user's, wherever it runs: here by its signal, on another instance through the stored
 * stop request its heartbeat reads. Idempotent: an answer that has already ended is left as it is (200).
 */
export async function stopAnswer(args: {
  sessionId: string;
  messageId: string;
  userId: string;
}): Promise<StopResult> {
  const live = localAnswer(args.sessionId, args.messageId, args.userId);
  const stored = await getAnswerForUser(args);
  if (!stored) throw notFound();
  if (live) {
    live.stop.abort();
    return { id: stored.id, stopping: true, status: "streaming" };
  }
  const running = stored.status === "streaming" && stored.leaseHeld && (await requestAnswerStop(args));
  return { id: stored.id, stopping: running, status: running ? "streaming" : settledStatus(stored) };
}

const settledStatus = (a: StoredAnswer): StoredAnswer["status"] =>
  a.status === "streaming" ? "interrupted" : a.status;

function endOf(a: StoredAnswer): TurnEvent {
  const status = settledStatus(a);
  if (status === "failed")
    return { type: "error", code: "model_error", message: "The model did not finish this answer." };
  return {
    type: "done",
    status: status === "complete" ? "complete" : "interrupted",
    promptTokens: a.promptTokens ?? 0,
    completionTokens: a.completionTokens ?? 0,
    // The model's name is on the page the follower already has; the id says the tokens are the row's.
    ...(a.model ? { model: a.model } : {}),
  };
}

/**
 * Resumes an answer as the chat stream's events: running here, its events so far and then the rest live; written
 * by another instance, the text stored so far and its growth, read every LIVE_POLL_MS; already ended, its stored
 * text and its end at once. Throws not_found (404) for an answer that is not the user's.
 */
export async function resumeAnswer(args: {
  sessionId: string;
  messageId: string;
  userId: string;
}): Promise<ReadableStream<Uint8Array>> {
  const live = localAnswer(args.sessionId, args.messageId, args.userId);
  if (live) return follow(live);
  return followStored(args, await storedAnswer(args));
}

type AnswerArgs = { sessionId: string; messageId: string; userId: string };

/**
 * The stored answer of the user's; not_found (404) otherwise.
 * @public (the live tests play another instance with it)
 */
export async function storedAnswer(args: AnswerArgs): Promise<StoredAnswer> {
  const stored = await getAnswerForUser(args);
  if (!stored) throw notFound();
  return stored;
}

/**
 * Follows an answer written by another instance from `first`, what was stored of it: its text then comes from the
 * live channel (PostgreSQL), each piece placed at its offset, or from the stored draft read every LIVE_POLL_MS
 * (SQLite, no LISTEN, a piece missed); the stored row says when it ends.
 * @public (the live tests follow as another instance would, with their own listener)
 */
export function followStored(
  args: AnswerArgs,
  first: StoredAnswer,
  listener: LiveListener | null = liveListener(),
): ReadableStream<Uint8Array> {
  return eventStream(async (send, clientGone) => {
    let sent = "";
    let pieces: { o: number; t: string }[] = [];
    let announcing = true;
    let wake = () => {};
    const advance = () => {
      for (let piece = pieces.find((p) => p.o <= sent.length && p.o + p.t.length > sent.length); piece; ) {
        const text = piece.t.slice(sent.length - piece.o);
        send({ type: "delta", text });
        sent += text;
        piece = pieces.find((p) => p.o <= sent.length && p.o + p.t.length > sent.length);
      }
      pieces = pieces.filter((p) => p.o + p.t.length > sent.length);
    };
    const unsubscribe = listener?.subscribe(args.messageId, (notice: LiveNotice) => {
      if ("end" in notice) {
        announcing = false;
        wake();
      } else {
        pieces.push(notice);
        advance();
      }
    });
    clientGone.addEventListener("abort", () => wake(), { once: true });
    try {
      let current: StoredAnswer | null = first;
      while (current) {
        if (current.text.startsWith(sent) && current.text.length > sent.length) {
          send({ type: "delta", text: current.text.slice(sent.length) });
          sent = current.text;
        }
        advance();
        if (current.status !== "streaming" || !current.leaseHeld) {
          send(endOf(current));
          return;
        }
        // Pieces waiting for text before them (this stream began after they were sent): the draft fills the gap.
        const ms =
          listener?.listening && announcing && pieces.length === 0 ? LISTENING_POLL_MS : LIVE_POLL_MS;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (clientGone.aborted) return;
        // Finished here meanwhile (a turn begun after this stream) or elsewhere: the stored row says.
        current = await getAnswerForUser(args).catch(() => current);
      }
      send({ type: "error", code: "not_found", message: "This conversation was deleted while answering." });
    } finally {
      unsubscribe?.();
    }
  });
}
