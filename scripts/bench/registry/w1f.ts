import { Client } from "../http";
import { FACTS } from "../plan";
import { fmtInt, fmtMs, verdict } from "../report";
import { round } from "../stats";
import { runW1Facts, type W1FactsResult } from "../workloads";
import { need, workload } from "./types";

/** W1F: W1 for a user with FACTS long-term facts beside one with none. */
export const w1f = workload<W1FactsResult>({
  id: "w1f",
  phase: "main",
  describe: (sizes) =>
    `W1F: ${sizes.w1Turns * 2} turns each for a user with ${FACTS} long-term facts and one with none …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const factsClient = new Client(server.url, ctx.plan.factsUser.email);
    await factsClient.signIn(ctx.plan.factsUser.email, ctx.plan.password);
    return runW1Facts(
      { client: need(ctx.owner, "the owner"), session: ctx.plan.sessions.w1Facts.without },
      { client: factsClient, session: ctx.plan.sessions.w1Facts.with },
      ctx.sizes,
      FACTS,
    );
  },
  targets: (f) => [
    {
      id: "w1f.ratio",
      label: `W1 with ${fmtInt(f.facts)} long-term facts / without (median, H = ${fmtInt(f.history)})`,
      value: f.ratio,
      display: `${round(f.ratio)}× (${fmtMs(f.with.median)} vs ${fmtMs(f.without.median)})`,
      target: "≤ 1.2",
      pass: f.ratio <= 1.2,
    },
  ],
  render: (f) => [
    "",
    `W1F long-term memory — a user with ${fmtInt(f.facts)} facts beside one with none, H = ${fmtInt(f.history)}, ${f.with.n} turns each, interleaved`,
    `  median ${fmtMs(f.with.median)} vs ${fmtMs(f.without.median)}, p90 ${fmtMs(f.with.p90)} vs ${fmtMs(f.without.p90)}: ${round(f.ratio)}× (target ≤ 1.2) ${verdict(f.ratio <= 1.2)}`,
  ],
});
