import net from "node:net";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Keep in step with DEFAULT_TEST_POSTGRES_URL in lib/db/test-global-setup.ts (which creates the test databases).
const DEFAULT_TEST_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

/** Whether something accepts TCP connections there (PostgreSQL for the integration-postgres project). */
function answers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** The `--project` filters of this vitest command line (none: every project runs). */
function projectFilters(argv: string[]): string[] {
  const filters: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === "--project" && argv[i + 1]) filters.push(argv[i + 1] as string);
    else if (arg.startsWith("--project=")) filters.push(arg.slice("--project=".length));
  });
  return filters;
}

function selects(filters: string[], name: string): boolean {
  if (filters.length === 0) return true;
  return filters.some((f) =>
    new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(name),
  );
}

const setupFiles = ["test/setup.ts"];

/**
 * Integration test files running at once (TEST_INTEGRATION_WORKERS, default 2), drawn from both databases' projects:
 * each worker has a database of its own (lib/db/test-global-setup.ts), on which files run one after another.
 */
const integrationWorkers = Number(process.env.TEST_INTEGRATION_WORKERS || 2);
if (!Number.isInteger(integrationWorkers) || integrationWorkers < 1)
  throw new Error(
    `TEST_INTEGRATION_WORKERS must be a positive integer, got "${process.env.TEST_INTEGRATION_WORKERS}"`,
  );

const unit: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "unit",
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/*.int.test.ts", "node_modules/**"],
    environment: "node",
    setupFiles,
    // Threads start faster than forked processes, and two of them keep both cores busy (vitest's default on two
    // cores is one): 54 → 27 s here (docs/decisions/040-test-suite-speed.md).
    pool: "threads",
    maxWorkers: 2,
  },
};

const integration = (name: string): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include: ["**/*.int.test.ts"],
    exclude: ["node_modules/**", ".next/**"],
    environment: "node",
    // One fresh database per worker of the project run (created, migrated and removed by the global setup).
    globalSetup: ["lib/db/test-global-setup.ts"],
    setupFiles: [...setupFiles, "lib/db/test-setup.ts"],
    // Both integration projects share one pool of this size (same groupOrder and maxWorkers), so SQLite and
    // PostgreSQL files run side by side; the unit project keeps group 0. A project with fileParallelism: false
    // would put every such file of every project in one queue with a single worker.
    maxWorkers: integrationWorkers,
    sequence: { groupOrder: 1 },
    // Extraction after answers would add facts in the background to every test's turns; its own tests switch it on.
    env: { MEMORY_EXTRACTION: "off" },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig(async () => {
  const server = new URL(process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL);
  const postgres = await answers(server.hostname, Number(server.port || 5432));
  if (!postgres && selects(projectFilters(process.argv), "integration-postgres")) {
    const where = `${server.hostname}:${server.port || 5432}`;
    if (process.env.CI) {
      throw new Error(
        `PostgreSQL does not answer on ${where}: CI runs the integration tests on PostgreSQL too. Start it (see .ci/run) or set TEST_POSTGRES_URL.`,
      );
    }
    const line = "!".repeat(100);
    // The config is evaluated again for each project that extends it; say it once.
    const said = globalThis as { recallPostgresWarned?: boolean };
    if (!said.recallPostgresWarned)
      console.warn(
        `\n${line}\n!! PostgreSQL does not answer on ${where}: the integration-postgres project is SKIPPED.\n!! Only SQLite is tested. Start PostgreSQL or set TEST_POSTGRES_URL; under CI this is a failure.\n${line}\n`,
      );
    said.recallPostgresWarned = true;
  }
  return {
    resolve: {
      alias: {
        "@": path.resolve(import.meta.dirname),
        // The marker package throws outside React Server Components; tests import server modules directly.
        "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
      },
    },
    test: {
      projects: [
        unit,
        integration("integration-sqlite"),
        ...(postgres ? [integration("integration-postgres")] : []),
      ],
    },
  };
});
