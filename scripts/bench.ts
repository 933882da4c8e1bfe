import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FULL, type Options, parseOptions, QUICK, type Sizes, USAGE } from "./bench/config";
import { BenchError, Client } from "./bench/http";
import { checkSessionIntegrity, type Inspector, openInspector } from "./bench/inspect";
import { buildPlan, turnContent } from "./bench/plan";
import { fmtInt, fmtMs, fmtSeconds, type Target, table, verdict } from "./bench/report";
import { seed } from "./bench/seed";
import {
  assertBuilt,
  BUILD_ID,
  MEASURED_SETTINGS,
  type RunningServer,
  serverEnv,
  startServer,
} from "./bench/server";
import { round } from "./bench/stats";
import {
  type CountResult,
  type CpuUse,
  countStatements,
  probeAdminApi,
  runW1,
  runW2,
  runW3,
  runW4,
  runW5,
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
  w2?: W2Result;
  w3?: W3Result;
  w4?: W4Result;
  w5?: W5Result;
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
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const build = assertBuilt(log);
  const sizes: Sizes = options.quick ? QUICK : FULL;
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
    log(`W2: ${sizes.w2Users} users × ${sizes.w2Turns} turns, concurrently …`);
    results.w2 = await runW2(w2Clients, plan.sessions.w2, sizes, server.cpuMs);
    log(`W4: admin API over ${fmtInt(sizes.w4Sessions)} sessions …`);
    const longSession = plan.sessions.w1.at(-1);
    results.w4 = await runW4(admin, plan, sizes, longSession);
    const adminApi = !results.w4.skipped && (await probeAdminApi(admin)) === null;
    log(`W5: deleting a session of ${fmtInt(sizes.w5Messages)} messages …`);
    results.w5 = await runW5(owner, admin, adminApi, plan.sessions.w5, inspector);
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
    await stopAll();

    // Invariants, checked on the database itself.
    inspector = await openInspector(url);
    const touched = [...plan.sessions.w1, ...plan.sessions.count, ...plan.sessions.w2, plan.sessions.w3];
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
    const pgStats = (results.w1 ?? []).filter((row) => row.chatMessagePerTurn);
    if (pgStats.length) {
      const scans = pgStats.filter((row) => (row.chatMessagePerTurn?.seqScans ?? 0) > 0);
      results.checks.push({
        name: "over HTTP, PostgreSQL's own statistics show no sequential scan of ChatMessage at any H",
        ok: scans.length === 0,
        ...(scans.length ? { detail: scans.map((row) => `H=${row.h}`).join(", ") } : {}),
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

/** Keeps the JSON readable: latencies to 0.01 ms, no raw sample arrays longer than needed. */
function jsonRound(_key: string, value: unknown) {
  return typeof value === "number" && !Number.isInteger(value) ? round(value) : value;
}

function targets(r: Results, sizes: Sizes): Target[] {
  const out: Target[] = [];
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
  if (r.w2) {
    out.push({
      id: "w2.throughput",
      label: `W2 throughput, ${r.w2.users} users`,
      value: r.w2.turnsPerSecond,
      display: `${round(r.w2.turnsPerSecond)} turns/s`,
      target: sizes === FULL ? "≥ 250 turns/s" : "≥ 250 turns/s (issue: 20 users)",
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
