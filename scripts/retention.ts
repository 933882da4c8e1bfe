import Module from "node:module";
import { loadEnvConfig } from "@next/env";

// npm run retention (for cron): one retention round, the same the server runs at start and hourly. Prints what
// it removed — rows per table and the sessions — and exits 0; with HISTORY_RETENTION_DAYS unset it says so and
// exits 0 too. Exits 1 on an error (bad configuration, database unreachable).

/** `server-only` throws outside React Server Components; in this script its marker module is empty. */
function stubServerOnly() {
  const resolved = require.resolve("server-only");
  const stub = new Module(resolved);
  stub.filename = resolved;
  stub.loaded = true;
  stub.exports = {};
  require.cache[resolved] = stub;
}

async function main() {
  // The same .env files `next start` reads, so cron and the server agree on DATABASE_URL and the setting.
  loadEnvConfig(process.cwd());
  stubServerOnly();
  // Imported only now: lib/env.ts validates process.env when it is first loaded.
  const { runRetentionRound, describeRetentionRound } = await import("@/lib/db/retention");
  const { db } = await import("@/lib/db/client");
  try {
    const round = await runRetentionRound();
    console.log(describeRetentionRound(round));
    for (const { sessionId, deleted } of round.receipts) {
      const rows = Object.entries(deleted)
        .map(([table, n]) => `${table} ${n}`)
        .join(", ");
      console.log(`  deleted session ${sessionId}: ${rows}`);
    }
  } finally {
    await db.$disconnect();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error && e.name === "EnvError" ? e.message : e);
    process.exit(1);
  },
);
