import { Client } from "../http";
import { turnContent } from "../plan";
import { fmtMs, fmtSeconds, table, verdict } from "../report";
import type { RunningServer } from "../server";
import { round } from "../stats";
import { runW2, type W2Result } from "../workloads";
import type { BenchContext } from "./types";
import { workload } from "./types";

interface MultiResult {
  proxied: W2Result & { instances: number };
  cluster: W2Result & { workers: number };
}

/** Signs the W2 users and the owner in on `url`, and warms every process behind it the way W1's server was. */
async function clientsOn(ctx: BenchContext, url: string): Promise<Client[]> {
  const { plan, sizes, options } = ctx;
  const clients = plan.w2Users.map((u) => new Client(url, u.email));
  for (const [i, c] of clients.entries()) await c.signIn(plan.w2Users[i]?.email ?? "", plan.password);
  const owner = new Client(url, plan.owner.email);
  await owner.signIn(plan.owner.email, plan.password);
  for (let i = 0; i < sizes.serverWarmupTurns * options.multi; i++) {
    await owner.turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
  }
  return clients;
}

/** --multi N: W2 against N instances behind a round-robin proxy, then against one node:cluster of N workers. */
export const multi = workload<MultiResult>({
  id: "multi",
  phase: "own",
  enabled: (options) => options.multi > 1,
  describe: (_sizes, options) =>
    `W2 on ${options.multi} instances behind a round-robin proxy, then on one node:cluster of ${options.multi} workers …`,
  async run(ctx) {
    const { startProxy } = await import("../multi");
    const n = ctx.options.multi;
    const instances: RunningServer[] = [];
    let proxied: MultiResult["proxied"];
    try {
      for (let i = 0; i < n; i++) instances.push(await ctx.startServer());
      const proxy = await startProxy(instances.map((x) => Number(new URL(x.url).port)));
      try {
        const clients = await clientsOn(ctx, proxy.url);
        const cpu = () => {
          const all = [...instances.map((x) => x.cpuMs()), proxy.cpuMs()];
          return all.some((x) => x === null) ? null : all.reduce((a, b) => (a ?? 0) + (b ?? 0), 0);
        };
        proxied = { ...(await runW2(clients, ctx.plan.sessions.w2, ctx.sizes, cpu)), instances: n };
      } finally {
        await proxy.stop();
      }
    } finally {
      for (const x of instances) await x.stop();
    }
    const clustered = await ctx.startServer({}, { workers: n });
    try {
      const clients = await clientsOn(ctx, clustered.url);
      const cluster = {
        ...(await runW2(clients, ctx.plan.sessions.w2, ctx.sizes, clustered.cpuMs)),
        workers: n,
      };
      return { proxied, cluster };
    } finally {
      await clustered.stop();
    }
  },
  render({ proxied, cluster }, { meta, results }) {
    const cores = Number(meta.cpus) || 1;
    const single = results.w2 as W2Result | undefined;
    const row = (label: string, x: W2Result) => [
      label,
      x.users * x.turnsPerUser,
      fmtSeconds(x.wallMs),
      `${round(x.turnsPerSecond)}/s`,
      `${round(x.turnsPerSecond / cores)}/s`,
      fmtMs(x.latency.median),
      fmtMs(x.latency.p99),
      x.cpu.serverMsPerTurn === null ? "—" : fmtMs(x.cpu.serverMsPerTurn),
      verdict(x.turnsPerSecond >= 250 && x.latency.p99 <= 100),
    ];
    return [
      "",
      `W2 on one machine with ${proxied.instances} processes — ${proxied.instances} next start instances on one database behind a round-robin proxy (its own process), or one node:cluster of ${proxied.instances} workers on one port; ${proxied.users} users × ${proxied.turnsPerUser} turns; ${cores} cores shared by the servers, the proxy, the client${meta.db === "postgresql" ? " and PostgreSQL" : ""}`,
      table(
        [
          "",
          "turns",
          "wall",
          "turns/s",
          "per core",
          "p50",
          "p99",
          "server CPU/turn",
          "≥ 250/s, p99 ≤ 100 ms",
        ],
        [
          ...(single ? [row("1 process", single)] : []),
          row(`${proxied.instances} processes + proxy`, proxied),
          row(`cluster of ${cluster.workers}`, cluster),
        ],
      ),
    ];
  },
});
