import { inject } from "vitest";

// Vitest setupFile of the integration-* projects. It runs in each test worker before the test file is imported,
// so lib/env.ts (which reads process.env when first imported) sees this worker's database, one of those that
// lib/db/test-global-setup.ts created for this run. No two files running at once share a database.

declare module "vitest" {
  export interface ProvidedContext {
    /** The databases of this test run, one per worker (integration-* projects only). */
    databaseUrls: string[];
  }
}

const urls = inject("databaseUrls");
const poolId = Number(process.env.VITEST_POOL_ID ?? "1");
const url = urls[poolId - 1];
if (!url)
  throw new Error(`No test database for worker ${poolId} (${urls.length} created): see vitest.config.mts`);
process.env.DATABASE_URL = url;
