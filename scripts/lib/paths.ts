import path from "node:path";

/** The project root (this file lives in <root>/scripts/lib). */
export const ROOT = path.resolve(__dirname, "..", "..");

/** The one schema people edit (SQLite dialect). */
export const SQLITE_SCHEMA = path.join(ROOT, "prisma", "schema.prisma");
/** Derived from SQLITE_SCHEMA by scripts/generate.ts; git-ignored. */
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma", "postgresql", "schema.prisma");

export const MIGRATIONS_DIR = {
  sqlite: path.join(ROOT, "prisma", "migrations"),
  postgresql: path.join(ROOT, "prisma", "postgresql", "migrations"),
} as const;
