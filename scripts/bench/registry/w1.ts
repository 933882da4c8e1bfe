import { fmtInt, fmtMs, table, verdict } from "../report";
import { round } from "../stats";
import { type CpuUse, runW1, type W1Row } from "../workloads";
import { cpuLine } from "./cpu";
import { need, workload } from "./types";

/** W1: turn cost against history length, one turn at a time, interleaved across H. */
export const w1 = workload<{ rows: W1Row[]; cpu: CpuUse }>({
  id: "w1",
  phase: "main",
  describe: (sizes) =>
    `W1: ${sizes.w1Turns} turns, one at a time, at H = ${sizes.histories.map(fmtInt).join(", ")} …`,
  run: (ctx) =>
    runW1(
      need(ctx.owner, "the owner"),
      ctx.plan.sessions.w1,
      ctx.sizes,
      ctx.inspector ?? null,
      need(ctx.server, "the server").cpuMs,
    ),
  targets({ rows }) {
    const out = rows.map((row) => ({
      id: `w1.median.h${row.h}`,
      label: `W1 median turn at H = ${fmtInt(row.h)}`,
      value: row.turns.median,
      display: fmtMs(row.turns.median),
      target: "≤ 10 ms",
      pass: row.turns.median <= 10,
    }));
    const last = rows.at(-1);
    if (last && rows.length > 1) {
      out.push({
        id: `w1.ratio.h${last.h}`,
        label: `W1 ratio median(H = ${fmtInt(last.h)}) / median(H = ${fmtInt(rows[0]?.h ?? 10)})`,
        value: last.ratio,
        display: `${round(last.ratio)}×`,
        target: last.h === 100_000 ? "≤ 1.2" : "≤ 1.2 (issue: at H = 100 000)",
        pass: last.ratio <= 1.2,
      });
    }
    return out;
  },
  checks({ rows }) {
    const pgStats = rows.filter((row) => row.chatMessagePerTurn);
    if (!pgStats.length) return [];
    const scans = pgStats.filter((row) => (row.chatMessagePerTurn?.seqScans ?? 0) > 0);
    return [
      {
        name: "over HTTP, PostgreSQL's own statistics show no sequential scan of ChatMessage at any H",
        ok: scans.length === 0,
        ...(scans.length ? { detail: scans.map((row) => `H=${row.h}`).join(", ") } : {}),
      },
    ];
  },
  render({ rows, cpu }, { sizes, targets }) {
    const out = [
      "",
      `W1 turn cost vs history length — ${sizes.w1Turns} turns per H over HTTP, one at a time, interleaved across H; request → end of stream`,
      table(
        [
          "H",
          "median",
          "p90",
          "max",
          "first turn (rebuild)",
          "ratio",
          "target",
          "",
          ...(rows[0]?.chatMessagePerTurn ? ["ChatMessage rows/turn (pg stats)"] : []),
        ],
        rows.map((row) => [
          fmtInt(row.h),
          fmtMs(row.turns.median),
          fmtMs(row.turns.p90),
          fmtMs(row.turns.max),
          fmtMs(row.warmupMs[0]),
          `${round(row.ratio)}×`,
          "median ≤ 10 ms",
          verdict(row.turns.median <= 10),
          ...(row.chatMessagePerTurn
            ? [
                `${round(row.chatMessagePerTurn.indexRowsFetched)} by index, ${round(row.chatMessagePerTurn.seqRowsRead)} by seq scan`,
              ]
            : []),
        ]),
      ),
    ];
    const ratio = targets.find((x) => x.id.startsWith("w1.ratio"));
    if (ratio) out.push(`  ${ratio.label}: ${ratio.display} (target ${ratio.target}) ${verdict(ratio.pass)}`);
    out.push(`  ${cpuLine(cpu)}`);
    return out;
  },
});
