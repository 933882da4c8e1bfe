import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderW7, runW7, W7_TARGET_RATIO, type W7Result, w7RowPass } from "./bench/attachments";
import { compareSizes, FULL, type Options, parseOptions, QUICK, type Sizes, USAGE } from "./bench/config";
import { BenchError, Client } from "./bench/http";
import { checkSessionIntegrity, type Inspector, openInspector } from "./bench/inspect";
import { buildPlan, FACTS, turnContent } from "./bench/plan";
import { type ProfileSummary, summarizeProfile } from "./bench/profile";
import { fmtInt, fmtMs, fmtSeconds, type Target, table, verdict } from "./bench/report";
import { seed, seedFacts } from "./bench/seed";
import {
  assertBuilt,
  BUILD_ID,
  MEASURED_SETTINGS,
  type RunningServer,
  serverEnv,
  startServer,
} from "./bench/server";
import { round, summarize } from "./bench/stats";
import { runW6, type W6Result, warmW6, worstLoop } from "./bench/streams";
import {
  branchSession,
  type CountResult,
  type CpuUse,
  countBranchedStatements,
  countStatements,
  probeAdminApi,
  runW1,
  runW1Facts,
  runW2,
  runW3,
  runW4,
  runW5,
  signature,
  type W1FactsResult,
  type W1Row,
  type W2Result,
  type W3Result,
  type W4Result,
  type W5Result,
} from "./bench/workloads";
import { withPgClient } from "./lib/adapters";
import { dialectOf, postgresDatabaseName, withDatabase } from "./lib/database-url";
import { createDatabase, dropDatabase, migrateDatabase, redactUrl } from "./lib/migrate";
import { ROOT } from "./lib/paths";

// npm run bench [-- --quick] [-- --db sqlite|postgres|<url>]: issue 5's benchmark. It creates and seeds its own
// database, counts the statements of a turn in-process, then serves the existing production build with
// `next start` and measures over HTTP as signed-in users: W1 turn cost vs history length, W2 concurrency, W3
// streaming overhead (on a second server whose offline model waits before its first token), W4 the admin API at
// scale, W5 deleting a long session. It prints a table and writes bench-results/<time>-<db>.json.
// A script, not the app: it reads process.env itself. It never builds and never takes the build lock.

const DEFAULT_POSTGRES_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

interface Results {
  meta: Record<string, unknown>;
  setup: { migrateMs: number; seed: { users: number; sessions: number; messages: number; ms: number } };
  counts?: CountResult;
  w1?: W1Row[];
  w1Cpu?: CpuUse;
  /** W1B (issue 13): W1 on conversations made trees first (an edit at the middle, then a regenerate). */
  w1b?: { rows: W1Row[]; cpu: CpuUse };
  /** W1B's statements and rows per steady turn on the branch, in-process. */
  w1bCounts?: Awaited<ReturnType<typeof countBranchedStatements>>;
  /** W1F: W1 for a user with 1 000 long-term facts beside one with none. */
  w1Facts?: W1FactsResult;
  w2?: W2Result;
  w3?: W3Result;
  w4?: W4Result;
  w5?: W5Result;
  w6?: W6Result[];
  /** W7 (issue 12): a turn whose window holds 4 images vs a text-only turn. */
  w7?: W7Result;
  /** --multi: W2 against several instances behind a proxy. */
  w2Multi?: W2Result & { instances: number };
  /** --multi: the same W2 against one node:cluster of as many workers on one port (no proxy). */
  w2Cluster?: W2Result & { workers: number };
  /** --profile: the server's CPU profile during a W1 pass, by package. */
  profile?: ProfileSummary & { file: string; turns: number };
  checks: { name: string; ok: boolean; detail?: string }[];
  targets: Target[];
  errors: string[];
}

async function databaseFor(options: Options): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const kind = options.db.toLowerCase();
  if (kind === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
    return {
      url: `file:${path.join(dir, "bench.db")}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === "postgres" || kind === "postgresql") {
    const server = process.env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_SERVER;
    const url = withDatabase(server, `recall_bench_${randomBytes(5).toString("hex")}`);
    return { url, cleanup: () => dropDatabase(url) };
  }
  // An explicit URL: it must not exist yet, so the benchmark never writes into (or drops) someone's data.
  const url = options.db;
  if (dialectOf(url) === "sqlite") {
    const file = url.replace(/^file:/, "");
    if (existsSync(path.resolve(ROOT, file)))
      throw new BenchError(`--db ${url}: the file exists; give a new path`);
  } else {
    const name = postgresDatabaseName(url);
    const exists = await withPgClient(withDatabase(url), async (c) =>
      Boolean((await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount),
    );
    if (exists) throw new BenchError(`--db ${redactUrl(url)}: database "${name}" exists; name a new one`);
  }
  await createDatabase(url);
  return { url, cleanup: () => dropDatabase(url) };
}

function gitCommit(): string | null {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const dirty = execFileSync("git", ["status", "--porcelain"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return `${sha.toString().trim()}${dirty.length ? " (with uncommitted changes)" : ""}`;
  } catch {
    return null;
  }
}

const log = (message: string) => console.log(`bench: ${message}`);

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--flood")) return (await import("./bench/flood")).runFlood(argv).then(() => 0); // issue 9
  if (argv.includes("--attachments")) return (await import("./bench/attachments")).runAttachmentsBench(argv); // issue 12
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const build = assertBuilt(log);
  if (options.compare) return runCompare(options, options.compare);
  const base: Sizes = options.quick ? QUICK : FULL;
  const sizes: Sizes = options.w6 ? { ...base, w6Streams: options.w6 } : base;
  const startedAt = new Date();
  const { url, cleanup } = await databaseFor(options);
  const dialect = dialectOf(url);
  const authSecret = randomBytes(32).toString("base64url");
  const results: Results = {
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
    checks: [],
    targets: [],
    errors: [],
  };
  const servers: RunningServer[] = [];
  let inspector: Inspector | null = null;
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop();
    await inspector?.close();
    inspector = null;
  };
  const onSignal = () => {
    void stopAll().finally(() => cleanup().finally(() => process.exit(130)));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  log(`${options.quick ? "quick" : "full"} run on ${dialect} (${redactUrl(url)})`);
  try {
    let t = performance.now();
    await migrateDatabase(url);
    results.setup.migrateMs = performance.now() - t;

    // Seeded users all share one password, hashed once at bcrypt cost 4 (sign-in is not what is measured).
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
    inspector = await openInspector(url);

    // Statements and rows per turn, in-process on an instrumented client.
    log("counting the statements of a turn (in-process) …");
    const { loadPipeline } = await import("./bench/inprocess");
    const pipeline = await loadPipeline(url, authSecret, MEASURED_SETTINGS);
    try {
      results.counts = await countStatements(pipeline, plan, sizes, dialect);
      results.w1bCounts = await countBranchedStatements(pipeline, plan, sizes);
    } finally {
      await pipeline.close();
    }

    // The real app over HTTP.
    t = performance.now();
    const server = await startServer(
      serverEnv({ DATABASE_URL: url, AUTH_SECRET: authSecret, MEMORY_POLICY: options.memoryPolicy }),
    );
    servers.push(server);
    log(`next start answered on ${server.url} after ${fmtSeconds(performance.now() - t)}`);
    const owner = new Client(server.url, plan.owner.email);
    const admin = new Client(server.url, plan.admin.email);
    const w2Clients = plan.w2Users.map((u) => new Client(server.url, u.email));
    for (const [c, email] of [
      [owner, plan.owner.email],
      [admin, plan.admin.email],
      ...w2Clients.map((c, i) => [c, plan.w2Users[i]?.email ?? ""] as const),
    ] as const) {
      await c.signIn(email, plan.password);
    }
    for (let i = 0; i < sizes.serverWarmupTurns; i++) {
      await owner.turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
    }

    log(`W1: ${sizes.w1Turns} turns, one at a time, at H = ${sizes.histories.map(fmtInt).join(", ")} …`);
    const w1 = await runW1(owner, plan.sessions.w1, sizes, inspector, server.cpuMs);
    results.w1 = w1.rows;
    results.w1Cpu = w1.cpu;
    log(`W1B: the same on branched conversations (an edit at the middle, then a regenerate) …`);
    for (const session of plan.sessions.w1b) await branchSession(owner, session);
    const w1b = await runW1(owner, plan.sessions.w1b, sizes, null, server.cpuMs);
    results.w1b = { rows: w1b.rows, cpu: w1b.cpu };
    log(`W1F: ${sizes.w1Turns * 2} turns each for a user with ${FACTS} long-term facts and one with none …`);
    const factsClient = new Client(server.url, plan.factsUser.email);
    await factsClient.signIn(plan.factsUser.email, plan.password);
    results.w1Facts = await runW1Facts(
      { client: owner, session: plan.sessions.w1Facts.without },
      { client: factsClient, session: plan.sessions.w1Facts.with },
      sizes,
      FACTS,
    );
    if (options.profile) {
      log(`profiling the server during a W1 pass (${sizes.w1Turns} turns per H) …`);
      results.profile = await profileW1(server, owner, plan.sessions.w1, sizes.w1Turns, startedAt);
    }
    log(`W2: ${sizes.w2Users} users × ${sizes.w2Turns} turns, concurrently …`);
    results.w2 = await runW2(w2Clients, plan.sessions.w2, sizes, server.cpuMs);
    log(`W4: admin API over ${fmtInt(sizes.w4Sessions)} sessions …`);
    const longSession = plan.sessions.w1.at(-1);
    results.w4 = await runW4(admin, plan, sizes, longSession);
    const adminApi = !results.w4.skipped && (await probeAdminApi(admin)) === null;
    log(`W5: deleting a session of ${fmtInt(sizes.w5Messages)} messages …`);
    results.w5 = await runW5(owner, admin, adminApi, plan.sessions.w5, inspector);
    log(`W7: ${sizes.w1Turns} turns whose window holds 4 images, against text-only turns …`);
    results.w7 = await runW7(owner, inspector, sizes.w1Turns);
    await server.stop();
    servers.splice(servers.indexOf(server), 1);

    log(`W3: a second server whose model waits ${sizes.w3FirstTokenDelayMs} ms before its first token …`);
    const slow = await startServer(
      serverEnv({
        DATABASE_URL: url,
        AUTH_SECRET: authSecret,
        OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w3FirstTokenDelayMs),
      }),
    );
    servers.push(slow);
    results.w3 = await runW3(owner.withBase(slow.url), plan.sessions.w3, sizes);
    await slow.stop();
    servers.splice(servers.indexOf(slow), 1);

    log(
      `W6: ${sizes.w6Streams.map(fmtInt).join(" then ")} answers streaming at once, ${sizes.w6TokenDelayMs} ms per token …`,
    );
    const streaming = await startServer(
      serverEnv({
        DATABASE_URL: url,
        AUTH_SECRET: authSecret,
        MEMORY_POLICY: options.memoryPolicy,
        OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w6FirstTokenDelayMs),
        OFFLINE_MODEL_TOKEN_DELAY_MS: String(sizes.w6TokenDelayMs),
      }),
    );
    servers.push(streaming);
    await warmW6(owner.withBase(streaming.url), plan.sessions.w6Warmup, sizes.serverWarmupTurns);
    results.w6 = [];
    for (const group of plan.sessions.w6) {
      const w6 = await runW6(owner.withBase(streaming.url), group, streaming, {
        firstTokenDelayMs: sizes.w6FirstTokenDelayMs,
        tokenDelayMs: sizes.w6TokenDelayMs,
        timeoutMs: sizes.w6TimeoutMs,
      });
      results.w6.push(w6);
      log(
        `W6 N=${w6.n}: ${w6.completed} completed, ${w6.failed} failed, overhead p99 ${fmtMs(w6.overheadMs.p99)}, ` +
          `event loop max ${fmtMs(worstLoop(w6.loop).maxMs)}`,
      );
    }
    await stopAll();

    if (options.multi > 1) {
      log(`W2 on ${options.multi} instances behind a round-robin proxy …`);
      const { startProxy } = await import("./bench/multi");
      const instances: RunningServer[] = [];
      for (let i = 0; i < options.multi; i++) {
        const instance = await startServer(
          serverEnv({ DATABASE_URL: url, AUTH_SECRET: authSecret, MEMORY_POLICY: options.memoryPolicy }),
        );
        instances.push(instance);
        servers.push(instance);
      }
      const proxy = await startProxy(instances.map((x) => Number(new URL(x.url).port)));
      try {
        const clients = plan.w2Users.map((u) => new Client(proxy.url, u.email));
        for (const [i, c] of clients.entries()) await c.signIn(plan.w2Users[i]?.email ?? "", plan.password);
        // Warm every instance the way the single server was warmed (the proxy alternates between them).
        for (let i = 0; i < sizes.serverWarmupTurns * options.multi; i++) {
          await owner.withBase(proxy.url).turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
        }
        const cpu = () => {
          const all = [...instances.map((x) => x.cpuMs()), proxy.cpuMs()];
          return all.some((x) => x === null) ? null : all.reduce((a, b) => (a ?? 0) + (b ?? 0), 0);
        };
        results.w2Multi = {
          ...(await runW2(clients, plan.sessions.w2, sizes, cpu)),
          instances: options.multi,
        };
      } finally {
        await proxy.stop();
        await stopAll();
      }
      log(`W2 on one node:cluster of ${options.multi} workers …`);
      const clustered = await startServer(
        serverEnv({ DATABASE_URL: url, AUTH_SECRET: authSecret, MEMORY_POLICY: options.memoryPolicy }),
        { workers: options.multi },
      );
      servers.push(clustered);
      try {
        const clients = plan.w2Users.map((u) => new Client(clustered.url, u.email));
        for (const [i, c] of clients.entries()) await c.signIn(plan.w2Users[i]?.email ?? "", plan.password);
        for (let i = 0; i < sizes.serverWarmupTurns * options.multi; i++) {
          await owner.withBase(clustered.url).turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
        }
        results.w2Cluster = {
          ...(await runW2(clients, plan.sessions.w2, sizes, clustered.cpuMs)),
          workers: options.multi,
        };
      } finally {
        await stopAll();
      }
    }

    // Invariants, checked on the database itself.
    inspector = await openInspector(url);
    const touched = [
      ...plan.sessions.w1,
      ...plan.sessions.w1b,
      ...plan.sessions.count,
      ...plan.sessions.countBranched,
      ...plan.sessions.w2,
      plan.sessions.w3,
      ...plan.sessions.w6.flat(),
    ];
    const broken: string[] = [];
    for (const x of touched) {
      const problem = await checkSessionIntegrity(inspector, x.id);
      if (problem) broken.push(problem);
    }
    results.checks.push({
      name: `seq gap-free, lastSeq exact and one snapshot row, in all ${touched.length} sessions that took turns`,
      ok: broken.length === 0,
      ...(broken.length ? { detail: broken.join("; ") } : {}),
    });
    const c = results.counts;
    results.checks.push({
      name: "a steady turn sends the same statements with the same row counts at every H",
      ok: c.sameAtEveryH,
      ...(c.sameAtEveryH
        ? {}
        : { detail: c.rows.map((r) => `H=${r.h}: ${r.steady.statements} stmts`).join(", ") }),
    });
    results.checks.push({
      name: "no full scan of ChatMessage in any statement of a turn (query plans)",
      ok: c.fullScansOfChatMessage.length === 0,
      ...(c.fullScansOfChatMessage.length ? { detail: c.fullScansOfChatMessage.join("\n") } : {}),
    });
    const branched = results.w1bCounts;
    if (branched) {
      results.checks.push({
        name: "on a branch too, a steady turn sends the same statements with the same row counts at every H",
        ok: branched.sameAtEveryH,
        ...(branched.sameAtEveryH
          ? {}
          : { detail: branched.rows.map((r) => `H=${r.h}: ${signature(r.steady)}`).join("\n") }),
      });
    }
    const pgStats = (results.w1 ?? []).filter((row) => row.chatMessagePerTurn);
    if (pgStats.length) {
      const scans = pgStats.filter((row) => (row.chatMessagePerTurn?.seqScans ?? 0) > 0);
      results.checks.push({
        name: "over HTTP, PostgreSQL's own statistics show no sequential scan of ChatMessage at any H",
        ok: scans.length === 0,
        ...(scans.length ? { detail: scans.map((row) => `H=${row.h}`).join(", ") } : {}),
      });
    }
    for (const w6 of results.w6 ?? []) {
      results.checks.push({
        name: `W6: all ${fmtInt(w6.n)} streamed answers completed`,
        ok: w6.failed === 0,
        ...(w6.failed ? { detail: w6.errors.map((e) => `${e.count}× ${e.message}`).join("; ") } : {}),
      });
    }
    results.checks.push({
      name: `W5: zero rows left for the deleted session (${results.w5.via})`,
      ok: results.w5.rowsLeft === 0,
      detail: JSON.stringify(results.w5.after),
    });
    await inspector.close();
    inspector = null;
  } catch (error) {
    results.errors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    for (const s of servers) console.error(`--- last output of the server on ${s.url}:\n${s.output()}`);
  } finally {
    await stopAll();
    if (options.keep) log(`kept the database: ${redactUrl(url)}`);
    else
      await cleanup().catch((e: unknown) => results.errors.push(`could not drop the database: ${String(e)}`));
  }

  results.targets = targets(results, sizes);
  results.meta.loadAverageAtEnd = os.loadavg().map((l) => round(l));
  results.meta.wallMs = Date.now() - startedAt.getTime();
  console.log(`\n${render(results, sizes)}`);
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
  return 0;
}

/**
 * A separate pass of W1's turns (interleaved across H, like W1) with the server's CPU profiler on: the profiler's
 * own cost stays out of the W1 figures. The .cpuprofile is kept under bench-results/ and summarized by package.
 */
async function profileW1(
  server: RunningServer,
  client: Client,
  sessions: { id: string }[],
  turnsPerH: number,
  startedAt: Date,
): Promise<ProfileSummary & { file: string; turns: number }> {
  await server.probe.profileStart();
  let turns = 0;
  for (let i = 0; i < turnsPerH; i++) {
    for (const session of sessions) {
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
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, "-")}-w1.cpuprofile`);
  writeFileSync(file, readFileSync(best.f));
  return { ...best.s, file: path.relative(ROOT, file), turns };
}

export function renderProfile(p: ProfileSummary & { turns: number }): string[] {
  const out = [
    `CPU profile of the server during ${p.turns} W1 turns — self time by package (${fmtMs(p.busyMs / p.turns)} busy per turn; idle excluded)`,
  ];
  out.push(
    table(
      ["package", "self time", "per turn", "share"],
      p.groups
        .filter((g) => g.share >= 0.005)
        .map((g) => [g.group, fmtMs(g.ms), fmtMs(g.ms / p.turns), `${(g.share * 100).toFixed(1)} %`]),
    ),
  );
  out.push("  top functions by self time:");
  for (const f of p.top.slice(0, 12)) {
    out.push(
      `    ${`${(f.share * 100).toFixed(1)} %`.padStart(7)}  ${f.fn}  ${f.where.slice(-70)}  [${f.group}]`,
    );
  }
  return out;
}

function renderW6(rows: W6Result[], sizes: Sizes): string[] {
  const out = [
    `W6 many open streams — N answers started at once, offline model: ${sizes.w6FirstTokenDelayMs} ms to the first token, then ${sizes.w6TokenDelayMs} ms per token (${round(1000 / sizes.w6TokenDelayMs)} tokens/s); overhead = turn wall time − the model's own time = start (request → first text byte − first-token delay: queued behind the other N − 1 starts) + stream (first text byte → end − the model's token delays, commit included)`,
  ];
  out.push(
    table(
      [
        "N",
        "completed",
        "failed",
        "peak open",
        "tokens",
        "answer (median)",
        "model time",
        "overhead p50",
        "p99",
        "max",
        "target",
        "",
        "start p50",
        "p99",
        "stream p50",
        "p99",
        "loop max",
        "loop p99",
        "target",
        "",
        "RSS before → max",
        "wall",
      ],
      rows.map((w) => {
        const loop = worstLoop(w.loop);
        return [
          fmtInt(w.n),
          w.completed,
          w.failed,
          w.peakOpen,
          w.tokens.median,
          fmtMs(w.totalMs.median),
          fmtMs(w.modelMs.median),
          fmtMs(w.overheadMs.median),
          fmtMs(w.overheadMs.p99),
          fmtMs(w.overheadMs.max),
          "p99 < 50 ms",
          verdict(w.overheadMs.p99 < 50),
          fmtMs(w.startOverheadMs.median),
          fmtMs(w.startOverheadMs.p99),
          fmtMs(w.streamOverheadMs.median),
          fmtMs(w.streamOverheadMs.p99),
          fmtMs(loop.maxMs),
          fmtMs(loop.p99Ms),
          "max ≤ 50 ms",
          verdict(loop.maxMs <= 50),
          `${fmtMib(w.rssKiB.before)} → ${fmtMib(w.rssKiB.max)}`,
          fmtSeconds(w.wallMs),
        ];
      }),
    ),
  );
  for (const w of rows) {
    out.push(
      `  N=${fmtInt(w.n)}: ${round(w.tokensPerSecond)} tokens/s per answer (median, whole turn); first text byte median ${fmtMs(w.firstDeltaMs.median)}, p99 ${fmtMs(w.firstDeltaMs.p99)}; ` +
        `≤ ${fmtInt(w.heartbeatStatementsMax)} heartbeat statements for all answers (one batched renewal + one batched draft save a second); server CPU ${w.serverCpuMs === null ? "—" : `${fmtMs(w.serverCpuMs / Math.max(w.completed, 1))} per answer`}`,
    );
    for (const e of w.errors) out.push(`    FAILED ${e.count}×: ${e.message}`);
  }
  return out;
}

const fmtMib = (kib: number | null) => (kib === null ? "—" : `${Math.round(kib / 1024)} MiB`);

// ------------------------------------------------------------------------------------------------ --compare

interface Side {
  label: string;
  root: string;
  url: string;
  cleanup: () => Promise<void>;
}

interface CompareFigure {
  figure: string;
  here: number;
  other: number;
}

/**
 * `--compare <ref>`: the same workloads against this build and a build of <ref>, in one run. Each build gets its
 * own database, migrated by its own commit and seeded with the same plan (same ids, same histories), so a schema
 * change between the two never breaks either. W1 is interleaved turn by turn (round i: every H on one build, then
 * every H on the other, the order alternating by round); W3 turn by turn; W6 block by block.
 */
async function runCompare(options: Options, ref: string): Promise<number> {
  const kind = options.db.toLowerCase();
  if (!["sqlite", "postgres", "postgresql"].includes(kind)) {
    throw new BenchError("--compare needs --db sqlite or --db postgres (it creates one database per build)");
  }
  const base: Sizes = options.quick ? QUICK : FULL;
  const sizes = compareSizes(options.w6 ? { ...base, w6Streams: options.w6 } : base);
  const startedAt = new Date();
  const { migrateWithOther, prepareOther } = await import("./bench/compare");
  const other = prepareOther(ref, log);
  log(
    `--compare: ${other.ref} built in ${fmtSeconds(other.buildMs)}; node_modules: ${other.modules}; migrations ` +
      `${other.sameMigrations ? "identical" : `differ (${other.migrations.here} here, ${other.migrations.there} there): each build gets its own database`}`,
  );
  const sides: Side[] = [];
  const servers: RunningServer[] = [];
  const figures: CompareFigure[] = [];
  const errors: string[] = [];
  const stopAll = async () => {
    for (const x of servers.splice(0)) await x.stop();
  };
  try {
    const a = await databaseFor(options);
    sides.push({ label: "this", root: ROOT, ...a });
    const b = await databaseFor(options);
    sides.push({ label: other.commit.slice(0, 8), root: other.root, ...b });
    await migrateDatabase(a.url);
    migrateWithOther(other, b.url);
    const password = randomBytes(12).toString("base64url");
    // bcrypt, which every version of Recall verifies (newer ones upgrade it to scrypt at sign-in).
    const { default: bcrypt } = await import("bcryptjs");
    const plan = buildPlan(sizes, await bcrypt.hash(password, 4), password);
    for (const side of sides) {
      const seeded = await seed(side.url, plan.seed);
      log(`seeded ${fmtInt(seeded.messages)} messages for ${side.label} in ${fmtSeconds(seeded.ms)}`);
    }
    const authSecret = randomBytes(32).toString("base64url");
    const start = async (side: Side, extra: Record<string, string> = {}) => {
      const server = await startServer(
        serverEnv({
          DATABASE_URL: side.url,
          AUTH_SECRET: authSecret,
          MEMORY_POLICY: options.memoryPolicy,
          ...extra,
        }),
        { root: side.root },
      );
      servers.push(server);
      return server;
    };
    const both = <T>(fn: (i: number) => Promise<T>) => Promise.all([fn(0), fn(1)]);

    // W1, interleaved turn by turn across builds and H.
    const main = await both((i) => start(sides[i] as Side));
    const owners = main.map((x) => new Client(x.url, plan.owner.email));
    for (const c of owners) await c.signIn(plan.owner.email, password);
    for (let i = 0; i < sizes.serverWarmupTurns; i++) {
      for (const c of owners) await c.turn(plan.sessions.warmup.id, turnContent("Warm-up", i));
    }
    log(`W1 on both builds: ${sizes.w1Turns} turns per H, interleaved …`);
    for (const session of plan.sessions.w1) {
      for (let i = 0; i < sizes.w1WarmupTurns; i++) {
        for (const c of owners) await c.turn(session.id, turnContent("W1 warm-up", i));
      }
    }
    const w1 = [0, 1].map(() => plan.sessions.w1.map(() => [] as number[]));
    // Each server's own CPU over the block: less sensitive than latency to what else runs on the machine.
    const cpuBefore = main.map((x) => x.cpuMs());
    for (let i = 0; i < sizes.w1Turns; i++) {
      for (const s of i % 2 ? [1, 0] : [0, 1]) {
        for (let k = 0; k < plan.sessions.w1.length; k++) {
          const j = (i + k) % plan.sessions.w1.length;
          const t = await (owners[s] as Client).turn(
            (plan.sessions.w1[j] as { id: string }).id,
            turnContent("W1", i),
          );
          w1[s]?.[j]?.push(t.totalMs);
        }
      }
    }
    for (const [j, session] of plan.sessions.w1.entries()) {
      const [x, y] = [0, 1].map((s) => summarize(w1[s]?.[j] ?? []));
      if (!x || !y) continue;
      figures.push({ figure: `W1 median, H = ${fmtInt(session.messages)}`, here: x.median, other: y.median });
      figures.push({ figure: `W1 p90, H = ${fmtInt(session.messages)}`, here: x.p90, other: y.p90 });
    }
    const all = [0, 1].map((s) => summarize((w1[s] ?? []).flat()));
    figures.push({
      figure: "W1 median, all H",
      here: all[0]?.median ?? Number.NaN,
      other: all[1]?.median ?? Number.NaN,
    });
    const cpuPerTurn = main.map((x, s) => {
      const [a, b] = [cpuBefore[s], x.cpuMs()];
      const turns = (w1[s] ?? []).flat().length;
      return a === null || a === undefined || b === null ? Number.NaN : (b - a) / turns;
    });
    figures.push({
      figure: "W1 server CPU per turn",
      here: cpuPerTurn[0] ?? Number.NaN,
      other: cpuPerTurn[1] ?? Number.NaN,
    });
    await stopAll();

    // W3, turn by turn.
    log("W3 on both builds …");
    const slow = await both((i) =>
      start(sides[i] as Side, { OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w3FirstTokenDelayMs) }),
    );
    const slowOwners = slow.map((x, i) => (owners[i] as Client).withBase(x.url));
    for (let i = 0; i < 3; i++)
      for (const c of slowOwners) await c.turn(plan.sessions.w3.id, turnContent("W3 warm-up", i));
    const w3 = [[], []] as { first: number; meta: number }[][];
    for (let i = 0; i < sizes.w3Turns; i++) {
      for (const s of i % 2 ? [1, 0] : [0, 1]) {
        const t = await (slowOwners[s] as Client).turn(plan.sessions.w3.id, turnContent("W3", i));
        w3[s]?.push({ first: t.firstDeltaMs - sizes.w3FirstTokenDelayMs, meta: t.firstByteMs });
      }
    }
    const w3s = w3.map((xs) => ({
      first: summarize(xs.map((x) => x.first)),
      meta: summarize(xs.map((x) => x.meta)),
    }));
    figures.push({
      figure: "W3 first model byte − delay, median",
      here: w3s[0]?.first.median ?? Number.NaN,
      other: w3s[1]?.first.median ?? Number.NaN,
    });
    figures.push({
      figure: "W3 first byte (meta), median",
      here: w3s[0]?.meta.median ?? Number.NaN,
      other: w3s[1]?.meta.median ?? Number.NaN,
    });
    await stopAll();

    // W6 at its smallest N, block by block.
    const group = plan.sessions.w6[0];
    if (group?.length) {
      log(`W6 on both builds: ${group.length} answers at once …`);
      const streaming = await both((i) =>
        start(sides[i] as Side, {
          OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: String(sizes.w6FirstTokenDelayMs),
          OFFLINE_MODEL_TOKEN_DELAY_MS: String(sizes.w6TokenDelayMs),
        }),
      );
      for (const s of [0, 1]) {
        await warmW6(
          (owners[s] as Client).withBase((streaming[s] as RunningServer).url),
          plan.sessions.w6Warmup,
          sizes.serverWarmupTurns,
        );
      }
      const w6: W6Result[] = [];
      for (const s of [0, 1]) {
        w6[s] = await runW6(
          (owners[s] as Client).withBase((streaming[s] as RunningServer).url),
          group,
          streaming[s] as RunningServer,
          {
            firstTokenDelayMs: sizes.w6FirstTokenDelayMs,
            tokenDelayMs: sizes.w6TokenDelayMs,
            timeoutMs: sizes.w6TimeoutMs,
          },
        );
        if (w6[s]?.failed)
          errors.push(
            `W6 on ${sides[s]?.label}: ${w6[s]?.failed} answers failed: ${JSON.stringify(w6[s]?.errors)}`,
          );
      }
      const [x, y] = w6 as [W6Result, W6Result];
      figures.push({
        figure: `W6 N=${group.length} overhead p50`,
        here: x.overheadMs.median,
        other: y.overheadMs.median,
      });
      figures.push({
        figure: `W6 N=${group.length} overhead p99`,
        here: x.overheadMs.p99,
        other: y.overheadMs.p99,
      });
      figures.push({
        figure: `W6 N=${group.length} stream overhead p99`,
        here: x.streamOverheadMs.p99,
        other: y.streamOverheadMs.p99,
      });
      figures.push({
        figure: `W6 N=${group.length} event-loop max`,
        here: worstLoop(x.loop).maxMs,
        other: worstLoop(y.loop).maxMs,
      });
      figures.push({
        figure: `W6 N=${group.length} event-loop p99`,
        here: worstLoop(x.loop).p99Ms,
        other: worstLoop(y.loop).p99Ms,
      });
      figures.push({
        figure: `W6 N=${group.length} server CPU per answer`,
        here: (x.serverCpuMs ?? Number.NaN) / Math.max(x.completed, 1),
        other: (y.serverCpuMs ?? Number.NaN) / Math.max(y.completed, 1),
      });
      figures.push({
        figure: `W6 N=${group.length} server RSS max (MiB)`,
        here: (x.rssKiB.max ?? Number.NaN) / 1024,
        other: (y.rssKiB.max ?? Number.NaN) / 1024,
      });
      await stopAll();
    }
  } catch (error) {
    errors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    for (const x of servers) console.error(`--- last output of the server on ${x.url}:\n${x.output()}`);
  } finally {
    await stopAll();
    for (const side of sides) {
      if (options.keep) log(`kept the database: ${redactUrl(side.url)}`);
      else
        await side.cleanup().catch((e: unknown) => errors.push(`could not drop the database: ${String(e)}`));
    }
    other.remove();
  }

  const head = `Recall benchmark — --compare: this tree (${gitCommit() ?? "?"}) vs ${other.ref} (${other.commit.slice(0, 12)}), ${options.db}, ${options.quick ? "quick" : "full"} sizes, ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${os
    .loadavg()
    .map((l) => round(l))
    .join(" ")} at end`;
  const lines = [
    "",
    head,
    `  each build on its own database (migrations ${other.sameMigrations ? "identical" : `differ: ${other.migrations.here} here, ${other.migrations.there} in ${other.ref}`}), seeded with the same plan; W1 and W3 interleaved turn by turn, W6 block by block`,
    table(
      ["figure", "this", other.ref, "ratio this/other"],
      figures.map((f) => [
        f.figure,
        fmtNum(f.figure, f.here),
        fmtNum(f.figure, f.other),
        `${round(f.here / f.other)}×`,
      ]),
    ),
  ];
  console.log(lines.join("\n"));
  const dir = path.join(ROOT, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `${startedAt.toISOString().replace(/[:.]/g, "-")}-compare-${other.commit.slice(0, 8)}.json`,
  );
  writeFileSync(
    file,
    `${JSON.stringify({ ref: other.ref, commit: other.commit, here: gitCommit(), db: options.db, quick: options.quick, modules: other.modules, sameMigrations: other.sameMigrations, figures, errors }, jsonRound, 2)}\n`,
  );
  log(`results written to ${path.relative(ROOT, file)}`);
  if (errors.length) {
    console.error(`\nbench: FAILED with ${errors.length} error(s):\n${errors.join("\n")}`);
    return 1;
  }
  return 0;
}

const fmtNum = (figure: string, v: number) => (figure.includes("MiB") ? `${Math.round(v)} MiB` : fmtMs(v));

/** Keeps the JSON readable: latencies to 0.01 ms, no raw sample arrays longer than needed. */
function jsonRound(_key: string, value: unknown) {
  return typeof value === "number" && !Number.isInteger(value) ? round(value) : value;
}

function targets(r: Results, sizes: Sizes): Target[] {
  const out: Target[] = [];
  if (r.w1Facts) {
    out.push({
      id: "w1f.ratio",
      label: `W1 with ${fmtInt(r.w1Facts.facts)} long-term facts / without (median, H = ${fmtInt(r.w1Facts.history)})`,
      value: r.w1Facts.ratio,
      display: `${round(r.w1Facts.ratio)}× (${fmtMs(r.w1Facts.with.median)} vs ${fmtMs(r.w1Facts.without.median)})`,
      target: "≤ 1.2",
      pass: r.w1Facts.ratio <= 1.2,
    });
  }
  for (const row of r.w1 ?? []) {
    out.push({
      id: `w1.median.h${row.h}`,
      label: `W1 median turn at H = ${fmtInt(row.h)}`,
      value: row.turns.median,
      display: fmtMs(row.turns.median),
      target: "≤ 10 ms",
      pass: row.turns.median <= 10,
    });
  }
  const last = r.w1?.at(-1);
  if (last && r.w1 && r.w1.length > 1) {
    const atTarget = last.h === 100_000;
    out.push({
      id: `w1.ratio.h${last.h}`,
      label: `W1 ratio median(H = ${fmtInt(last.h)}) / median(H = ${fmtInt(r.w1[0]?.h ?? 10)})`,
      value: last.ratio,
      display: `${round(last.ratio)}×`,
      target: atTarget ? "≤ 1.2" : "≤ 1.2 (issue: at H = 100 000)",
      pass: last.ratio <= 1.2,
    });
  }
  const lastB = r.w1b?.rows.at(-1);
  if (lastB && r.w1b && r.w1b.rows.length > 1) {
    out.push({
      id: `w1b.ratio.h${lastB.h}`,
      label: `W1B (branched) ratio median(H = ${fmtInt(lastB.h)}) / median(H = ${fmtInt(r.w1b.rows[0]?.h ?? 10)})`,
      value: lastB.ratio,
      display: `${round(lastB.ratio)}×`,
      target: "≤ 1.2",
      pass: lastB.ratio <= 1.2,
    });
  }
  if (r.w2) {
    out.push({
      id: "w2.throughput",
      label: `W2 throughput, ${r.w2.users} users`,
      value: r.w2.turnsPerSecond,
      display: `${round(r.w2.turnsPerSecond)} turns/s`,
      target: sizes.w2Users === FULL.w2Users ? "≥ 250 turns/s" : "≥ 250 turns/s (issue: 20 users)",
      pass: r.w2.turnsPerSecond >= 250,
    });
    out.push({
      id: "w2.p99",
      label: `W2 p99 latency, ${r.w2.users} users`,
      value: r.w2.latency.p99,
      display: fmtMs(r.w2.latency.p99),
      target: "≤ 100 ms",
      pass: r.w2.latency.p99 <= 100,
    });
  }
  for (const row of r.w7?.rows ?? []) {
    out.push({
      id: `w7.ratio.${row.kind}`,
      label: `W7 median turn with 4 ${row.kind} in the window / text-only`,
      value: row.ratio,
      display: `${round(row.ratio)}×`,
      target: `≤ ${W7_TARGET_RATIO}`,
      pass: w7RowPass(row),
    });
  }
  if (r.w3) {
    out.push({
      id: "w3.overhead",
      label: "W3 first model byte − model delay, median",
      value: r.w3.overhead.median,
      display: fmtMs(r.w3.overhead.median),
      target: "< 15 ms",
      pass: r.w3.overhead.median < 15,
    });
  }
  return out;
}

function cpuLine(cpu: CpuUse): string {
  const server =
    cpu.serverMsPerTurn === null
      ? "server CPU not measured (no /proc)"
      : `server CPU ${fmtMs(cpu.serverMsPerTurn)} per turn (${round(cpu.serverCores ?? 0)} of a core busy)`;
  return `${server}; benchmark client CPU ${fmtMs(cpu.clientMsPerTurn)} per turn`;
}

function render(r: Results, sizes: Sizes): string {
  const m = r.meta;
  const out: string[] = [];
  const load = (m.loadAverageAtStart as number[]).join(" ");
  out.push(
    `Recall benchmark — ${m.db}, ${m.quick ? "quick" : "full"} run, memory policy ${m.memoryPolicy ?? "window"}, ${String(m.startedAt).slice(0, 16).replace("T", " ")} UTC, ` +
      `node ${m.node}, ${m.cpus} × ${m.cpuModel}, load average ${load} at start, ${m.commit ?? "no git"}`,
  );
  const s = r.setup.seed;
  out.push(
    `Setup: migrations ${fmtSeconds(r.setup.migrateMs)}; seeded ${fmtInt(s.messages)} messages in ${fmtInt(s.sessions)} ` +
      `sessions of ${fmtInt(s.users)} users in ${fmtSeconds(s.ms)} (${fmtInt(Math.round((s.messages / Math.max(s.ms, 1)) * 1000))} rows/s)`,
  );

  if (r.counts) {
    const c = r.counts;
    out.push(
      "",
      "Per-turn SQL — the turn pipeline in-process on an instrumented driver (HTTP adds 1: the user lookup)",
    );
    out.push(
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
    );
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
  }

  if (r.w1) {
    out.push(
      "",
      `W1 turn cost vs history length — ${sizes.w1Turns} turns per H over HTTP, one at a time, interleaved across H; request → end of stream`,
    );
    out.push(
      table(
        [
          "H",
          "median",
          "p90",
          "max",
          "first turn (rebuild)",
          "ratio",
          "target",
          "",
          ...(r.w1[0]?.chatMessagePerTurn ? ["ChatMessage rows/turn (pg stats)"] : []),
        ],
        r.w1.map((row) => {
          const pass = row.turns.median <= 10;
          return [
            fmtInt(row.h),
            fmtMs(row.turns.median),
            fmtMs(row.turns.p90),
            fmtMs(row.turns.max),
            fmtMs(row.warmupMs[0]),
            `${round(row.ratio)}×`,
            "median ≤ 10 ms",
            verdict(pass),
            ...(row.chatMessagePerTurn
              ? [
                  `${round(row.chatMessagePerTurn.indexRowsFetched)} by index, ${round(row.chatMessagePerTurn.seqRowsRead)} by seq scan`,
                ]
              : []),
          ];
        }),
      ),
    );
    const ratio = r.targets.find((x) => x.id.startsWith("w1.ratio"));
    if (ratio) out.push(`  ${ratio.label}: ${ratio.display} (target ${ratio.target}) ${verdict(ratio.pass)}`);
    if (r.w1Cpu) out.push(`  ${cpuLine(r.w1Cpu)}`);
  }

  if (r.w1b?.rows.length) {
    const b = r.w1b;
    out.push(
      "",
      `W1B turn cost on a branched conversation — per H a session made a tree first (an edit of the question after the assistant message in the middle of its history, then a regenerate of that answer); ${sizes.w1Turns} turns per H on the new branch, interleaved across H`,
    );
    out.push(
      table(
        [
          "H",
          "branch at seq",
          "median",
          "p90",
          "max",
          "first turn",
          "ratio",
          "steady turn: stmts",
          "rows read",
          "rows written",
        ],
        b.rows.map((row, i) => {
          const count = r.w1bCounts?.rows[i];
          return [
            fmtInt(row.h),
            count ? fmtInt(count.branchSeq) : "—",
            fmtMs(row.turns.median),
            fmtMs(row.turns.p90),
            fmtMs(row.turns.max),
            fmtMs(row.warmupMs[0]),
            `${round(row.ratio)}×`,
            count ? count.steady.statements : "—",
            count ? count.steady.rowsRead : "—",
            count ? count.steady.rowsWritten : "—",
          ];
        }),
      ),
    );
    const ratio = r.targets.find((x) => x.id.startsWith("w1b.ratio"));
    if (ratio) out.push(`  ${ratio.label}: ${ratio.display} (target ${ratio.target}) ${verdict(ratio.pass)}`);
    const steady = r.w1bCounts?.rows[0]?.steady;
    if (steady)
      out.push(
        `  steady turn on the branch: ${steady.shape.map((x) => `${x.verb}${x.table ? ` ${x.table}→${x.rows}` : ""}`).join(", ")}`,
      );
    out.push(`  ${cpuLine(b.cpu)}`);
  }

  if (r.w1Facts) {
    const f = r.w1Facts;
    const target = r.targets.find((x) => x.id === "w1f.ratio");
    out.push(
      "",
      `W1F long-term memory — a user with ${fmtInt(f.facts)} facts beside one with none, H = ${fmtInt(f.history)}, ${f.with.n} turns each, interleaved`,
      `  median ${fmtMs(f.with.median)} vs ${fmtMs(f.without.median)}, p90 ${fmtMs(f.with.p90)} vs ${fmtMs(f.without.p90)}: ${round(f.ratio)}× (target ≤ 1.2) ${target ? verdict(target.pass) : ""}`,
    );
  }

  if (r.w2) {
    const w = r.w2;
    out.push(
      "",
      `W2 concurrency — ${w.users} users, each in their own session (H = ${fmtInt(sizes.w2History)}), ${w.turnsPerUser} turns each, all at once`,
    );
    out.push(
      table(
        ["turns", "wall", "turns/s", "target", "", "p50", "p99", "target", ""],
        [
          [
            w.users * w.turnsPerUser,
            fmtSeconds(w.wallMs),
            `${round(w.turnsPerSecond)}/s`,
            "≥ 250/s",
            verdict(w.turnsPerSecond >= 250),
            fmtMs(w.latency.median),
            fmtMs(w.latency.p99),
            "p99 ≤ 100 ms",
            verdict(w.latency.p99 <= 100),
          ],
        ],
      ),
    );
    out.push(`  ${cpuLine(w.cpu)}`);
  }

  if (r.w3) {
    const w = r.w3;
    out.push(
      "",
      `W3 streaming overhead — offline model waits ${w.delayMs} ms before its first token; ${sizes.w3Turns} turns`,
    );
    out.push(
      table(
        ["measure", "median", "p90", "target", ""],
        [
          [
            "first model byte − delay",
            fmtMs(w.overhead.median),
            fmtMs(w.overhead.p90),
            "median < 15 ms",
            verdict(w.overhead.median < 15),
          ],
          ["first byte (meta event)", fmtMs(w.firstByte.median), fmtMs(w.firstByte.p90), "", ""],
          ["whole turn", fmtMs(w.total.median), fmtMs(w.total.p90), "", ""],
        ],
      ),
    );
  }

  if (r.w6?.length) out.push("", ...renderW6(r.w6, sizes));

  if (r.w2Multi) {
    const w = r.w2Multi;
    const cores = Number(r.meta.cpus) || 1;
    out.push(
      "",
      `W2 on one machine with ${w.instances} processes — ${w.instances} next start instances on one database behind a round-robin proxy (its own process), or one node:cluster of ${w.instances} workers on one port; ${w.users} users × ${w.turnsPerUser} turns; ${cores} cores shared by the servers, the proxy, the client${r.meta.db === "postgresql" ? " and PostgreSQL" : ""}`,
    );
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
    out.push(
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
          ...(r.w2 ? [row("1 process", r.w2)] : []),
          row(`${w.instances} processes + proxy`, w),
          ...(r.w2Cluster ? [row(`cluster of ${r.w2Cluster.workers}`, r.w2Cluster)] : []),
        ],
      ),
    );
  }

  if (r.profile) out.push("", ...renderProfile(r.profile));

  if (r.w4) {
    const w = r.w4;
    out.push(
      "",
      `W4 admin at scale — ${w.skipped ? "SKIPPED" : `${fmtInt(w.messages ?? 0)} messages across ${fmtInt(w.sessions ?? 0)} sessions; median of ${sizes.w4Repeats} requests`}`,
    );
    if (w.skipped) out.push(`  ${w.skipped}`);
    else {
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
      );
      out.push(
        `  walked all ${w.pages} pages once (${fmtSeconds(w.walkMs ?? 0)}): every session exactly once`,
      );
    }
  }

  if (r.w5) {
    const w = r.w5;
    out.push("", `W5 delete — a session of ${fmtInt(w.messages)} messages via ${w.via}`);
    out.push(
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
    );
  }

  if (r.w7) out.push("", ...renderW7(r.w7));

  out.push("", "Checks");
  for (const c of r.checks)
    out.push(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}${c.ok || !c.detail ? "" : `: ${c.detail}`}`);
  const passed = r.targets.filter((x) => x.pass).length;
  out.push(
    "",
    `Targets: ${passed} of ${r.targets.length} met${
      r.targets.length - passed
        ? ` — missed: ${r.targets
            .filter((x) => !x.pass)
            .map((x) => `${x.label} ${x.display} (target ${x.target})`)
            .join("; ")}`
        : ""
    }`,
  );
  out.push(
    `Load average at end: ${(r.meta.loadAverageAtEnd as number[] | undefined)?.join(" ") ?? "?"}; wall ${fmtSeconds(Number(r.meta.wallMs ?? 0))}`,
  );
  if (r.errors.length) out.push("", "ERRORS", ...r.errors.map((e) => `  ${e.split("\n")[0]}`));
  return out.join("\n");
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof BenchError ? `bench: ${e.message}` : e);
    process.exit(1);
  },
);
