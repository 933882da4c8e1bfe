import { fmtInt, fmtMs, table, verdict } from "../report";
import { round } from "../stats";
import { branchSession, type CpuUse, runW1, type W1Row } from "../workloads";
import type { counts } from "./counts";
import { cpuLine } from "./cpu";
import { need, workload } from "./types";

type Counts = Awaited<ReturnType<typeof counts.run>>;

/** W1B: W1 on conversations made trees first (an edit at the middle, then a regenerate). */
export const w1b = workload<{ rows: W1Row[]; cpu: CpuUse }>({
  id: "w1b",
  phase: "main",
  describe: () => "W1B: the same on branched conversations (an edit at the middle, then a regenerate) …",
  async run(ctx) {
    const owner = need(ctx.owner, "the owner");
    for (const session of ctx.plan.sessions.w1b) await branchSession(owner, session);
    return runW1(owner, ctx.plan.sessions.w1b, ctx.sizes, null, need(ctx.server, "the server").cpuMs);
  },
  targets({ rows }) {
    const last = rows.at(-1);
    if (!last || rows.length < 2) return [];
    return [
      {
        id: `w1b.ratio.h${last.h}`,
        label: `W1B (branched) ratio median(H = ${fmtInt(last.h)}) / median(H = ${fmtInt(rows[0]?.h ?? 10)})`,
        value: last.ratio,
        display: `${round(last.ratio)}×`,
        target: "≤ 1.2",
        pass: last.ratio <= 1.2,
      },
    ];
  },
  render({ rows, cpu }, { sizes, targets, results }) {
    if (!rows.length) return [];
    const branched = (results.counts as Counts | undefined)?.branched;
    const out = [
      "",
      `W1B turn cost on a branched conversation — per H a session made a tree first (an edit of the question after the assistant message in the middle of its history, then a regenerate of that answer); ${sizes.w1Turns} turns per H on the new branch, interleaved across H`,
      table(
        [
          "H",
          "branch at seq",
          "median",
          "p90",
          "max",
          "first turn",
          "ratio",
          "steady turn: stmts",
          "rows read",
          "rows written",
        ],
        rows.map((row, i) => {
          const count = branched?.rows[i];
          return [
            fmtInt(row.h),
            count ? fmtInt(count.branchSeq) : "—",
            fmtMs(row.turns.median),
            fmtMs(row.turns.p90),
            fmtMs(row.turns.max),
            fmtMs(row.warmupMs[0]),
            `${round(row.ratio)}×`,
            count ? count.steady.statements : "—",
            count ? count.steady.rowsRead : "—",
            count ? count.steady.rowsWritten : "—",
          ];
        }),
      ),
    ];
    const ratio = targets.find((x) => x.id.startsWith("w1b.ratio"));
    if (ratio) out.push(`  ${ratio.label}: ${ratio.display} (target ${ratio.target}) ${verdict(ratio.pass)}`);
    const steady = branched?.rows[0]?.steady;
    if (steady)
      out.push(
        `  steady turn on the branch: ${steady.shape.map((x) => `${x.verb}${x.table ? ` ${x.table}→${x.rows}` : ""}`).join(", ")}`,
      );
    out.push(`  ${cpuLine(cpu)}`);
    return out;
  },
});
