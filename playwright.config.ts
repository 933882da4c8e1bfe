import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import {
  MAIN_PORT,
  MAIN_URL,
  SCRIPTED_PORT,
  SCRIPTED_URL,
  startArgs,
  WINDOW_PORT,
  WINDOW_SIZE,
  WINDOW_URL,
} from "./e2e/config";
import { serverNodeOptions } from "./scripts/lib/node-options";

// Run through `npm run test:e2e` (scripts/e2e.ts): it creates the run's database, sets it up and builds the app.
// The servers serve the same build and the same database. The main one has the demo model a newcomer meets; the
// scripted one the test model that lists what it received (docs/decisions/022-test-model.md), for the specs that
// assert on memory; the window one the scripted model with a memory window of 2.

const databaseUrl = process.env.E2E_DATABASE_URL;
if (!databaseUrl) {
  throw new Error(
    "E2E_DATABASE_URL is not set. Run the end-to-end tests with `npm run test:e2e`, which creates a fresh database.",
  );
}
const ci = Boolean(process.env.CI);

// Debian's Chromium where installed (Playwright cannot download its own browser here); Playwright's elsewhere.
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const executablePath = existsSync(chromiumPath) ? chromiumPath : undefined;

const serverEnv = {
  DATABASE_URL: databaseUrl,
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS),
  // Every test registers its own user from 127.0.0.1; lib/rate-limit/limits.int.test.ts checks the limit itself.
  RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "10000",
  // API calls made by the tests send the main server's Origin (see `extraHTTPHeaders`), also to the second one.
  ALLOWED_ORIGINS: MAIN_URL,
  ...(process.env.E2E_AUTH_SECRET ? { AUTH_SECRET: process.env.E2E_AUTH_SECRET } : {}),
};

const server = (port: number, url: string, env: Record<string, string>) => ({
  command: ["node_modules/.bin/next", ...startArgs(port)].join(" "),
  url: `${url}/api/health`,
  env: { ...serverEnv, ...env },
  // Never reuse: a server already on the port would serve another database, not this run's fresh one.
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
});

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: ci,
  // Hang guards, not assertions: sized for a machine two to three times slower than a quiet 2-core one (or one
  // running both databases' runs at once, scripts/e2e.ts). A passing expectation returns as soon as it holds.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: "list",
  outputDir: "test-results",
  use: {
    baseURL: MAIN_URL,
    // Writes must carry an allowed Origin (CSRF check, lib/security/csrf.ts); browsers send one, API requests
    // made by the tests do not unless told to.
    extraHTTPHeaders: { origin: MAIN_URL },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath,
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
        },
      },
    },
  ],
  webServer: [
    // Extraction is each user's choice: e2e/extraction.spec.ts switches it on for its users.
    server(MAIN_PORT, MAIN_URL, { MEMORY_EXTRACTION: "off" }),
    // The window tests are about the window itself: long-term memory and recall would carry facts past it.
    server(WINDOW_PORT, WINDOW_URL, {
      MEMORY_MAX_MESSAGES: String(WINDOW_SIZE),
      LONG_TERM_MEMORY: "false",
      MEMORY_RECALL: "off",
      OFFLINE_MODEL: "scripted",
    }),
    server(SCRIPTED_PORT, SCRIPTED_URL, { OFFLINE_MODEL: "scripted" }),
  ],
});
