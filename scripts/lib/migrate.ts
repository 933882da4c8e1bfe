import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import { postgresMigrationFactory, sqliteMigrationFactory, withPgClient } from "./adapters";
import { dialectOf, postgresDatabaseName, quoteIdent, sqliteFilePath, withDatabase } from "./database-url";
import { MIGRATIONS_DIR, ROOT } from "./paths";
import { type Dialect, readSchema } from "./schema";
import { NO_FILTERS, withSchemaEngine } from "./schema-engine";

// Prisma Migrate's deploy and dev, on the WebAssembly schema engine (see schema-engine.ts). Layout and
// bookkeeping are Prisma's own: <dir>/<timestamp>_<name>/migration.sql, <dir>/migration_lock.toml and the
// `_prisma_migrations` table, so the native `prisma migrate` would accept the same folders and databases.

export const DEFAULT_DATABASE_URL = "file:./data/recall.db";

/** The PostgreSQL server `dev` uses for its temporary shadow databases. */
export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

const LOCKFILE = "migration_lock.toml";
const MAINTENANCE_DATABASES = new Set(["postgres", "template0", "template1"]);

function schemaFile(dialect: Dialect) {
  return {
    path: dialect === "sqlite" ? "prisma/schema.prisma" : "prisma/postgresql/schema.prisma",
    content: readSchema(dialect),
  };
}

/** The migrations folder as the engine wants it (what the Prisma CLI reads from disk). */
function loadMigrations(dialect: Dialect): MigrationList {
  const baseDir = MIGRATIONS_DIR[dialect];
  const lockPath = path.join(baseDir, LOCKFILE);
  const directories = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: directories.map((dir) => {
      const file = path.join(baseDir, dir, "migration.sql");
      return {
        path: dir,
        migrationFile: {
          path: "migration.sql",
          content: existsSync(file)
            ? { tag: "ok" as const, value: readFileSync(file, "utf8") }
            : { tag: "error" as const, value: `${file} is missing` },
        },
      };
    }),
  };
}

/** Hides the password of a URL for logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

/**
 * Creates the database when it is missing: for SQLite its directory (the file appears on first connect), for
 * PostgreSQL `CREATE DATABASE` through the server's `postgres` database. Returns whether it was missing.
 */
export async function createDatabase(url: string): Promise<boolean> {
  if (dialectOf(url) === "sqlite") {
    const file = sqliteFilePath(url, ROOT);
    const missing = !existsSync(file);
    mkdirSync(path.dirname(file), { recursive: true });
    return missing;
  }
  const name = postgresDatabaseName(url);
  return withPgClient(withDatabase(url), async (client) => {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === "42P04") return false; // created concurrently
      throw error;
    }
  });
}

/** Deletes the database (SQLite: the file and its -wal/-shm/-journal companions). Meant for tests. */
export async function dropDatabase(url: string): Promise<void> {
  if (dialectOf(url) === "sqlite") {
    const file = sqliteFilePath(url, ROOT);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    return;
  }
  const name = postgresDatabaseName(url);
  if (MAINTENANCE_DATABASES.has(name)) throw new Error(`Refusing to drop the ${name} database`);
  await withPgClient(withDatabase(url), (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

/**
 * Creates the database if needed and applies the pending migrations of its dialect (prisma/migrations or
 * prisma/postgresql/migrations). Returns the names of the migrations applied now (empty when up to date).
 * A relative SQLite path is resolved against the project root.
 */
export async function migrateDatabase(url: string): Promise<string[]> {
  const dialect = dialectOf(url);
  await createDatabase(url);
  const factory =
    dialect === "sqlite" ? sqliteMigrationFactory(sqliteFilePath(url, ROOT)) : postgresMigrationFactory(url);
  const migrationsList = loadMigrations(dialect);
  if (migrationsList.migrationDirectories.length === 0) {
    throw new Error(`No migrations in ${path.relative(ROOT, migrationsList.baseDir)}`);
  }
  return withSchemaEngine(schemaFile(dialect), factory, async (s) => {
    const out = await s.call((e) => e.applyMigrations({ migrationsList, filters: NO_FILTERS }));
    return out.appliedMigrationNames;
  });
}

/**
 * Tables the migrations create in raw SQL that the schema cannot describe (docs/decisions/017-search.md): the diff
 * leaves them alone instead of dropping them. SQLite: the FTS5 tables (of messages, of project file chunks) and the
 * shadow tables SQLite makes for them. PostgreSQL: SearchDoc and ProjectFileChunk, whose GIN indexes the shared
 * schema cannot declare — their columns are still modelled, so change them in the schema and in a hand-written
 * migration together.
 */
const EXTERNAL_TABLES: Record<Dialect, string[]> = {
  sqlite: ["SearchFts", "ProjectChunkFts"].flatMap((t) => [
    t,
    ...["config", "data", "docsize", "idx"].map((s) => `${t}_${s}`),
  ]),
  postgresql: ["public.SearchDoc", "public.ProjectFileChunk"],
};

/** The SQL that takes the migrations folder of `dialect` to the current schema; null when there is nothing. */
async function diffMigrationsToSchema(
  dialect: Dialect,
  options: { postgresAdminUrl?: string } = {},
): Promise<string | null> {
  const schema = schemaFile(dialect);
  const factory =
    dialect === "sqlite"
      ? sqliteMigrationFactory(":memory:")
      : postgresMigrationFactory(options.postgresAdminUrl ?? DEFAULT_POSTGRES_ADMIN_URL);
  const migrationsList = loadMigrations(dialect);
  return withSchemaEngine(schema, factory, async (s) => {
    const out = await s.call((e) =>
      e.diff({
        from:
          migrationsList.migrationDirectories.length === 0
            ? { tag: "empty" }
            : { tag: "migrations", ...migrationsList },
        to: { tag: "schemaDatamodel", files: [schema] },
        script: true,
        exitCode: true,
        filters: { ...NO_FILTERS, externalTables: EXTERNAL_TABLES[dialect] },
      }),
    );
    return out.exitCode === 2 && out.stdout ? out.stdout : null;
  });
}

function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function migrationSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) throw new Error("Give the migration a name, e.g. `npm run db:migrate:dev -- add_attachments`");
  return slug;
}

function lockfile(dialect: Dialect): string {
  return (
    "# Please do not edit this file manually\n" +
    "# It should be added in your version-control system (e.g., Git)\n" +
    `provider = "${dialect}"\n`
  );
}

/**
 * `migrate dev`: writes <timestamp>_<name>/migration.sql for each dialect whose migrations folder differs from
 * the schema, with one timestamp for both. Applies nothing. Returns the written files (empty: no changes).
 * The PostgreSQL diff replays the migrations in a temporary shadow database on `postgresAdminUrl`.
 */
export async function createMigration(
  name: string,
  options: { postgresAdminUrl?: string; now?: Date } = {},
): Promise<string[]> {
  const dirName = `${timestamp(options.now)}_${migrationSlug(name)}`;
  const scripts: [Dialect, string | null][] = [];
  for (const dialect of ["sqlite", "postgresql"] as const) {
    scripts.push([dialect, await diffMigrationsToSchema(dialect, options)]);
  }
  const written: string[] = [];
  for (const [dialect, sql] of scripts) {
    if (sql === null) continue;
    const base = MIGRATIONS_DIR[dialect];
    mkdirSync(path.join(base, dirName), { recursive: true });
    const file = path.join(base, dirName, "migration.sql");
    writeFileSync(file, sql);
    if (!existsSync(path.join(base, LOCKFILE))) writeFileSync(path.join(base, LOCKFILE), lockfile(dialect));
    written.push(path.relative(ROOT, file));
  }
  return written;
}
