import { fmtInt, fmtMs, fmtSeconds, table } from "../report";
import { runW4, type W4Result } from "../workloads";
import { need, workload } from "./types";

/** W4: the admin API at scale. */
export const w4 = workload<W4Result>({
  id: "w4",
  phase: "main",
  describe: (sizes) => `W4: admin API over ${fmtInt(sizes.w4Sessions)} sessions …`,
  run: (ctx) => runW4(need(ctx.admin, "the admin"), ctx.plan, ctx.sizes, ctx.plan.sessions.w1.at(-1)),
  render(w, { sizes }) {
    const out = [
      "",
      `W4 admin at scale — ${w.skipped ? "SKIPPED" : `${fmtInt(w.messages ?? 0)} messages across ${fmtInt(w.sessions ?? 0)} sessions; median of ${sizes.w4Repeats} requests`}`,
    ];
    if (w.skipped) return [...out, `  ${w.skipped}`];
    out.push(
      table(
        ["request", "median", "p90", "note"],
        [
          [
            "GET /api/admin/sessions (first page)",
            fmtMs(w.firstPage?.median),
            fmtMs(w.firstPage?.p90),
            `${w.pageSize} per page`,
          ],
          [
            "GET /api/admin/sessions (deep page)",
            fmtMs(w.deepPage?.median),
            fmtMs(w.deepPage?.p90),
            `page ${w.deepPage?.page} of ${w.pages}`,
          ],
          [
            "GET /api/admin/sessions?q=",
            fmtMs(w.search?.median),
            fmtMs(w.search?.p90),
            `q=${w.search?.q}: ${w.search?.results} sessions`,
          ],
          [
            "GET /api/admin/sessions/:id (first message page)",
            fmtMs(w.sessionPage?.median),
            fmtMs(w.sessionPage?.p90),
            `${w.sessionPage?.messages} of ${fmtInt(w.sessionPage?.sessionMessages ?? 0)} messages`,
          ],
          ...(w.longSessionPage
            ? [
                [
                  "GET /api/admin/sessions/:id (long session)",
                  fmtMs(w.longSessionPage.median),
                  fmtMs(w.longSessionPage.p90),
                  `${w.longSessionPage.messages} of ${fmtInt(w.longSessionPage.sessionMessages)} messages`,
                ],
              ]
            : []),
        ],
      ),
      `  walked all ${w.pages} pages once (${fmtSeconds(w.walkMs ?? 0)}): every session exactly once`,
    );
    return out;
  },
});
