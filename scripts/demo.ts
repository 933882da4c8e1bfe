import { spawn } from "node:child_process";
import path from "node:path";
import { buildApp } from "./build";
import { serverNodeOptions } from "./lib/node-options";
import { ROOT } from "./lib/paths";
import { adminLines, box } from "./lib/ready-box";
import { errorText, setup } from "./setup";

// npm run demo: build, set up, serve; once the server answers, the address and (when setup created the
// administrator) the one-time password are the last lines printed. Ctrl+C stops the server; `npm start` serves
// the same build again.

/** Resolves once `url` answers HTTP at all; rejects when `alive()` turns false or after `timeoutMs`. */
export async function waitForServer(
  url: string,
  {
    alive,
    timeoutMs = 120_000,
    everyMs = 250,
  }: { alive: () => boolean; timeoutMs?: number; everyMs?: number },
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error("the server exited before it answered");
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}

export function readyMessage({
  url,
  admin,
}: {
  url: string;
  admin: { email: string; generatedPassword?: string };
}): string {
  const open = `Recall is serving: open ${url} and sign in (or create an account). Ctrl+C stops it; \`npm start\` serves it again.`;
  const password = admin.generatedPassword;
  return password ? `\n${open}\n${box(adminLines({ email: admin.email, password }))}` : `\n${open}`;
}

async function main(): Promise<number> {
  const built = await buildApp();
  if (built !== 0) return built;
  const { admin } = await setup();
  const port = process.env.PORT || "3000";
  const server = spawn(
    path.join(ROOT, "node_modules", ".bin", "next"),
    ["start", "--hostname", "127.0.0.1", "--port", port],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS),
      },
      stdio: "inherit",
    },
  );
  const exited = new Promise<number>((resolve) => server.once("close", (c) => resolve(c ?? 1)));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  const url = `http://127.0.0.1:${port}`;
  const alive = () => server.exitCode === null && server.signalCode === null;
  try {
    await waitForServer(`${url}/api/health`, { alive });
  } catch (e) {
    console.error(`npm run demo: ${e instanceof Error ? e.message : String(e)}`);
    if (alive()) server.kill("SIGTERM");
    await exited;
    return 1;
  }
  console.log(readyMessage({ url, admin }));
  return exited;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(errorText(e));
      process.exit(1);
    },
  );
}
