import { inject } from "vitest";

// Vitest setupFile of the integration-* projects. It runs in each test worker before the test file is imported,
// so lib/env.ts (which reads process.env when first imported) sees the database that lib/db/test-global-setup.ts
// created for this run.

declare module "vitest" {
  export interface ProvidedContext {
    /** The database of this test run (integration-* projects only). */
    databaseUrl: string;
  }
}

process.env.DATABASE_URL = inject("databaseUrl");
