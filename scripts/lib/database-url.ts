import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Dialect } from "./schema";

// Kept free of the Prisma client (lib/db/client.ts has the same rules for the app) so the migration scripts
// work before any client is generated.

export function dialectOf(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error("DATABASE_URL must start with file: or postgresql://");
}

/** Absolute path of a `file:` URL; a relative path is resolved against `base`. */
export function sqliteFilePath(url: string, base: string): string {
  const withoutQuery = url.replace(/\?.*$/, "");
  if (withoutQuery.startsWith("file://")) return fileURLToPath(withoutQuery);
  const file = withoutQuery.slice("file:".length);
  if (file === "" || file === ":memory:") throw new Error(`Not a database file: ${url}`);
  return path.resolve(base, file);
}

export function postgresDatabaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!name) throw new Error("The PostgreSQL URL names no database");
  return name;
}

/** The same server and credentials, another database (by default the `postgres` maintenance database). */
export function withDatabase(url: string, database = "postgres"): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
