import { chunkReply } from "@/lib/llm/wire";
import type { Client } from "./http";
import type { SeedSession } from "./seed";
import type { LoopDelay, RunningServer } from "./server";
import { type Summary, summarize } from "./stats";

// W6 — many open streams: N conversations at once, each streaming an answer from an offline model that
// waits between tokens. Measured at the client: did every answer complete, and what did each turn cost beyond the
// model's own time; inside the server (scripts/bench/probe.cjs): the event loop's worst delay; from /proc: RSS.

export interface W6Options {
  /** The server's OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS and OFFLINE_MODEL_TOKEN_DELAY_MS. */
  firstTokenDelayMs: number;
  tokenDelayMs: number;
  /** A stream that has not ended after this long counts as failed (and is abandoned). */
  timeoutMs: number;
}

/** What W6 and W9 measure alike about a block of streamed answers. */
interface StreamsResult {
  completed: number;
  failed: number;
  /** Up to five distinct failure messages, with how often each occurred. */
  errors: { message: string; count: number }[];
  /** The block's start → its last answer ended. */
  wallMs: number;
  /** Model tokens (the offline model's chunks) per completed answer, rebuilt from the streamed text. */
  tokens: Summary;
  /** Request → first text byte − the model's first-token delay: the turn's start (auth, lease, memory, context). */
  startOverheadMs: Summary;
  /** First text byte → end of stream − the model's time between its first and last token: carrying the stream
   * while the others stream too, plus the commit. */
  streamOverheadMs: Summary;
  /** Most answers streaming at the same moment (from the client's start and end times). */
  peakOpen: number;
  loop: LoopDelay[];
  rssKiB: { before: number | null; max: number | null; after: number | null };
  serverCpuMs: number | null;
}

export interface W6Result extends StreamsResult {
  n: number;
  /** The model's own time per answer: first-token delay + (tokens − 1) × token delay. */
  modelMs: Summary;
  /** Request → end of stream. */
  totalMs: Summary;
  /** Request → first text byte. */
  firstDeltaMs: Summary;
  /** Turn wall time − the model's own time. */
  overheadMs: Summary;
  /** Tokens per second of a whole answer (tokens / turn wall time), median. */
  tokensPerSecond: number;
  /** Heartbeat statements: the process's one heartbeat renews every open lease in one statement and saves the
   * changed drafts in another, once a second (lib/chat/heartbeats.ts) — at most 2 per second of the block. */
  heartbeatStatementsMax: number;
}

/**
 * A W6 question: the offline model's generic reply quotes the first 80 characters of the question, one token per
 * word, so one-letter words make a reply of ~50 tokens — 1.25 s at 40 tokens/s, 2 s with the first token after
 * 775 ms (sizes.w6FirstTokenDelayMs).
 */
export function w6Content(i: number): string {
  return `${i} ${"a b c d e f g h i j k l m n o p q r s t u v w x y z ".repeat(3)}`.trim();
}

/** The answer's text, rebuilt from the `delta` events of a turn's event stream. */
export function answerText(body: string): string {
  let text = "";
  for (const m of body.matchAll(/^event: delta\ndata: (.*)$/gm)) {
    text += (JSON.parse(m[1] ?? "{}") as { text?: string }).text ?? "";
  }
  return text;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no end of stream after ${ms / 1000} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });

/** A completed answer: request → first text byte, request → end of stream, model tokens. */
interface Answer {
  first: number;
  total: number;
  tokens: number;
}

/** The model's time between its first and last token of an answer. */
const streamingMs = (tokens: number, options: W6Options) => Math.max(0, tokens - 1) * options.tokenDelayMs;

/**
 * Starts watching a block of streamed answers: the server's event loop (from here on), RSS (sampled every 100 ms)
 * and CPU, the wall clock, each answer's span and each failure; `stop` ends the watch and gives the shared figures.
 */
async function watchStreams(server: RunningServer, options: W6Options) {
  await server.probe.mark();
  const rss = { before: server.rssKiB(), max: server.rssKiB(), after: null as number | null };
  const sampler = setInterval(() => {
    const now = server.rssKiB();
    if (now !== null) rss.max = Math.max(rss.max ?? 0, now);
  }, 100);
  const cpu0 = server.cpuMs();
  const started = performance.now();
  const spans: { start: number; end: number }[] = [];
  const errors = new Map<string, number>();
  return {
    started,
    failed(error: unknown) {
      const message = (error instanceof Error ? error.message : String(error))
        .replace(/[0-9a-f]{8,}|\d+/gi, "#")
        .slice(0, 200);
      errors.set(message, (errors.get(message) ?? 0) + 1);
    },
    /** An answer started at `start` has ended, completed or not. */
    ended(start: number) {
      spans.push({ start, end: performance.now() });
    },
    async stop(sent: number, done: Answer[]): Promise<StreamsResult> {
      const wallMs = performance.now() - started;
      const cpu1 = server.cpuMs();
      clearInterval(sampler);
      rss.after = server.rssKiB();
      const loop = await server.probe.mark();
      return {
        completed: done.length,
        failed: sent - done.length,
        errors: [...errors]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([message, count]) => ({ message, count })),
        wallMs,
        tokens: summarize(done.map((d) => d.tokens)),
        startOverheadMs: summarize(done.map((d) => d.first - options.firstTokenDelayMs)),
        streamOverheadMs: summarize(done.map((d) => d.total - d.first - streamingMs(d.tokens, options))),
        peakOpen: peakOf(spans),
        loop,
        rssKiB: rss,
        serverCpuMs: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null,
      };
    },
  };
}

export async function runW6(
  client: Client,
  sessions: SeedSession[],
  server: RunningServer,
  options: W6Options,
): Promise<W6Result> {
  const watch = await watchStreams(server, options);
  const done: (Answer & { model: number })[] = [];
  await Promise.all(
    sessions.map(async (session, i) => {
      const start = performance.now();
      try {
        const t = await withTimeout(client.turn(session.id, w6Content(i)), options.timeoutMs);
        const tokens = chunkReply(answerText(t.body)).length;
        const model = options.firstTokenDelayMs + streamingMs(tokens, options);
        done.push({ total: t.totalMs, first: t.firstDeltaMs, tokens, model });
      } catch (error) {
        watch.failed(error);
      }
      watch.ended(start);
    }),
  );
  const shared = await watch.stop(sessions.length, done);
  const tps = done.map((d) => (d.tokens / d.total) * 1000);
  return {
    n: sessions.length,
    ...shared,
    modelMs: summarize(done.map((d) => d.model)),
    totalMs: summarize(done.map((d) => d.total)),
    firstDeltaMs: summarize(done.map((d) => d.first)),
    overheadMs: summarize(done.map((d) => d.total - d.model)),
    tokensPerSecond: summarize(tps).median,
    heartbeatStatementsMax: 2 * Math.ceil(shared.wallMs / 1000),
  };
}

/** Warms a W6 server (JIT, first compiles) with `turns` turns, as many at once as there are sessions. */
export async function warmW6(client: Client, sessions: SeedSession[], turns: number): Promise<void> {
  for (let done = 0; done < turns; done += sessions.length) {
    await Promise.all(sessions.map((s, i) => client.turn(s.id, w6Content(done + i))));
  }
}

/** The worst delay over the server's node processes (there is normally one). */
export function worstLoop(loop: LoopDelay[]): { maxMs: number; p99Ms: number } {
  return {
    maxMs: Math.max(...loop.map((l) => l.maxMs), 0),
    p99Ms: Math.max(...loop.map((l) => l.p99Ms), 0),
  };
}

// W9 — steady traffic: turns arrive open-loop (Poisson, seeded: plan.ts) for a while, each asking for a long
// answer ("count to N": N tokens at the model's rate, ~20 s), so about rate × answer length streams are open at
// once. Measured like W6 (start, event loop, RSS, server CPU), plus the delay of every delta behind the model's
// schedule.

export interface W9Options extends W6Options {
  answerTokens: number;
}

export interface W9Result extends StreamsResult {
  rate: number;
  durationMs: number;
  arrivals: number;
  /** How late the client sent each turn behind its planned arrival (the client's own lag). */
  sendLagMs: Summary;
  /** Tokens received over all answers of the block, those that failed included (what the server's CPU carried). */
  tokensStreamed: number;
  /** Each delta event after the first: arrival − when the model made its first token (first delta + k × delay). */
  deltaDelayMs: Summary;
}

/** Follows one W9 answer's event stream: its tokens so far and how late each delta came behind the schedule. */
function deltaClock(tokenDelayMs: number, delays: number[]) {
  let buffer = "";
  let tokens = 0;
  let firstAt = Number.NaN;
  return {
    get tokens() {
      return tokens;
    },
    get firstAt() {
      return firstAt;
    },
    onChunk(chunk: string, now: number) {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.startsWith("event: delta\n")) continue;
        const text = (JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { text?: string }).text ?? "";
        if (tokens === 0) firstAt = now;
        else delays.push(now - (firstAt + tokens * tokenDelayMs));
        tokens += chunkReply(text).length;
      }
    },
  };
}

export async function runW9(
  client: Client,
  block: { rate: number; arrivals: { atMs: number; session: SeedSession }[] },
  durationMs: number,
  server: RunningServer,
  options: W9Options,
): Promise<W9Result> {
  const watch = await watchStreams(server, options);
  const { started } = watch;
  const delays: number[] = [];
  const lags: number[] = [];
  const done: Answer[] = [];
  const content = `Count to ${options.answerTokens}`;
  let tokensStreamed = 0;
  const one = async (session: SeedSession, atMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - (performance.now() - started))));
    const start = performance.now();
    lags.push(start - started - atMs);
    const clock = deltaClock(options.tokenDelayMs, delays);
    try {
      const t = await withTimeout(
        client.watchedTurn(session.id, content, (chunk, now) => clock.onChunk(chunk, now)),
        options.timeoutMs,
      );
      done.push({ first: clock.firstAt - start, total: t.totalMs, tokens: clock.tokens });
    } catch (error) {
      watch.failed(error);
    }
    tokensStreamed += clock.tokens;
    watch.ended(start);
  };
  await Promise.all(block.arrivals.map((a) => one(a.session, a.atMs)));
  return {
    rate: block.rate,
    durationMs,
    arrivals: block.arrivals.length,
    ...(await watch.stop(block.arrivals.length, done)),
    sendLagMs: summarize(lags),
    tokensStreamed,
    deltaDelayMs: summarize(delays),
  };
}

/** Most spans open at the same moment: a sweep over starts (+1) and ends (−1). */
function peakOf(spans: { start: number; end: number }[]): number {
  const edges = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]) as [number, number][];
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, d] of edges) {
    open += d;
    peak = Math.max(peak, open);
  }
  return peak;
}
