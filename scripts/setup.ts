import { loadEnvConfig } from "@next/env";
import { ensureAdmin } from "./lib/ensure-admin";
import { migrateDatabase, redactUrl } from "./lib/migrate";

// npm run setup: validates the configuration, applies migrations (creating the database when missing) and
// makes sure an administrator exists. Safe to run again: it changes nothing that is already in place.

async function main() {
  // The same .env files `next start` reads, so setup and the server agree on DATABASE_URL.
  loadEnvConfig(process.cwd());
  // Imported only now: lib/env.ts validates process.env when it is first loaded.
  const { env } = await import("@/lib/env");
  const { db } = await import("@/lib/db/client");
  const applied = await migrateDatabase(env.DATABASE_URL);
  console.log(
    `Database ${redactUrl(env.DATABASE_URL)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}.`,
  );

  try {
    // Messages written before search existed are indexed once (SQL alone cannot cut Chinese into terms).
    const { indexUnindexedMessages } = await import("@/lib/db/search");
    let indexed = 0;
    for (let afterId: string | undefined; ; ) {
      const batch = await indexUnindexedMessages({ afterId });
      if (batch.count === 0) break;
      indexed += batch.count;
      afterId = batch.lastId;
    }
    if (indexed) console.log(`Search: indexed ${indexed} earlier message(s).`);
    const result = await ensureAdmin(db, env);
    const how = {
      kept: "already set up; its password was printed when it was created",
      existing: "existing account",
      promoted: "existing account, promoted",
      created: "created",
    }[result.action];
    console.log(`Administrator: ${result.email} (${how}).`);
    if (result.action === "created" && result.generatedPassword) {
      console.log(`  password: ${result.generatedPassword}`);
      console.log("  (shown once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)");
    }
  } finally {
    await db.$disconnect();
  }
}

main().then(
  () => {
    console.log(
      "Serve with `npm start`, then open http://127.0.0.1:3000 and sign in (or create an account).",
    );
    process.exit(0);
  },
  (e: unknown) => {
    console.error(e instanceof Error && e.name === "EnvError" ? e.message : e);
    process.exit(1);
  },
);
