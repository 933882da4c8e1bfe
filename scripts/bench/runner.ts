import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BuildStamp } from "../lib/build-stamp";
import { dialectOf } from "../lib/database-url";
import { migrateDatabase, redactUrl } from "../lib/migrate";
import { ROOT } from "../lib/paths";
import { FULL, type Options, QUICK, type Sizes } from "./config";
import { Client } from "./http";
import { type Inspector, openInspector } from "./inspect";
import { buildPlan, FACTS, turnContent } from "./plan";
import { WORKLOADS } from "./registry";
import type { BenchContext, Check, Phase, RegisteredWorkload, ReportContext } from "./registry/types";
import { fmtInt, fmtSeconds, type Target } from "./report";
import { seed, seedFacts } from "./seed";
import { BUILD_ID, MEASURED_SETTINGS, type RunningServer, serverEnv, startServer } from "./server";
import { databaseFor, errorText, gitCommit, jsonRound, log } from "./setup";
import { round } from "./stats";

// One bench run: a database of its own, migrated and seeded; then each phase starts what its workloads need (an
// in-process pipeline, a server with the right model delays), runs them in registry order and stops it; then the
// generic report of every workload's figures, targets and checks, and bench-results/<time>-<db>.json.

export interface RunResults {
  meta: Record<string, unknown>;
  setup: { migrateMs: number; seed: { users: number; sessions: number; messages: number; ms: number } };
  /** Each workload's result, by its id. */
  workloads: Record<string, unknown>;
  checks: Check[];
  targets: Target[];
  errors: string[];
}

const PHASES: Phase[] = ["inprocess", "main", "slow", "streaming", "own", "after"];

export function sizesFor(options: Options): Sizes {
  const base: Sizes = options.quick ? QUICK : FULL;
  return {
    ...base,
    ...(options.w6 ? { w6Streams: options.w6 } : {}),
    ...(options.w9 ? { w9Rates: options.w9 } : {}),
  };
}

export async function runBench(options: Options, build: BuildStamp | null): Promise<number> {
  const sizes = sizesFor(options);
  const startedAt = new Date();
  const { url, cleanup } = await databaseFor(options);
  const dialect = dialectOf(url);
  const authSecret = randomBytes(32).toString("base64url");
  const results: RunResults = {
    meta: {
      db: dialect,
      url: redactUrl(url),
      quick: options.quick,
      memoryPolicy: options.memoryPolicy,
      startedAt: startedAt.toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverageAtStart: os.loadavg().map((l) => round(l)),
      commit: gitCommit(),
      buildId: readFileSync(BUILD_ID, "utf8").trim(),
      build,
      sizes,
    },
    setup: { migrateMs: 0, seed: { users: 0, sessions: 0, messages: 0, ms: 0 } },
    workloads: {},
    checks: [],
    targets: [],
    errors: [],
  };
  const handles: Handles = { servers: [], started: [], inspector: null };
  const { servers } = handles;
  const closeInspector = async () => {
    await handles.inspector?.close();
    handles.inspector = null;
  };
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop();
    await closeInspector();
  };
  const onSignal = () => {
    void stopAll().finally(() => cleanup().finally(() => process.exit(130)));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const unknown = options.only?.filter((id) => !WORKLOADS.some((w) => w.id === id)) ?? [];
  if (unknown.length) throw new Error(`--only: no workload ${unknown.join(", ")}`);
  const enabled = WORKLOADS.filter(
    (w) => (w.enabled?.(options) ?? true) && (!options.only || options.only.includes(w.id)),
  );
  log(`${options.quick ? "quick (smoke)" : "full"} run on ${dialect} (${redactUrl(url)})`);
  try {
    const t = performance.now();
    await migrateDatabase(url);
    results.setup.migrateMs = performance.now() - t;

    // Seeded users all share one password, hashed once at the lowest cost (sign-in is not what is measured).
    const password = randomBytes(12).toString("base64url");
    const { hashPassword } = await import("@/lib/auth/password");
    const plan = buildPlan(sizes, await hashPassword(password, 4), password);
    log(`seeding ${fmtInt(plan.seed.sessions.reduce((a, s) => a + s.messages, 0))} messages …`);
    results.setup.seed = await seed(url, plan.seed);
    await seedFacts(url, { session: plan.sessions.w1Facts.with, count: FACTS });
    const s = results.setup.seed;
    log(
      `seeded ${fmtInt(s.users)} users, ${fmtInt(s.sessions)} sessions, ${fmtInt(s.messages)} messages in ` +
        `${fmtSeconds(s.ms)} (${fmtInt(Math.round((s.messages / s.ms) * 1000))} rows/s)`,
    );

    const open = phaseOpeners(
      { options, sizes, plan, url, dialect, authSecret, startedAt, log, results: results.workloads },
      handles,
    );

    for (const phase of PHASES) {
      const workloads = enabled.filter((w) => w.phase === phase);
      if (!workloads.length) continue;
      const { ctx, close } = await open[phase]();
      try {
        for (const w of workloads) {
          log(w.describe(sizes, options));
          results.workloads[w.id] = await w.run(ctx);
        }
      } finally {
        await close();
      }
      if (phase === "main") await closeInspector();
    }
  } catch (error) {
    results.errors.push(errorText(error));
    // Every server started, stopped or not: a phase's own close stops its server before the error arrives here.
    for (const s of handles.started)
      console.error(`--- last output of the server on ${s.url}:\n${s.output()}`);
  } finally {
    await stopAll();
    if (options.keep) log(`kept the database: ${redactUrl(url)}`);
    else
      await cleanup().catch((e: unknown) => results.errors.push(`could not drop the database: ${String(e)}`));
  }

  const report: ReportContext = { sizes, meta: results.meta, results: results.workloads, targets: [] };
  const ran = enabled.filter((w) => w.id in results.workloads);
  report.targets = ran.flatMap((w) => w.targets?.(results.workloads[w.id] as never, report) ?? []);
  results.targets = report.targets;
  results.checks = ran.flatMap((w) => w.checks?.(results.workloads[w.id] as never, report) ?? []);
  results.meta.loadAverageAtEnd = os.loadavg().map((l) => round(l));
  results.meta.wallMs = Date.now() - startedAt.getTime();
  console.log(`\n${renderRun(results, ran, report)}`);
  const dir = path.join(ROOT, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, "-")}-${dialect}.json`);
  writeFileSync(file, `${JSON.stringify(results, jsonRound, 2)}\n`);
  log(`results written to ${path.relative(ROOT, file)}`);

  const failedChecks = results.checks.filter((x) => !x.ok);
  if (results.errors.length) {
    console.error(`\nbench: FAILED with ${results.errors.length} error(s):\n${results.errors.join("\n")}`);
    return 1;
  }
  if (failedChecks.length) {
    console.error(
      `\nbench: FAILED invariant(s):\n${failedChecks.map((x) => `  ${x.name}: ${x.detail ?? ""}`).join("\n")}`,
    );
    return 1;
  }
  if (options.quick) log(SMOKE_NOTE);
  return 0;
}

interface Handles {
  servers: RunningServer[];
  /** Every server the run started, kept for their last output when the run fails. */
  started: RunningServer[];
  inspector: Inspector | null;
}

/**
 * What each phase starts for its workloads and how it is stopped: the instrumented pipeline, the measured server
 * with its signed-in users, the servers whose offline model waits or streams slowly, or nothing.
 */
function phaseOpeners(shared: Omit<BenchContext, "startServer">, handles: Handles) {
  const { options, sizes, plan, url, authSecret } = shared;
  const start = async (
    extra: Record<string, string> = {},
    opts: { workers?: number; cpus?: string } = {},
  ) => {
    const server = await startServer(
      serverEnv({
        DATABASE_URL: url,
        AUTH_SECRET: authSecret,
        MEMORY_POLICY: options.memoryPolicy,
        ...extra,
      }),
      opts,
    );
    handles.servers.push(server);
    handles.started.push(server);
    const stop = server.stop.bind(server);
    server.stop = async () => {
      const i = handles.servers.indexOf(server);
      if (i >= 0) handles.servers.splice(i, 1);
      await stop();
    };
    return server;
  };
  const base: BenchContext = { ...shared, startServer: start };
  // The owner's sign-in, shared by the servers (same secret) through Client.withBase.
  let owner: Client | undefined;

  const openers: Record<Phase, () => Promise<{ ctx: BenchContext; close: () => Promise<void> }>> = {
    async inprocess() {
      const { loadPipeline } = await import("./inprocess");
      const pipeline = await loadPipeline(url, authSecret, MEASURED_SETTINGS);
      return { ctx: { ...base, pipeline }, close: () => pipeline.close() };
    },
    async main() {
      handles.inspector = await openInspector(url);
      const t0 = performance.now();
      const server = await start();
      log(`next start answered on ${server.url} after ${fmtSeconds(performance.now() - t0)}`);
      owner = new Client(server.url, plan.owner.email);
      const admin = new Client(server.url, plan.admin.email);
      const w2Clients = plan.w2Users.map((u) => new Client(server.url, u.email));
      await owner.signIn(plan.owner.email, plan.password);
      await admin.signIn(plan.admin.email, plan.password);
      for (const [i, c] of w2Clients.entries()) await c.signIn(plan.w2Users[i]?.email ?? "", plan.password);
      for (let i = 0; i < sizes.serverWarmupTurns; i++) {
        await owner.turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
      }
      return {
        ctx: { ...base, server, inspector: handles.inspector, owner, admin, w2Clients },
        close: () => server.stop(),
      };
    },
    async slow() {
      const server = await start({ OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w3FirstTokenDelayMs) });
      return { ctx: { ...base, server, owner: await ownerOn(server) }, close: () => server.stop() };
    },
    async streaming() {
      const server = await start({
        OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w6FirstTokenDelayMs),
        OFFLINE_MODEL_TOKEN_DELAY_MS: String(sizes.w6TokenDelayMs),
      });
      return { ctx: { ...base, server, owner: await ownerOn(server) }, close: () => server.stop() };
    },
    async own() {
      return { ctx: base, close: async () => {} };
    },
    async after() {
      handles.inspector ??= await openInspector(url);
      return { ctx: { ...base, inspector: handles.inspector }, close: async () => {} };
    },
  };
  const ownerOn = async (server: RunningServer) => {
    if (owner) return owner.withBase(server.url);
    const c = new Client(server.url, plan.owner.email);
    await c.signIn(plan.owner.email, plan.password);
    return c;
  };
  return openers;
}

const SMOKE_NOTE =
  "this was a SMOKE RUN (--quick): it checks the invariants above (statements and rows per turn the same at every H, " +
  "no full scan of ChatMessage, zero rows left after a delete, consistent sessions, every streamed answer complete); " +
  "its timings come from reduced sizes and are not a measurement";

/** The generic report: a header, each workload's own section in registry order, then checks and targets. */
export function renderRun(r: RunResults, ran: RegisteredWorkload[], report: ReportContext): string {
  const m = r.meta;
  const load = (m.loadAverageAtStart as number[]).join(" ");
  const out: string[] = [
    `Recall benchmark — ${m.db}, ${m.quick ? "quick SMOKE run (invariants only, not a measurement)" : "full run"}, memory policy ${m.memoryPolicy ?? "window"}, ${String(m.startedAt).slice(0, 16).replace("T", " ")} UTC, ` +
      `node ${m.node}, ${m.cpus} × ${m.cpuModel}, load average ${load} at start, ${m.commit ?? "no git"}`,
  ];
  const s = r.setup.seed;
  out.push(
    `Setup: migrations ${fmtSeconds(r.setup.migrateMs)}; seeded ${fmtInt(s.messages)} messages in ${fmtInt(s.sessions)} ` +
      `sessions of ${fmtInt(s.users)} users in ${fmtSeconds(s.ms)} (${fmtInt(Math.round((s.messages / Math.max(s.ms, 1)) * 1000))} rows/s)`,
  );
  for (const w of ran) out.push(...w.render(r.workloads[w.id] as never, report));
  out.push("", "Checks");
  for (const c of r.checks)
    out.push(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}${c.ok || !c.detail ? "" : `: ${c.detail}`}`);
  const passed = r.targets.filter((x) => x.pass).length;
  const missed = r.targets.filter((x) => !x.pass);
  out.push(
    "",
    `Targets${m.quick ? " (smoke run: shown, not judged)" : ""}: ${passed} of ${r.targets.length} met${
      missed.length
        ? ` — missed: ${missed.map((x) => `${x.label} ${x.display} (target ${x.target})`).join("; ")}`
        : ""
    }`,
    `Load average at end: ${(m.loadAverageAtEnd as number[] | undefined)?.join(" ") ?? "?"}; wall ${fmtSeconds(Number(m.wallMs ?? 0))}`,
  );
  if (r.errors.length) out.push("", "ERRORS", ...r.errors.map((e) => `  ${e.split("\n")[0]}`));
  return out.join("\n");
}
