import { renderW7, runW7, W7_TARGET_RATIO, type W7Result, w7RowPass } from "../attachments";
import { round } from "../stats";
import { need, workload } from "./types";

/** W7: a turn whose window holds 4 images against a text-only turn. */
export const w7 = workload<W7Result>({
  id: "w7",
  phase: "main",
  describe: (sizes) => `W7: ${sizes.w1Turns} turns whose window holds 4 images, against text-only turns …`,
  run: (ctx) => runW7(need(ctx.owner, "the owner"), ctx.inspector ?? null, ctx.sizes.w1Turns),
  targets: (w) =>
    w.rows.map((row) => ({
      id: `w7.ratio.${row.kind}`,
      label: `W7 median turn with 4 ${row.kind} in the window / text-only`,
      value: row.ratio,
      display: `${round(row.ratio)}×`,
      target: `≤ ${W7_TARGET_RATIO}`,
      pass: w7RowPass(row),
    })),
  render: (w) => ["", ...renderW7(w)],
});
