import net from "node:net";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/** Whether something accepts TCP connections there (PostgreSQL for the integration-postgres project). */
function answers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
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

const unit: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "unit",
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/*.int.test.ts", "node_modules/**"],
    environment: "node",
  },
};

const integration = (name: string): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include: ["**/*.int.test.ts"],
    exclude: ["node_modules/**", ".next/**"],
    environment: "node",
    // One fresh database per project run (created, migrated and removed by the global setup); files run one
    // after another against it.
    globalSetup: ["lib/db/test-global-setup.ts"],
    setupFiles: ["lib/db/test-setup.ts"],
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig(async () => {
  const postgres = Boolean(process.env.TEST_POSTGRES_URL) || (await answers("127.0.0.1", 5432));
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
