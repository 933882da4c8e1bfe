import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type BuildStamp, checkBuild } from "../lib/build-stamp";
import { serverNodeOptions } from "../lib/node-options";
import { ROOT } from "../lib/paths";
import { BenchError } from "./http";

// Starts the existing production build (`next start`) on a free port against the benchmark's database. The
// benchmark never builds: `npm test` builds before it (in its e2e step), and a developer runs `npm run build`.

export const BUILD_ID = path.join(ROOT, ".next", "BUILD_ID");

/**
 * Refuses a build that is not of this working tree (scripts/lib/build-stamp.ts): measuring another version's
 * build would report numbers for code that is not here. Returns the build's record, or null when unknown.
 */
export function assertBuilt(log: (message: string) => void): BuildStamp | null {
  const { problem, warning, stamp } = checkBuild();
  if (problem) throw new BenchError(problem);
  if (warning) log(`warning: ${warning}`);
  return stamp ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** App settings that change what a turn does; the benchmark runs with their documented defaults. */
export const MEASURED_SETTINGS = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "OPENAI_API_STYLE",
  "CHAT_SYSTEM_PROMPT",
  "CHAT_MAX_INPUT_CHARS",
  "MEMORY_ENABLED",
  "MEMORY_MAX_MESSAGES",
  "MEMORY_POLICY",
  "MEMORY_MAX_TOKENS",
  // Recall and long-term memory too: the in-process phase sets MEMORY_RECALL=off in the benchmark's own process
  // (its statement counts must not depend on what earlier turns said), and before this list named it, every
  // server started after that phase inherited it — full runs measured W1, W2, W3, W6 and W9 with recall off.
  "MEMORY_RECALL",
  "MEMORY_RECALL_MAX_TOKENS",
  "MEMORY_EXTRACTION",
  "LONG_TERM_MEMORY",
  "LONG_TERM_MEMORY_MAX_TOKENS",
  "EMBEDDINGS_MODEL",
  "EMBEDDINGS_BASE_URL",
  "OFFLINE_MODEL",
  "MODELS_CONFIG",
  "TOOL_MAX_STEPS",
  "MCP_SERVERS",
  "MODEL_CONTEXT_TOKENS",
  "MODEL_FIRST_BYTE_TIMEOUT_MS",
  "MODEL_IDLE_TIMEOUT_MS",
  "TURN_LEASE_SECONDS",
  "OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS",
  "OFFLINE_MODEL_TOKEN_DELAY_MS",
  "NEXTAUTH_URL",
];

/**
 * The server's environment: the caller's, with every measured setting at its default. They are set to "" rather
 * than deleted: lib/env.ts reads "" as unset, and Next.js never lets a .env file override a variable that is set,
 * so a developer's .env (say, with an OPENAI_API_KEY) cannot change what the benchmark measures.
 */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of MEASURED_SETTINGS) env[name] = "";
  return {
    ...env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_TRUST_HOST: "true",
    RATE_LIMIT_TURNS_PER_MINUTE: "100000", // the limiter still runs (its cost is measured), never refuses
    // W8's recall rows sign up a user per conversation of the recall benchmark: more than an address may per hour.
    RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "100000",
    ...extra,
  };
}

/** Event-loop delay inside one server process between two marks (scripts/bench/probe.cjs). */
export interface LoopDelay {
  pid: number;
  wallMs: number;
  samples: number;
  maxMs: number;
  p99Ms: number;
  p50Ms: number;
  meanMs: number;
}

export interface Probe {
  /** Event-loop delay of every node process of the server since the previous mark (or since start). */
  mark(): Promise<LoopDelay[]>;
  profileStart(): Promise<void>;
  /** Stops the profiler; returns the .cpuprofile files written (one per node process). */
  profileStop(): Promise<string[]>;
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Which checkout it serves (ROOT, or a --compare worktree). */
  root: string;
  probe: Probe;
  /** Resident memory (VmRSS) of all the server's processes now, in KiB; null without /proc. */
  rssKiB(): number | null;
  /** The last lines the server printed (for error reports). */
  output(): string;
  /** CPU time (user + system) used so far by the server's processes; null where /proc is not available. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

const PROBE = path.join(ROOT, "scripts", "bench", "probe.cjs");

/** `command args`, kept with everything it starts on the `taskset -c` core list `cpus` when one is given. */
export function onCores(command: string, args: string[], cpus: string | undefined): [string, string[]] {
  return cpus === undefined ? [command, args] : ["taskset", ["-c", cpus, command, ...args]];
}

export async function startServer(
  env: NodeJS.ProcessEnv,
  {
    timeoutMs = 60_000,
    root = ROOT,
    workers = 0,
    cpus,
  }: {
    timeoutMs?: number;
    root?: string;
    /** > 0: that many workers of one node:cluster on the port (scripts/bench/cluster.cjs) instead of `next start`. */
    workers?: number;
    /** A `taskset -c` core list the server and everything it starts are kept on (unset: any core). */
    cpus?: string;
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The probe (event-loop delay, CPU profile on request) is preloaded into every node process of the server.
  const probeDir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-probe-"));
  const [command, args] =
    workers > 0
      ? [
          process.execPath,
          [path.join(ROOT, "scripts", "bench", "cluster.cjs"), String(workers), String(port)],
        ]
      : [
          path.join(root, "node_modules", ".bin", "next"),
          // Idle keep-alive sockets stay open two minutes, as in the e2e servers: with Node's 5 s, a workload that
          // pauses its requests longer (W8 indexing W1's history) reused a socket the server was closing ("socket
          // hang up").
          ["start", "-H", "127.0.0.1", "-p", String(port), "--keepAliveTimeout", "120000"],
        ];
  const child: ChildProcess = spawn(
    ...onCores(command, args, cpus),
    // Its own process group, so stop() ends the server and whatever it started, and nothing else.
    {
      cwd: root,
      env: {
        ...env,
        NODE_OPTIONS: serverNodeOptions([env.NODE_OPTIONS, `--require ${PROBE}`].filter(Boolean).join(" ")),
        RECALL_BENCH_PROBE_DIR: probeDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = code ?? (signal ? -1 : 0);
      resolve();
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new BenchError("could not start next start");

  const stop = async () => {
    if (exited !== undefined) return;
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 5000);
    await exit;
    clearTimeout(timer);
    rmSync(probeDir, { recursive: true, force: true });
  };
  const output = () => lines.join("\n");

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) {
      throw new BenchError(`next start exited (code ${exited}) before it answered:\n${output()}`);
    }
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new BenchError(
        `next start did not answer /api/health within ${timeoutMs / 1000} s:\n${output()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid,
    root,
    output,
    stop,
    cpuMs: () => processGroupCpuMs(pid),
    rssKiB: () => processGroupRssKiB(pid),
    probe: probeOf(probeDir),
  };
}

/** Sends a command to every probed process of a server and waits until each has done it. */
function probeOf(dir: string): Probe {
  let signals = 0;
  const command = async (name: string): Promise<number[]> => {
    const pids = readdirSync(dir)
      .filter((f) => f.startsWith("pid-"))
      .map((f) => Number(f.slice(4)));
    if (pids.length === 0) throw new BenchError("the server's probe did not start (scripts/bench/probe.cjs)");
    writeFileSync(path.join(dir, "command"), name);
    const n = ++signals;
    for (const pid of pids) process.kill(pid, "SIGUSR2");
    const deadline = Date.now() + 30_000;
    for (const pid of pids) {
      const ack = path.join(dir, `ack-${pid}-${n}`);
      while (!existsSync(ack)) {
        if (Date.now() > deadline)
          throw new BenchError(`the server's probe (pid ${pid}) did not answer ${name}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const error = readFileSync(ack, "utf8");
      if (error) throw new BenchError(`the server's probe (pid ${pid}) failed ${name}: ${error}`);
    }
    return pids;
  };
  return {
    async mark() {
      const pids = await command("mark");
      const n = signals;
      return pids.map((pid) => JSON.parse(readFileSync(path.join(dir, `loop-${pid}-${n}.json`), "utf8")));
    },
    async profileStart() {
      await command("profile-start");
    },
    async profileStop() {
      const pids = await command("profile-stop");
      return pids.map((pid) => path.join(dir, `cpu-${pid}.cpuprofile`)).filter((f) => existsSync(f));
    },
  };
}

/** Sums VmRSS of the processes in process group `pgid` (Linux /proc), in KiB. */
function processGroupRssKiB(pgid: number): number | null {
  let dirs: string[];
  try {
    dirs = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let kib = 0;
  for (const dir of dirs) {
    try {
      const stat = readFileSync(`/proc/${dir}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${dir}/status`, "utf8"));
      kib += Number(rss?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kib;
}

/** Clock ticks per second of /proc/<pid>/stat times: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** Sums utime + stime of the processes in process group `pgid` (Linux /proc). */
export function processGroupCpuMs(pgid: number): number | null {
  let dirs: string[];
  try {
    dirs = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const dir of dirs) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${dir}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after "(comm)": state ppid pgrp … utime (14th field of the line) stime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
