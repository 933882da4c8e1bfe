import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../lib/paths";
import { BenchError } from "../http";
import { turnContent } from "../plan";
import { type ProfileSummary, summarizeProfile } from "../profile";
import { fmtMs, table } from "../report";
import { need, workload } from "./types";

type Profiled = ProfileSummary & { file: string; turns: number };

/**
 * --profile: a separate pass of W1's turns (interleaved across H, like W1) with the server's CPU profiler on, so
 * the profiler's own cost stays out of the W1 figures. The .cpuprofile is kept under bench-results/.
 */
export const profile = workload<Profiled>({
  id: "profile",
  phase: "main",
  enabled: (options) => options.profile,
  describe: (sizes) => `profiling the server during a W1 pass (${sizes.w1Turns} turns per H) …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const client = need(ctx.owner, "the owner");
    await server.probe.profileStart();
    let turns = 0;
    for (let i = 0; i < ctx.sizes.w1Turns; i++) {
      for (const session of ctx.plan.sessions.w1) {
        await client.turn(session.id, turnContent("Profiled", i));
        turns++;
      }
    }
    const files = await server.probe.profileStop();
    // The busiest process is the server (next start runs it in its own process; a parent would be idle).
    const summaries = files.map((f) => ({ f, s: summarizeProfile(f, server.root) }));
    summaries.sort((a, b) => b.s.busyMs - a.s.busyMs);
    const best = summaries[0];
    if (!best) throw new BenchError("the CPU profile was not written");
    const dir = path.join(ROOT, "bench-results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${ctx.startedAt.toISOString().replace(/[:.]/g, "-")}-w1.cpuprofile`);
    writeFileSync(file, readFileSync(best.f));
    return { ...best.s, file: path.relative(ROOT, file), turns };
  },
  render: (p) => ["", ...renderProfile(p)],
});

export function renderProfile(p: ProfileSummary & { turns: number }, what = "W1 turns"): string[] {
  const out = [
    `CPU profile of the server during ${p.turns} ${what} — self time by package (${fmtMs(p.busyMs / p.turns)} busy per turn; idle excluded)`,
    table(
      ["package", "self time", "per turn", "share"],
      p.groups
        .filter((g) => g.share >= 0.005)
        .map((g) => [g.group, fmtMs(g.ms), fmtMs(g.ms / p.turns), `${(g.share * 100).toFixed(1)} %`]),
    ),
    "  top functions by self time:",
  ];
  for (const f of p.top.slice(0, 12)) {
    out.push(
      `    ${`${(f.share * 100).toFixed(1)} %`.padStart(7)}  ${f.fn}  ${f.where.slice(-70)}  [${f.group}]`,
    );
  }
  return out;
}
