import { execFileSync, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { BenchError } from "./http";
import { onCores, processGroupCpuMs } from "./server";

// `--multi N`: W2 against N `next start` instances behind scripts/bench/proxy.mjs, a round-robin proxy in its own
// process (so its CPU is counted, and it does not share the client's event loop).

export interface RunningProxy {
  url: string;
  cpuMs(): number | null;
  stop(): Promise<void>;
}

export async function startProxy(ports: number[], cpus?: string): Promise<RunningProxy> {
  const child = spawn(
    ...onCores(
      process.execPath,
      [path.join(ROOT, "scripts", "bench", "proxy.mjs"), ...ports.map(String)],
      cpus,
    ),
    {
      stdio: ["ignore", "pipe", "inherit"],
      detached: true, // its own process group: cpuMs() reads it, stop() ends it
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new BenchError("could not start the proxy");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new BenchError("the proxy did not start within 10 s")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new BenchError(`the proxy exited (code ${code}) before it listened`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    cpuMs: () => processGroupCpuMs(pid),
    stop: async () => {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {
        return;
      }
      await exited;
    },
  };
}

// Per-core figures: servers kept on their own cores with `taskset`, the bench's client (and the proxy) on the
// others, so what a core of server does is not shared with the load generator. PostgreSQL's processes are the
// machine's own and are not moved: they run wherever the scheduler puts them.

/** The core list this process may run on (`taskset -cp`), or null where taskset is missing or refuses. */
export function ownCores(): string | null {
  try {
    const out = execFileSync("taskset", ["-cp", String(process.pid)], { encoding: "utf8", stdio: "pipe" });
    return /:\s*([\d,-]+)\s*$/.exec(out.trim())?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The CPU time of several processes together; null when any of them cannot be read. */
export function totalCpuMs(readers: readonly (() => number | null)[]): () => number | null {
  return () => {
    let total = 0;
    for (const read of readers) {
      const ms = read();
      if (ms === null) return null;
      total += ms;
    }
    return total;
  };
}

/** Keeps every thread of this process on `cpus` (a taskset core list). */
export function pinSelf(cpus: string): void {
  execFileSync("taskset", ["-a", "-cp", cpus, String(process.pid)], { stdio: "pipe" });
}

/** Core lists for k servers on cores 0..k-1 and the client on the rest: one plan per k the machine allows. */
export function pinPlans(
  maxServers: number,
  cores = os.cpus().length,
): { servers: string[]; client: string }[] {
  const plans = [];
  for (let k = 1; k <= Math.min(maxServers, cores - 1); k++) {
    plans.push({
      servers: Array.from({ length: k }, (_, i) => String(i)),
      client: k === cores - 1 ? String(k) : `${k}-${cores - 1}`,
    });
  }
  return plans;
}
