import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { BenchError } from "./http";
import { processGroupCpuMs } from "./server";

// `--multi N`: W2 against N `next start` instances behind scripts/bench/proxy.mjs, a round-robin proxy in its own
// process (so its CPU is counted, and it does not share the client's event loop).

export interface RunningProxy {
  url: string;
  cpuMs(): number | null;
  stop(): Promise<void>;
}

export async function startProxy(ports: number[]): Promise<RunningProxy> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "scripts", "bench", "proxy.mjs"), ...ports.map(String)],
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
