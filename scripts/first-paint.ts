import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type BrowserContext, chromium } from "@playwright/test";
import { buildApp } from "./build";
import { serverNodeOptions } from "./lib/node-options";
import { ROOT } from "./lib/paths";

// npm run first-paint [-- --runs 15 --port 3222 --no-build --locale en]: how fast a 40-message conversation
// (offline model) first paints in the production build. It builds (unless --no-build; run it under the build
// lock), sets up a fresh SQLite database, starts `next start`, registers a user, has 20 turns, then opens the
// conversation in a fresh browser context `runs` times (no HTTP cache) and prints the median
// first-contentful-paint and the gzipped bytes of the JavaScript the page loaded. A runner outside the app: it
// reads process.env.

function arg(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? (argv[i + 1] as string) : fallback;
}

const runs = Number(arg("runs", "15"));
const port = Number(arg("port", "3222"));
const locale = arg("locale", "en-US");
const build = !process.argv.includes("--no-build");
const url = `http://127.0.0.1:${port}`;
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}

async function waitForHealth(child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error("next start exited");
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy`);
}

async function seedConversation(context: BrowserContext): Promise<string> {
  const request = context.request;
  const creds = {
    email: `paint-${Date.now()}@bench.recall.test`,
    password: "first-paint-password",
    name: "Paint",
  };
  const reg = await request.post("/api/register", { data: creds });
  if (reg.status() !== 201) throw new Error(`register: ${reg.status()} ${await reg.text()}`);
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await request.post("/api/auth/callback/credentials", {
    form: { email: creds.email, password: creds.password, csrfToken, json: "true" },
  });
  const created = await request.post("/api/sessions", { data: {} });
  if (!created.ok()) throw new Error(`create session: ${created.status()} ${await created.text()}`);
  const { session } = (await created.json()) as { session: { id: string } };
  for (let i = 1; i <= 20; i++) {
    const content =
      i % 4 === 0
        ? `Here is some code number ${i}:\n\n\`\`\`ts\nconst answer = ${i};\nconsole.log(answer);\n\`\`\``
        : `Remember that item ${i} is a ${["red", "green", "blue"][i % 3]} box with ${i} marbles inside.`;
    const res = await request.post(`/api/sessions/${session.id}/messages`, { data: { content } });
    if (!res.ok()) throw new Error(`turn ${i}: ${res.status()} ${await res.text()}`);
    await res.body();
  }
  return session.id;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

async function main() {
  if (build && (await buildApp()) !== 0) throw new Error("build failed");
  const dir = mkdtempSync(path.join(os.tmpdir(), "recall-paint-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS),
    DATABASE_URL: `file:${path.join(dir, "paint.db")}`,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    ADMIN_EMAIL: "admin@bench.recall.test",
    ADMIN_PASSWORD: "first-paint-admin-password",
    ALLOWED_ORIGINS: url,
  };
  for (const name of Object.keys(env))
    if (/^(OPENAI_|MEMORY_|OFFLINE_MODEL_|CHAT_)/.test(name)) delete env[name];
  let server: ChildProcess | undefined;
  const browser = await chromium.launch({
    executablePath: (await import("node:fs")).existsSync(chromiumPath) ? chromiumPath : undefined,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    await run(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/setup.ts"], env);
    server = spawn(
      path.join(ROOT, "node_modules", ".bin", "next"),
      ["start", "-H", "127.0.0.1", "-p", String(port)],
      {
        cwd: ROOT,
        env,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    await waitForHealth(server);
    const options = { baseURL: url, locale, extraHTTPHeaders: { origin: url } };
    const seeder = await browser.newContext(options);
    const sessionId = await seedConversation(seeder);
    const storageState = await seeder.storageState();
    await seeder.close();

    const paints: number[] = [];
    let jsBytes = 0;
    let jsFiles = 0;
    // One warm-up load (the server compiles routes and warms its caches on first use), then the measured ones.
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({ ...options, storageState });
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on("response", (res) => {
        if (res.request().resourceType() === "script")
          scripts.push(
            res.body().then(
              (b) => gzipSync(b).length,
              () => 0,
            ),
          );
      });
      await page.goto(`/c/${sessionId}`, { waitUntil: "load" });
      await page.getByTestId("composer-input").waitFor();
      const fcp = await page.evaluate(
        () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      );
      const count = await page.getByTestId("message").count();
      if (count < 40) throw new Error(`expected 40 messages on the page, saw ${count}`);
      if (i > 0) paints.push(fcp);
      if (i === 1) {
        const sizes = await Promise.all(scripts);
        jsBytes = sizes.reduce((a, b) => a + b, 0);
        jsFiles = sizes.length;
      }
      await context.close();
    }
    console.log(
      `first-paint: 40 messages, ${runs} loads, locale ${locale}: median FCP ${median(paints).toFixed(0)} ms ` +
        `(min ${Math.min(...paints).toFixed(0)}, max ${Math.max(...paints).toFixed(0)}); ` +
        `JS ${(jsBytes / 1024).toFixed(1)} KB gzipped in ${jsFiles} files`,
    );
  } finally {
    await browser.close();
    server?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
