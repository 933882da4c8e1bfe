import { loadEnvConfig } from "@next/env";
import { backupDatabase } from "./lib/backup";
import { DEFAULT_DATABASE_URL } from "./lib/migrate";

// npm run backup -- <file>: a consistent copy of DATABASE_URL while the server runs (see scripts/lib/backup.ts).
// Scripts run outside the app, so they read DATABASE_URL themselves (as scripts/migrate.ts does).

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error("Usage: npm run backup -- <file>");
  loadEnvConfig(process.cwd());
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const started = performance.now();
  const { format, bytes } = await backupDatabase({ url, file });
  const ms = Math.round(performance.now() - started);
  console.log(`backup: ${file} (${format}, ${bytes} bytes) in ${ms} ms`);
}

main().catch((error: unknown) => {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
