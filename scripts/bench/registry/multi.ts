import { Client } from "../http";
import { turnContent } from "../plan";
import { fmtMs, fmtSeconds, table, verdict } from "../report";
import type { RunningServer } from "../server";
import { round } from "../stats";
import { runW2, type W2Result } from "../workloads";
import type { BenchContext } from "./types";
import { workload } from "./types";

type Pinned = W2Result & { serverCores: string[]; clientCores: string };

interface MultiResult {
  proxied: W2Result & { instances: number };
  cluster: W2Result & { workers: number };
  /** One instance per core on cores of their own, the client (and proxy) on the rest; empty with `pinnedSkipped`. */
  pinned: Pinned[];
  pinnedSkipped?: string;
}

/** Signs the W2 users and the owner in on `url`, and warms every process behind it the way W1's server was. */
async function clientsOn(ctx: BenchContext, url: string, processes = ctx.options.multi): Promise<Client[]> {
  const { plan, sizes } = ctx;
  const clients = plan.w2Users.map((u) => new Client(url, u.email));
  for (const [i, c] of clients.entries()) await c.signIn(plan.w2Users[i]?.email ?? "", plan.password);
  const owner = new Client(url, plan.owner.email);
  await owner.signIn(plan.owner.email, plan.password);
  for (let i = 0; i < sizes.serverWarmupTurns * processes; i++) {
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
    const { startProxy, totalCpuMs } = await import("../multi");
    const n = ctx.options.multi;
    const instances: RunningServer[] = [];
    let proxied: MultiResult["proxied"];
    try {
      for (let i = 0; i < n; i++) instances.push(await ctx.startServer());
      const proxy = await startProxy(instances.map((x) => Number(new URL(x.url).port)));
      try {
        const clients = await clientsOn(ctx, proxy.url);
        const cpu = totalCpuMs([...instances.map((x) => () => x.cpuMs()), () => proxy.cpuMs()]);
        proxied = { ...(await runW2(clients, ctx.plan.sessions.w2, ctx.sizes, cpu)), instances: n };
      } finally {
        await proxy.stop();
      }
    } finally {
      for (const x of instances) await x.stop();
    }
    const clustered = await ctx.startServer({}, { workers: n });
    let cluster: MultiResult["cluster"];
    try {
      const clients = await clientsOn(ctx, clustered.url);
      cluster = {
        ...(await runW2(clients, ctx.plan.sessions.w2, ctx.sizes, clustered.cpuMs)),
        workers: n,
      };
    } finally {
      await clustered.stop();
    }
    return { proxied, cluster, ...(await runPinned(ctx)) };
  },
  render({ proxied, cluster, pinned, pinnedSkipped }, { meta, results }) {
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
      "",
      `W2 per core — k next start instances, each kept on a core of its own with taskset, the client${pinned.length > 0 && (pinned.at(-1)?.serverCores.length ?? 0) > 1 ? " and the proxy" : ""} on the other cores${meta.db === "postgresql" ? "; PostgreSQL's processes are not moved (they share whichever core the scheduler gives them)" : ""}`,
      pinnedSkipped
        ? `  not run: ${pinnedSkipped}`
        : table(
            ["servers on cores", "client on", "turns/s", "per server core", "p50", "p99", "server CPU/turn"],
            pinned.map((x) => [
              x.serverCores.join(","),
              x.clientCores,
              `${round(x.turnsPerSecond)}/s`,
              `${round(x.turnsPerSecond / x.serverCores.length)}/s`,
              fmtMs(x.latency.median),
              fmtMs(x.latency.p99),
              x.cpu.serverMsPerTurn === null ? "—" : fmtMs(x.cpu.serverMsPerTurn),
            ]),
          ),
    ];
  },
});

/** W2 against 1..min(N, cores − 1) instances, each on a core of its own, with the client moved off their cores. */
async function runPinned(ctx: BenchContext): Promise<Pick<MultiResult, "pinned" | "pinnedSkipped">> {
  const { ownCores, pinPlans, pinSelf, startProxy, totalCpuMs } = await import("../multi");
  const before = ownCores();
  const plans = pinPlans(ctx.options.multi);
  if (before === null) return { pinned: [], pinnedSkipped: "taskset is not available here" };
  if (plans.length === 0) return { pinned: [], pinnedSkipped: "one core: no core is left for the client" };
  const pinned: Pinned[] = [];
  for (const plan of plans) {
    ctx.log(
      `  W2 on ${plan.servers.length} instance(s) kept on core(s) ${plan.servers.join(",")}, client on ${plan.client} …`,
    );
    const instances: RunningServer[] = [];
    let proxy: Awaited<ReturnType<typeof startProxy>> | null = null;
    try {
      for (const core of plan.servers) instances.push(await ctx.startServer({}, { cpus: core }));
      const only = instances.length === 1 ? instances[0] : undefined;
      if (!only)
        proxy = await startProxy(
          instances.map((x) => Number(new URL(x.url).port)),
          plan.client,
        );
      const clients = await clientsOn(ctx, only ? only.url : (proxy?.url ?? ""), instances.length);
      pinSelf(plan.client);
      try {
        const cpu = totalCpuMs(instances.map((x) => () => x.cpuMs()));
        const result = await runW2(clients, ctx.plan.sessions.w2, ctx.sizes, cpu);
        pinned.push({ ...result, serverCores: plan.servers, clientCores: plan.client });
      } finally {
        pinSelf(before);
      }
    } finally {
      await proxy?.stop();
      for (const x of instances) await x.stop();
    }
  }
  return { pinned };
}
