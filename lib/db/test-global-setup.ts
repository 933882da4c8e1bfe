import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { withDatabase } from "../../scripts/lib/database-url";
import { dropDatabase, migrateDatabase } from "../../scripts/lib/migrate";

// Vitest globalSetup of the integration-* projects: a fresh database per project run, created and migrated
// here, handed to the test workers with provide("databaseUrl") (typed and read in lib/db/test-setup.ts), removed at the end.
// Tests only ever touch this database.

export const DEFAULT_TEST_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let url: string;
  let cleanup: () => Promise<void>;
  if (project.name === "integration-postgres") {
    const server = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
    url = withDatabase(server, `recall_test_${randomBytes(6).toString("hex")}`);
    cleanup = () => dropDatabase(url);
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-test-"));
    url = `file:${path.join(dir, "test.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  try {
    await migrateDatabase(url);
  } catch (error) {
    await cleanup();
    throw error;
  }
  project.provide("databaseUrl", url);
  return cleanup;
}
