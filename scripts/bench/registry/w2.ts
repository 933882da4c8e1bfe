import { FULL } from "../config";
import { fmtInt, fmtMs, fmtSeconds, table, verdict } from "../report";
import { round } from "../stats";
import { runW2, type W2Result } from "../workloads";
import { cpuLine } from "./cpu";
import { need, workload } from "./types";

/** W2: several users, each in their own session, all at once. */
export const w2 = workload<W2Result>({
  id: "w2",
  phase: "main",
  describe: (sizes) => `W2: ${sizes.w2Users} users × ${sizes.w2Turns} turns, concurrently …`,
  run: (ctx) =>
    runW2(
      need(ctx.w2Clients, "the W2 users"),
      ctx.plan.sessions.w2,
      ctx.sizes,
      need(ctx.server, "the server").cpuMs,
    ),
  targets: (w, { sizes }) => [
    {
      id: "w2.throughput",
      label: `W2 throughput, ${w.users} users`,
      value: w.turnsPerSecond,
      display: `${round(w.turnsPerSecond)} turns/s`,
      target: sizes.w2Users === FULL.w2Users ? "≥ 250 turns/s" : "≥ 250 turns/s (issue: 20 users)",
      pass: w.turnsPerSecond >= 250,
    },
    {
      id: "w2.p99",
      label: `W2 p99 latency, ${w.users} users`,
      value: w.latency.p99,
      display: fmtMs(w.latency.p99),
      target: "≤ 100 ms",
      pass: w.latency.p99 <= 100,
    },
  ],
  render: (w, { sizes }) => [
    "",
    `W2 concurrency — ${w.users} users, each in their own session (H = ${fmtInt(sizes.w2History)}), ${w.turnsPerUser} turns each, all at once`,
    table(
      ["turns", "wall", "turns/s", "target", "", "p50", "p99", "target", ""],
      [
        [
          w.users * w.turnsPerUser,
          fmtSeconds(w.wallMs),
          `${round(w.turnsPerSecond)}/s`,
          "≥ 250/s",
          verdict(w.turnsPerSecond >= 250),
          fmtMs(w.latency.median),
          fmtMs(w.latency.p99),
          "p99 ≤ 100 ms",
          verdict(w.latency.p99 <= 100),
        ],
      ],
    ),
    `  ${cpuLine(w.cpu)}`,
  ],
});
