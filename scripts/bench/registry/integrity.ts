import { checkSessionIntegrity } from "../inspect";
import { need, workload } from "./types";

/** After every server stopped: each session that took turns is still consistent, read from the database. */
export const integrity = workload<{ sessions: number; broken: string[] }>({
  id: "integrity",
  phase: "after",
  describe: () => "checking the sessions that took turns …",
  async run(ctx) {
    const inspector = need(ctx.inspector, "the inspector");
    const s = ctx.plan.sessions;
    const touched = [...s.w1, ...s.w1b, ...s.count, ...s.countBranched, ...s.w2, s.w3, ...s.w6.flat()];
    const broken: string[] = [];
    for (const x of touched) {
      const problem = await checkSessionIntegrity(inspector, x.id);
      if (problem) broken.push(problem);
    }
    return { sessions: touched.length, broken };
  },
  checks: ({ sessions, broken }) => [
    {
      name: `seq gap-free, lastSeq exact and one snapshot row, in all ${sessions} sessions that took turns`,
      ok: broken.length === 0,
      ...(broken.length ? { detail: broken.join("; ") } : {}),
    },
  ],
  render: () => [],
});
