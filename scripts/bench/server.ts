import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { type BuildStamp, checkBuild } from "../lib/build-stamp";
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

export function freePort(): Promise<number> {
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
    ...extra,
  };
}

export interface RunningServer {
  url: string;
  pid: number;
  /** The last lines the server printed (for error reports). */
  output(): string;
  /** CPU time (user + system) used so far by the server's processes; null where /proc is not available. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

export async function startServer(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    path.join(ROOT, "node_modules", ".bin", "next"),
    ["start", "-H", "127.0.0.1", "-p", String(port)],
    // Its own process group, so stop() ends the server and whatever it started, and nothing else.
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
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
  return { url, pid, output, stop, cpuMs: () => processGroupCpuMs(pid) };
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
