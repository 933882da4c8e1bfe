import { fmtInt, fmtMs, table } from "../report";
import { probeAdminApi, runW5, type W4Result, type W5Result } from "../workloads";
import { need, workload } from "./types";

/** W5: deleting a long session (through the admin API when W4 found it, else the owner's delete). */
export const w5 = workload<W5Result>({
  id: "w5",
  phase: "main",
  describe: (sizes) => `W5: deleting a session of ${fmtInt(sizes.w5Messages)} messages …`,
  async run(ctx) {
    const admin = need(ctx.admin, "the admin");
    const w4 = ctx.results.w4 as W4Result | undefined;
    const adminApi = Boolean(w4 && !w4.skipped) && (await probeAdminApi(admin)) === null;
    return runW5(
      need(ctx.owner, "the owner"),
      admin,
      adminApi,
      ctx.plan.sessions.w5,
      need(ctx.inspector, "the inspector"),
    );
  },
  checks: (w) => [
    {
      name: `W5: zero rows left for the deleted session (${w.via})`,
      ok: w.rowsLeft === 0,
      detail: JSON.stringify(w.after),
    },
  ],
  render: (w) => [
    "",
    `W5 delete — a session of ${fmtInt(w.messages)} messages via ${w.via}`,
    table(
      ["wall", "rows before", "rows left", ""],
      [
        [
          fmtMs(w.wallMs),
          Object.entries(w.before)
            .map(([k, v]) => `${k} ${fmtInt(v)}`)
            .join(", "),
          w.rowsLeft,
          w.rowsLeft === 0 ? "PASS" : "FAIL",
        ],
      ],
    ),
  ],
});
