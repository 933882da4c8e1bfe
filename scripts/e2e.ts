import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN } from "../e2e/config";

// npm run test:e2e [-- <playwright args>]: a fresh SQLite database for this run, `npm run setup` against it with
// known admin credentials, `next build` (skipped with E2E_SKIP_BUILD=1), then `playwright test`, whose web servers
// start `next start` on that database. The exit code is Playwright's; the database is removed afterwards.
// This is a runner outside the app, so it reads process.env directly.

const root = path.resolve(__dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

let current: ChildProcess | null = null;

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    current = child;
    child.once("error", reject);
    child.once("close", (code, signal) => {
      current = null;
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
}

function seconds(since: number) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "recall-e2e-"));
  const databaseUrl = `file:${path.join(dir, "e2e.db")}`;
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      current?.kill(signal);
      cleanup();
      process.exit(130);
    });
  }

  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  // The tests run against the offline model with the documented defaults, whatever the caller's shell holds.
  for (const name of Object.keys(env)) {
    if (/^(OPENAI_|MEMORY_|OFFLINE_MODEL_|CHAT_)/.test(name)) delete env[name];
  }
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    E2E_DATABASE_URL: databaseUrl,
    AUTH_SECRET: process.env.E2E_AUTH_SECRET ?? randomBytes(32).toString("base64url"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_NAME: ADMIN.name,
  });
  env.E2E_AUTH_SECRET = env.AUTH_SECRET;

  try {
    let t = Date.now();
    let code = await run(bin("tsx"), ["scripts/setup.ts"], env);
    if (code !== 0) return code;
    console.log(`e2e: database ready in ${seconds(t)} (${databaseUrl})`);

    if (process.env.E2E_SKIP_BUILD === "1") {
      console.log("e2e: E2E_SKIP_BUILD=1, using the existing .next build");
    } else {
      t = Date.now();
      code = await run(bin("next"), ["build"], env);
      if (code !== 0) return code;
      console.log(`e2e: build done in ${seconds(t)}`);
    }

    t = Date.now();
    code = await run(bin("playwright"), ["test", ...process.argv.slice(2)], env);
    console.log(`e2e: playwright finished in ${seconds(t)} with exit code ${code}`);
    return code;
  } finally {
    cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
