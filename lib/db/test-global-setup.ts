import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { withDatabase } from "../../scripts/lib/database-url";
import { dropDatabase, migrateDatabase } from "../../scripts/lib/migrate";

// Vitest globalSetup of the integration-* projects: one fresh database per test worker of the project run, created
// and migrated here, handed to the workers with provide("databaseUrls") (typed and read in lib/db/test-setup.ts,
// where each worker takes the one of its VITEST_POOL_ID), removed at the end. Files run one after another on each
// database, as they did when the whole run had one; tests only ever touch these databases.

export const DEFAULT_TEST_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

function freshDatabase(projectName: string): { url: string; cleanup: () => Promise<void> } {
  if (projectName === "integration-postgres") {
    const server = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
    const url = withDatabase(server, `recall_test_${randomBytes(6).toString("hex")}`);
    return { url, cleanup: () => dropDatabase(url) };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "recall-test-"));
  return {
    url: `file:${path.join(dir, "test.db")}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // VITEST_POOL_ID runs from 1 to the pool's maxWorkers, which vitest.config.mts sets for these projects.
  const workers = Math.max(1, project.config.maxWorkers ?? 1);
  const databases = Array.from({ length: workers }, () => freshDatabase(project.name));
  const cleanup = async () => {
    await Promise.all(databases.map((d) => d.cleanup()));
  };
  try {
    await Promise.all(databases.map((d) => migrateDatabase(d.url)));
  } catch (error) {
    await cleanup();
    throw error;
  }
  project.provide(
    "databaseUrls",
    databases.map((d) => d.url),
  );
  return cleanup;
}
