import { fmtMs, table, verdict } from "../report";
import { runW3, type W3Result } from "../workloads";
import { need, workload } from "./types";

/** W3: streaming overhead, on a server whose offline model waits before its first token. */
export const w3 = workload<W3Result>({
  id: "w3",
  phase: "slow",
  describe: (sizes) =>
    `W3: a second server whose model waits ${sizes.w3FirstTokenDelayMs} ms before its first token …`,
  run: (ctx) =>
    runW3(
      need(ctx.owner, "the owner").withBase(need(ctx.server, "the server").url),
      ctx.plan.sessions.w3,
      ctx.sizes,
    ),
  targets: (w) => [
    {
      id: "w3.overhead",
      label: "W3 first model byte − model delay, median",
      value: w.overhead.median,
      display: fmtMs(w.overhead.median),
      target: "< 15 ms",
      pass: w.overhead.median < 15,
    },
  ],
  render: (w, { sizes }) => [
    "",
    `W3 streaming overhead — offline model waits ${w.delayMs} ms before its first token; ${sizes.w3Turns} turns`,
    table(
      ["measure", "median", "p90", "target", ""],
      [
        [
          "first model byte − delay",
          fmtMs(w.overhead.median),
          fmtMs(w.overhead.p90),
          "median < 15 ms",
          verdict(w.overhead.median < 15),
        ],
        ["first byte (meta event)", fmtMs(w.firstByte.median), fmtMs(w.firstByte.p90), "", ""],
        ["whole turn", fmtMs(w.total.median), fmtMs(w.total.p90), "", ""],
      ],
    ),
  ],
});
