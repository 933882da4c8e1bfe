import { loadEnvConfig } from "@next/env";
import {
  createMigration,
  DEFAULT_DATABASE_URL,
  DEFAULT_POSTGRES_ADMIN_URL,
  migrateDatabase,
  redactUrl,
} from "./lib/migrate";

// npm run db:migrate                      apply pending migrations to DATABASE_URL (created when missing)
// npm run db:migrate:dev -- <name>        write a migration for both dialects from the schema changes
//
// Scripts run outside the app, so they read DATABASE_URL themselves instead of importing lib/env.ts (which
// validates the whole app configuration).

const USAGE = "usage: tsx scripts/migrate.ts deploy | dev <name>";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "deploy") {
    // The same .env files `next start` reads, so the migrated database is the one the app opens.
    loadEnvConfig(process.cwd());
    const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
    const applied = await migrateDatabase(url);
    if (applied.length === 0) console.log(`${redactUrl(url)}: up to date, no pending migrations`);
    else console.log(`${redactUrl(url)}: applied ${applied.length} migration(s):\n  ${applied.join("\n  ")}`);
    return 0;
  }
  if (command === "dev") {
    const name = rest.join(" ");
    if (!name) {
      console.error(USAGE);
      return 2;
    }
    const adminUrl =
      process.env.SHADOW_DATABASE_URL || process.env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_ADMIN_URL;
    const written = await createMigration(name, { postgresAdminUrl: adminUrl });
    if (written.length === 0) {
      console.log("no changes: the migrations already match prisma/schema.prisma");
    } else {
      console.log(`wrote:\n  ${written.join("\n  ")}\nreview them, then run: npm run db:migrate`);
    }
    return 0;
  }
  console.error(USAGE);
  return 2;
}

// Exit explicitly: the schema engine leaves a ~10 s timer behind on PostgreSQL.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
