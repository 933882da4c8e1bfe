import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { configFromInput, type McpServerConfig } from "./config";

// Starting scripts/mcp-test-server.ts from tests: over stdio (a config the manager spawns) or over Streamable HTTP
// (a child process on a free loopback port).

const script = path.resolve(__dirname, "../../scripts/mcp-test-server.ts");

/** The command line that runs the test server over stdio. */
export const testServerCommand = { command: process.execPath, args: ["--import", "tsx", script] };

export function stdioTestServer(id: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    ...configFromInput(
      {
        name: "test",
        transport: "stdio",
        ...testServerCommand,
        enabled: true,
        timeoutMs: 10_000,
        maxResultChars: 1000,
      },
      { id, readOnly: false },
    ),
    ...over,
  };
}

export interface HttpTestServer {
  url: string;
  process: ChildProcess;
  close(): Promise<void>;
}

export async function startHttpTestServer(): Promise<HttpTestServer> {
  const child = spawn(process.execPath, [...testServerCommand.args, "--http", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /listening (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the test server exited (${code}) before listening`)));
  });
  return {
    url,
    process: child,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill();
      await exited;
    },
  };
}
