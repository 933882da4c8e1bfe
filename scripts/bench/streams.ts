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

export interface W6Result {
  n: number;
  completed: number;
  failed: number;
  /** Up to five distinct failure messages, with how often each occurred. */
  errors: { message: string; count: number }[];
  wallMs: number;
  /** Model tokens (the offline model's chunks) per answer, rebuilt from the streamed text. */
  tokens: Summary;
  /** The model's own time per answer: first-token delay + (tokens − 1) × token delay. */
  modelMs: Summary;
  /** Request → end of stream. */
  totalMs: Summary;
  /** Request → first text byte. */
  firstDeltaMs: Summary;
  /** Turn wall time − the model's own time. */
  overheadMs: Summary;
  /** Request → first text byte − the model's first-token delay: the turn's start (auth, lease, memory, context). */
  startOverheadMs: Summary;
  /** First text byte → end of stream − the model's time between its first and last token: carrying the stream
   * while the others stream too, plus the commit. */
  streamOverheadMs: Summary;
  /** Tokens per second of a whole answer (tokens / turn wall time), median. */
  tokensPerSecond: number;
  /** Most answers streaming at the same moment (from the client's start and end times). */
  peakOpen: number;
  /** Heartbeat statements: the process's one heartbeat renews every open lease in one statement and saves the
   * changed drafts in another, once a second (lib/chat/heartbeats.ts) — at most 2 per second of the block. */
  heartbeatStatementsMax: number;
  loop: LoopDelay[];
  rssKiB: { before: number | null; max: number | null; after: number | null };
  serverCpuMs: number | null;
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

export async function runW6(
  client: Client,
  sessions: SeedSession[],
  server: RunningServer,
  options: W6Options,
): Promise<W6Result> {
  await server.probe.mark(); // event-loop delay from here on
  const rss = { before: server.rssKiB(), max: server.rssKiB(), after: null as number | null };
  const sampler = setInterval(() => {
    const now = server.rssKiB();
    if (now !== null) rss.max = Math.max(rss.max ?? 0, now);
  }, 100);
  const cpu0 = server.cpuMs();
  const started = performance.now();
  const spans: { start: number; end: number }[] = [];
  const errors = new Map<string, number>();
  const done: { total: number; firstDelta: number; tokens: number; model: number }[] = [];
  const streaming = (tokens: number) => Math.max(0, tokens - 1) * options.tokenDelayMs;
  await Promise.all(
    sessions.map(async (session, i) => {
      const start = performance.now();
      try {
        const t = await withTimeout(client.turn(session.id, w6Content(i)), options.timeoutMs);
        const tokens = chunkReply(answerText(t.body)).length;
        const model = options.firstTokenDelayMs + streaming(tokens);
        done.push({ total: t.totalMs, firstDelta: t.firstDeltaMs, tokens, model });
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error))
          .replace(/[0-9a-f]{8,}|\d+/gi, "#")
          .slice(0, 200);
        errors.set(message, (errors.get(message) ?? 0) + 1);
      }
      spans.push({ start, end: performance.now() });
    }),
  );
  const wallMs = performance.now() - started;
  const cpu1 = server.cpuMs();
  clearInterval(sampler);
  rss.after = server.rssKiB();
  const loop = await server.probe.mark();

  // Peak concurrency: sweep over start (+1) and end (−1) events.
  const edges = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]) as [number, number][];
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peakOpen = 0;
  for (const [, d] of edges) {
    open += d;
    peakOpen = Math.max(peakOpen, open);
  }
  const tps = done.map((d) => (d.tokens / d.total) * 1000);
  return {
    n: sessions.length,
    completed: done.length,
    failed: sessions.length - done.length,
    errors: [...errors]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([message, count]) => ({ message, count })),
    wallMs,
    tokens: summarize(done.map((d) => d.tokens)),
    modelMs: summarize(done.map((d) => d.model)),
    totalMs: summarize(done.map((d) => d.total)),
    firstDeltaMs: summarize(done.map((d) => d.firstDelta)),
    overheadMs: summarize(done.map((d) => d.total - d.model)),
    startOverheadMs: summarize(done.map((d) => d.firstDelta - options.firstTokenDelayMs)),
    streamOverheadMs: summarize(done.map((d) => d.total - d.firstDelta - streaming(d.tokens))),
    tokensPerSecond: summarize(tps).median,
    peakOpen,
    heartbeatStatementsMax: 2 * Math.ceil(wallMs / 1000),
    loop,
    rssKiB: rss,
    serverCpuMs: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null,
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
