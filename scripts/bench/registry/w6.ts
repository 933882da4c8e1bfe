import os from "node:os";
import { fmtInt, fmtMs, fmtSeconds, table, verdict } from "../report";
import { round } from "../stats";
import { runW6, type W6Result, warmW6, worstLoop } from "../streams";
import { need, workload } from "./types";

const fmtMib = (kib: number | null) => (kib === null ? "—" : `${Math.round(kib / 1024)} MiB`);

/** W6: many answers streaming at once, on a server whose offline model streams at a set rate. */
export const w6 = workload<W6Result[]>({
  id: "w6",
  phase: "streaming",
  describe: (sizes) =>
    `W6: ${sizes.w6Streams.map(fmtInt).join(" then ")} answers streaming at once, ${sizes.w6TokenDelayMs} ms per token …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const owner = need(ctx.owner, "the owner").withBase(server.url);
    await warmW6(owner, ctx.plan.sessions.w6Warmup, ctx.sizes.serverWarmupTurns);
    const rows: W6Result[] = [];
    for (const group of ctx.plan.sessions.w6) {
      const w = await runW6(owner, group, server, {
        firstTokenDelayMs: ctx.sizes.w6FirstTokenDelayMs,
        tokenDelayMs: ctx.sizes.w6TokenDelayMs,
        timeoutMs: ctx.sizes.w6TimeoutMs,
      });
      rows.push(w);
      ctx.log(
        `W6 N=${w.n}: ${w.completed} completed, ${w.failed} failed, overhead p99 ${fmtMs(w.overheadMs.p99)}, ` +
          `event loop max ${fmtMs(worstLoop(w.loop).maxMs)}`,
      );
    }
    return rows;
  },
  checks: (rows) =>
    rows.map((w) => ({
      name: `W6: all ${fmtInt(w.n)} streamed answers completed`,
      ok: w.failed === 0,
      ...(w.failed ? { detail: w.errors.map((e) => `${e.count}× ${e.message}`).join("; ") } : {}),
    })),
  render(rows, { sizes }) {
    if (!rows.length) return [];
    const out = [
      "",
      `W6 many open streams — N answers started at once, offline model: ${sizes.w6FirstTokenDelayMs} ms to the first token, then ${sizes.w6TokenDelayMs} ms per token (${round(1000 / sizes.w6TokenDelayMs)} tokens/s); overhead = turn wall time − the model's own time = start (request → first text byte − first-token delay: queued behind the other N − 1 starts) + stream (first text byte → end − the model's token delays, commit included)`,
      table(
        [
          "N",
          "completed",
          "failed",
          "peak open",
          "tokens",
          "answer (median)",
          "model time",
          "overhead p50",
          "p99",
          "max",
          "target",
          "",
          "start p50",
          "p99",
          "stream p50",
          "p99",
          "loop max",
          "loop p99",
          "target",
          "",
          "RSS before → max",
          "wall",
        ],
        rows.map((w) => {
          const loop = worstLoop(w.loop);
          return [
            fmtInt(w.n),
            w.completed,
            w.failed,
            w.peakOpen,
            w.tokens.median,
            fmtMs(w.totalMs.median),
            fmtMs(w.modelMs.median),
            fmtMs(w.overheadMs.median),
            fmtMs(w.overheadMs.p99),
            fmtMs(w.overheadMs.max),
            "p99 < 50 ms",
            verdict(w.overheadMs.p99 < 50),
            fmtMs(w.startOverheadMs.median),
            fmtMs(w.startOverheadMs.p99),
            fmtMs(w.streamOverheadMs.median),
            fmtMs(w.streamOverheadMs.p99),
            fmtMs(loop.maxMs),
            fmtMs(loop.p99Ms),
            "max ≤ 50 ms",
            verdict(loop.maxMs <= 50),
            `${fmtMib(w.rssKiB.before)} → ${fmtMib(w.rssKiB.max)}`,
            fmtSeconds(w.wallMs),
          ];
        }),
      ),
    ];
    for (const w of rows) {
      out.push(
        `  N=${fmtInt(w.n)}: ${round(w.tokensPerSecond)} tokens/s per answer (median, whole turn); first text byte median ${fmtMs(w.firstDeltaMs.median)}, p99 ${fmtMs(w.firstDeltaMs.p99)}; ` +
          `≤ ${fmtInt(w.heartbeatStatementsMax)} heartbeat statements for all answers (one batched renewal + one batched draft save a second); server CPU ${w.serverCpuMs === null ? "—" : `${fmtMs(w.serverCpuMs / Math.max(w.completed, 1))} per answer`}`,
      );
      if (w.serverCpuMs !== null && w.completed > 0) {
        const cores = os.cpus().length;
        const bound = ((w.serverCpuMs / w.completed) * w.n) / cores;
        out.push(
          `  N=${fmtInt(w.n)}: start p99 ${fmtMs(w.startOverheadMs.p99)} against the CPU bound ${fmtMs(bound)} (server CPU per answer × N ÷ ${cores} cores: the last of N starts at once waits for that much work, whatever the code)`,
        );
      }
      for (const e of w.errors) out.push(`    FAILED ${e.count}×: ${e.message}`);
    }
    return out;
  },
});
