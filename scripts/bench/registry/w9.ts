import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../../lib/paths";
import { type ProfileSummary, summarizeProfile } from "../profile";
import { fmtInt, fmtMs, fmtSeconds, type Target, table, verdict } from "../report";
import { round } from "../stats";
import { runW9, type W9Result, worstLoop } from "../streams";
import { renderProfile } from "./profile";
import { need, workload } from "./types";

const MIB = 1024;
const fmtMib = (kib: number | null) => (kib === null ? "—" : `${Math.round(kib / MIB)} MiB`);

/** The targets apply at 50 new turns a second (issue 27), or at the highest rate run when it is not among them. */
const TARGET_RATE = 50;
const targetsMet = (w: W9Result) => ({
  start: w.startOverheadMs.p99 <= 100,
  loop: worstLoop(w.loop).maxMs <= 50,
  rss: (w.rssKiB.max ?? Number.POSITIVE_INFINITY) <= 600 * MIB,
});

type W9Run = { rows: W9Result[]; profile: (ProfileSummary & { file: string; turns: number }) | null };

/** W9: steady open-loop traffic with long answers, ~rate × 20 s streams open at once. */
export const w9 = workload<W9Run>({
  id: "w9",
  phase: "streaming",
  describe: (sizes) =>
    `W9: ${sizes.w9Rates.join(" then ")} new turns/s for ${fmtSeconds(sizes.w9DurationMs)}, answers of ${sizes.w9AnswerTokens} tokens at ${round(1000 / sizes.w6TokenDelayMs)} tokens/s …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const owner = need(ctx.owner, "the owner").withBase(server.url);
    const rows: W9Result[] = [];
    let profile: W9Run["profile"] = null;
    const blocks = ctx.plan.sessions.w9;
    for (const [k, block] of blocks.entries()) {
      // --profile: the CPU profiler runs during the last block (its cost is then in that block's figures).
      const profiled = ctx.options.profile && k === blocks.length - 1;
      if (profiled) await server.probe.profileStart();
      const w = await runW9(owner, block, ctx.sizes.w9DurationMs, server, {
        firstTokenDelayMs: ctx.sizes.w6FirstTokenDelayMs,
        tokenDelayMs: ctx.sizes.w6TokenDelayMs,
        timeoutMs: ctx.sizes.w6TimeoutMs,
        answerTokens: ctx.sizes.w9AnswerTokens,
      });
      if (profiled) {
        const files = await server.probe.profileStop();
        const best = files
          .map((f) => summarizeProfile(f, server.root))
          .map((s, i) => ({ s, f: files[i] as string }))
          .sort((a, b) => b.s.busyMs - a.s.busyMs)[0];
        if (best) {
          const dir = path.join(ROOT, "bench-results");
          mkdirSync(dir, { recursive: true });
          const file = path.join(dir, `${ctx.startedAt.toISOString().replace(/[:.]/g, "-")}-w9.cpuprofile`);
          writeFileSync(file, readFileSync(best.f));
          profile = { ...best.s, file: path.relative(ROOT, file), turns: w.completed };
        }
      }
      rows.push(w);
      ctx.log(
        `W9 ${w.rate}/s: ${w.completed} completed, ${w.failed} failed, peak open ${w.peakOpen}, start p99 ${fmtMs(w.startOverheadMs.p99)}, ` +
          `event loop max ${fmtMs(worstLoop(w.loop).maxMs)}, RSS max ${fmtMib(w.rssKiB.max)}`,
      );
    }
    return { rows, profile };
  },
  targets: ({ rows }) => {
    const w = rows.find((r) => r.rate === TARGET_RATE) ?? rows.toSorted((a, b) => b.rate - a.rate)[0];
    if (!w) return [];
    const met = targetsMet(w);
    const loop = worstLoop(w.loop).maxMs;
    const at = `W9 at ${w.rate} new turns/s`;
    return [
      {
        id: "w9.start",
        label: `${at}: start overhead p99`,
        value: w.startOverheadMs.p99,
        display: fmtMs(w.startOverheadMs.p99),
        target: "≤ 100 ms",
        pass: met.start,
      },
      {
        id: "w9.loop",
        label: `${at}: event-loop delay max`,
        value: loop,
        display: fmtMs(loop),
        target: "≤ 50 ms",
        pass: met.loop,
      },
      {
        id: "w9.rss",
        label: `${at}: server RSS max`,
        value: w.rssKiB.max ?? Number.NaN,
        display: fmtMib(w.rssKiB.max),
        target: "≤ 600 MiB",
        pass: met.rss,
      },
    ] satisfies Target[];
  },
  checks: ({ rows }) =>
    rows.map((w) => ({
      name: `W9 at ${w.rate}/s: all ${fmtInt(w.arrivals)} answers completed`,
      ok: w.failed === 0,
      ...(w.failed ? { detail: w.errors.map((e) => `${e.count}× ${e.message}`).join("; ") } : {}),
    })),
  render({ rows, profile }, { sizes }) {
    if (!rows.length) return [];
    const out = [
      "",
      `W9 steady traffic — Poisson arrivals for ${fmtSeconds(sizes.w9DurationMs)} (seeded), each a new conversation asking for ${sizes.w9AnswerTokens} tokens at ${round(1000 / sizes.w6TokenDelayMs)} tokens/s after ${sizes.w6FirstTokenDelayMs} ms; start = request → first text byte − first-token delay; delta delay = a delta's arrival − when the model made its first token (the answer's first delta + k × ${sizes.w6TokenDelayMs} ms); targets at ${TARGET_RATE}/s`,
      table(
        [
          "rate",
          "turns",
          "failed",
          "peak open",
          "start p50",
          "p99",
          "target",
          "",
          "delta delay p50",
          "p99",
          "max",
          "loop max",
          "loop p99",
          "target",
          "",
          "RSS before → max",
          "target",
          "",
          "CPU/answer",
          "CPU/token",
          "send lag p99",
          "wall",
        ],
        rows.map((w) => {
          const loop = worstLoop(w.loop);
          const met = targetsMet(w);
          return [
            `${w.rate}/s`,
            fmtInt(w.arrivals),
            w.failed,
            w.peakOpen,
            fmtMs(w.startOverheadMs.median),
            fmtMs(w.startOverheadMs.p99),
            "p99 ≤ 100 ms",
            verdict(met.start),
            fmtMs(w.deltaDelayMs.median),
            fmtMs(w.deltaDelayMs.p99),
            fmtMs(w.deltaDelayMs.max),
            fmtMs(loop.maxMs),
            fmtMs(loop.p99Ms),
            "max ≤ 50 ms",
            verdict(met.loop),
            `${fmtMib(w.rssKiB.before)} → ${fmtMib(w.rssKiB.max)}`,
            "≤ 600 MiB",
            verdict(met.rss),
            w.serverCpuMs === null ? "—" : fmtMs(w.serverCpuMs / Math.max(w.completed, 1)),
            w.serverCpuMs === null || !w.tokensStreamed
              ? "—"
              : `${round((w.serverCpuMs / w.tokensStreamed) * 1000)} µs`,
            fmtMs(w.sendLagMs.p99),
            fmtSeconds(w.wallMs),
          ];
        }),
      ),
    ];
    for (const w of rows) {
      const capacity =
        w.serverCpuMs === null ? "—" : round((os.cpus().length * 1000 * w.completed) / w.serverCpuMs);
      out.push(
        `  ${w.rate}/s: ${w.tokens.median} tokens per answer (median), ${fmtInt(w.tokensStreamed)} streamed in all (CPU/token: the server's CPU over them, starts included); stream overhead p50 ${fmtMs(w.streamOverheadMs.median)}, p99 ${fmtMs(w.streamOverheadMs.p99)}; ` +
          `the server's CPU per answer sustains at most ~${capacity} answers/s on ${os.cpus().length} cores`,
      );
      for (const e of w.errors) out.push(`    FAILED ${e.count}×: ${e.message}`);
    }
    if (profile)
      out.push(
        "",
        ...renderProfile(profile, "W9 answers (the last rate, profiler on; per turn = per answer)"),
      );
    return out;
  },
});
