import { fmtInt, fmtMs, table } from "../report";
import { type CountResult, countBranchedStatements, countStatements, signature } from "../workloads";
import { need, workload } from "./types";

type BranchedCounts = Awaited<ReturnType<typeof countBranchedStatements>>;

/** Statements and rows per turn, in-process on an instrumented client, on linear and on branched conversations. */
export const counts = workload<{ linear: CountResult; branched: BranchedCounts }>({
  id: "counts",
  phase: "inprocess",
  describe: () => "counting the statements of a turn (in-process) …",
  async run(ctx) {
    const pipeline = need(ctx.pipeline, "the in-process pipeline");
    return {
      linear: await countStatements(pipeline, ctx.plan, ctx.sizes, ctx.dialect),
      branched: await countBranchedStatements(pipeline, ctx.plan, ctx.sizes),
    };
  },
  checks: ({ linear: c, branched }) => [
    {
      name: "a steady turn sends the same statements with the same row counts at every H",
      ok: c.sameAtEveryH,
      ...(c.sameAtEveryH
        ? {}
        : { detail: c.rows.map((r) => `H=${r.h}: ${r.steady.statements} stmts`).join(", ") }),
    },
    {
      name: "no full scan of ChatMessage in any statement of a turn (query plans)",
      ok: c.fullScansOfChatMessage.length === 0,
      ...(c.fullScansOfChatMessage.length ? { detail: c.fullScansOfChatMessage.join("\n") } : {}),
    },
    {
      name: "on a branch too, a steady turn sends the same statements with the same row counts at every H",
      ok: branched.sameAtEveryH,
      ...(branched.sameAtEveryH
        ? {}
        : { detail: branched.rows.map((r) => `H=${r.h}: ${signature(r.steady)}`).join("\n") }),
    },
  ],
  render({ linear: c }) {
    const out = [
      "",
      "Per-turn SQL — the turn pipeline in-process on an instrumented driver (HTTP adds 1: the user lookup)",
      table(
        [
          "H",
          "first turn: stmts",
          "rows read",
          "rows written",
          "steady turn: stmts",
          "tx",
          "rows read",
          "rows written",
          "driver time (median)",
          "in-process median",
        ],
        c.rows.map((row) => [
          fmtInt(row.h),
          row.cold.statements,
          row.cold.rowsRead,
          row.cold.rowsWritten,
          row.steady.statements,
          row.steady.transactions,
          row.steady.rowsRead,
          row.steady.rowsWritten,
          fmtMs(row.driverMs.median),
          fmtMs(row.inProcessMs.median),
        ]),
      ),
    ];
    const first = c.rows[0]?.steady;
    if (first) {
      out.push(
        `  steady turn: ${first.shape.map((x) => `${x.verb}${x.table ? ` ${x.table}` : ""}${x.verb === "BEGIN" || x.verb === "COMMIT" ? "" : `→${x.rows}`}`).join(", ")}`,
      );
    }
    out.push(
      `  same statements and row counts at every H: ${c.sameAtEveryH ? "yes" : "NO"}; ` +
        `full scans of ChatMessage in ${c.plans.length} query plans: ${c.fullScansOfChatMessage.length}`,
    );
    for (const p of c.plans) {
      const steps = p.steps.map((x) => x.detail).join("; ") || "(no table access)";
      out.push(`    ${p.sql.replace(/\s+/g, " ").slice(0, 60)}… → ${steps}`);
    }
    return out;
  },
});
