import { loadEnvConfig } from "@next/env";
import { restoreDatabase } from "./lib/backup";
import { DEFAULT_DATABASE_URL } from "./lib/migrate";

// npm run restore -- <file>: puts a backup made by npm run backup into DATABASE_URL, which must be empty (a new
// file, or a migrated database without rows). Stop the server first.

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error("Usage: npm run restore -- <file>");
  loadEnvConfig(process.cwd());
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const started = performance.now();
  await restoreDatabase({ url, file });
  console.log(`restore: ${file} in ${Math.round(performance.now() - started)} ms`);
}

main().catch((error: unknown) => {
  console.error(`restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
