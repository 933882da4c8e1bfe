import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ADMIN } from "../e2e/config";
import { buildApp } from "./build";
import { withDatabase } from "./lib/database-url";
import { DEFAULT_POSTGRES_ADMIN_URL, dropDatabase } from "./lib/migrate";

// npm run test:e2e [-- <playwright args>]: `next build` once (skipped with E2E_SKIP_BUILD=1), then for each
// database of the run a fresh database, `npm run setup` against it with known admin credentials, then
// `playwright test`, whose web servers start `next start` on it. The databases are removed afterwards.
//
//   --db sqlite     the whole suite on SQLite
//   --db postgres   on PostgreSQL (E2E_POSTGRES_URL or TEST_POSTGRES_URL names the server; default 127.0.0.1:5432)
//   --db both       (the default) the whole suite on SQLite, then the tests tagged @pg on PostgreSQL. With
//                   E2E_PARALLEL=1 both at the same time: each run has its own database, servers (the PostgreSQL
//                   one on ports shifted by E2E_PORT_OFFSET, e2e/config.ts), browser and test-results/<db> folder,
//                   and its output lines start with [sqlite] or [postgres]. On two cores it gained nothing (fresh-clone
//                   CI runs: 22.6 min side by side, 23.4 min one after the other; decision 040).
//
// E2E_DB=sqlite|postgres|both does the same as --db. When PostgreSQL does not answer, `both` says so loudly and
// runs SQLite only; under CI (CI set) that is a failure. This is a runner outside the app: it reads process.env.

const root = path.resolve(__dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

type Db = "sqlite" | "postgres";
const PG_TAG = "@pg";

/** Ports of the PostgreSQL run when both databases' runs go at once (3210 → 3310, …). */
const POSTGRES_PORT_OFFSET = 100;

const children = new Set<ChildProcess>();
const cleanups = new Set<() => Promise<void>>();

/** Each line of `from` to `to`, starting with `prefix`. */
function prefixLines(from: NodeJS.ReadableStream, to: NodeJS.WriteStream, prefix: string) {
  let rest = "";
  from.setEncoding("utf8");
  from.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) to.write(`${prefix}${line}\n`);
  });
  from.on("end", () => {
    if (rest) to.write(`${prefix}${rest}\n`);
  });
}

/** Runs `command`; with a `prefix`, its output lines start with it (runs that go at once stay readable). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, prefix = ""): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    if (prefix && child.stdout && child.stderr) {
      prefixLines(child.stdout, process.stdout, prefix);
      prefixLines(child.stderr, process.stderr, prefix);
    }
    children.add(child);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
}

function seconds(since: number) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** `--db x` / `--db=x` taken out of the arguments; the rest goes to Playwright. */
export function parseArgs(argv: string[], fallback = "both"): { dbs: Db[]; rest: string[] } {
  const rest: string[] = [];
  let choice = fallback;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--db") choice = argv[++i] ?? "";
    else if (arg.startsWith("--db=")) choice = arg.slice("--db=".length);
    // A bare "--" (tsx scripts/e2e.ts -- e2e/x.spec.ts) would make Playwright ignore the file filter and run all.
    else if (arg !== "--") rest.push(arg);
  }
  const dbs: Record<string, Db[]> = {
    sqlite: ["sqlite"],
    postgres: ["postgres"],
    postgresql: ["postgres"],
    both: ["sqlite", "postgres"],
  };
  const chosen = dbs[choice.toLowerCase()];
  if (!chosen) throw new Error(`--db must be sqlite, postgres or both (got "${choice}")`);
  return { dbs: chosen, rest };
}

function answers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5432) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** A fresh, empty database for one run (`npm run setup` creates and migrates it) and how to remove it. */
function freshDatabase(db: Db, server: string): { url: string; cleanup: () => Promise<void> } {
  if (db === "postgres") {
    const url = withDatabase(server, `recall_e2e_${randomBytes(6).toString("hex")}`);
    return { url, cleanup: () => dropDatabase(url) };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "recall-e2e-"));
  return {
    url: `file:${path.join(dir, "e2e.db")}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  // The tests run against the offline model with the documented defaults, whatever the caller's shell holds.
  for (const name of Object.keys(env)) {
    if (/^(OPENAI_|MEMORY_|OFFLINE_MODEL|CHAT_)/.test(name)) delete env[name];
  }
  const authSecret = process.env.E2E_AUTH_SECRET ?? randomBytes(32).toString("base64url");
  return {
    ...env,
    AUTH_SECRET: authSecret,
    E2E_AUTH_SECRET: authSecret,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_NAME: ADMIN.name,
  };
}

interface Lane {
  db: Db;
  playwrightArgs: string[];
  /** Extra environment: E2E_PORT_OFFSET for the PostgreSQL run beside the SQLite one. */
  env: Record<string, string>;
  /** Playwright's output folder (traces, screenshots of failures). */
  output: string;
  /** Start of each output line ("" when this run is alone). */
  prefix: string;
}

async function runOn(lane: Lane, server: string): Promise<number> {
  const { db, prefix } = lane;
  const { url, cleanup } = freshDatabase(db, server);
  cleanups.add(cleanup);
  const env = { ...baseEnv(), ...lane.env, DATABASE_URL: url, E2E_DATABASE_URL: url };
  try {
    let t = Date.now();
    let code = await run(bin("tsx"), ["scripts/setup.ts"], env, prefix);
    if (code !== 0) return code;
    console.log(`${prefix}e2e[${db}]: database ready in ${seconds(t)}`);
    t = Date.now();
    code = await run(
      bin("playwright"),
      ["test", "--output", lane.output, ...lane.playwrightArgs],
      env,
      prefix,
    );
    console.log(`${prefix}e2e[${db}]: playwright finished in ${seconds(t)} with exit code ${code}`);
    return code;
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

async function main(): Promise<number> {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const child of children) child.kill(signal);
      void Promise.allSettled([...cleanups].map((c) => c())).finally(() => process.exit(130));
    });
  }
  const { dbs, rest } = parseArgs(process.argv.slice(2), process.env.E2E_DB || "both");
  const server = process.env.E2E_POSTGRES_URL || process.env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_ADMIN_URL;

  const lanes: Lane[] = [];
  for (const db of dbs) {
    if (db === "postgres" && !(await answers(server))) {
      const where = new URL(server).host;
      if (process.env.CI || dbs.length === 1) {
        console.error(`e2e: PostgreSQL does not answer on ${where}; the ${PG_TAG} tests cannot run on it.`);
        return 1;
      }
      const line = "!".repeat(100);
      console.warn(
        `\n${line}\n!! e2e: PostgreSQL does not answer on ${where}: the ${PG_TAG} tests were NOT run on PostgreSQL.\n!! Start PostgreSQL or set E2E_POSTGRES_URL; under CI this is a failure.\n${line}\n`,
      );
      continue;
    }
    // With both databases, PostgreSQL runs the tests tagged for it (the SQLite run covers everything).
    const both = dbs.length > 1;
    lanes.push({
      db,
      playwrightArgs: db === "postgres" && both ? [...rest, "--grep", PG_TAG, "--pass-with-no-tests"] : rest,
      env: db === "postgres" && both ? { E2E_PORT_OFFSET: String(POSTGRES_PORT_OFFSET) } : {},
      output: both ? `test-results/${db}` : "test-results",
      prefix: "",
    });
  }
  if (lanes.length === 0) return 0;

  if (process.env.E2E_SKIP_BUILD === "1") {
    console.log("e2e: E2E_SKIP_BUILD=1, using the existing .next build");
  } else {
    // The build needs no database; it sees the run's settings all the same.
    const t = Date.now();
    const code = await buildApp(baseEnv());
    if (code !== 0) return code;
    console.log(`e2e: build done in ${seconds(t)}`);
  }

  if (lanes.length === 1 || process.env.E2E_PARALLEL !== "1") {
    for (const lane of lanes) {
      const code = await runOn(lane, server);
      if (code !== 0) return code;
    }
    return 0;
  }
  const codes = await Promise.all(lanes.map((lane) => runOn({ ...lane, prefix: `[${lane.db}] ` }, server)));
  return codes.find((c) => c !== 0) ?? 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
