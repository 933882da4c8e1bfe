import { readFileSync } from "node:fs";
import { SQLITE_SCHEMA } from "./paths";

export type Dialect = "sqlite" | "postgresql";

const HEADER =
  "// GENERATED from prisma/schema.prisma by scripts/generate.ts: do not edit, edit prisma/schema.prisma instead.\n";

function replaceOnce(source: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = source.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`));
  if (matches?.length !== 1) {
    throw new Error(`prisma/schema.prisma: expected exactly one ${what}, found ${matches?.length ?? 0}`);
  }
  return source.replace(pattern, replacement);
}

/**
 * Derives the PostgreSQL copy of the schema: same models, provider postgresql, its own generated client.
 * Fails loudly when the SQLite schema no longer has the shape this relies on.
 */
function toPostgresSchema(sqliteSchema: string): string {
  let out = replaceOnce(
    sqliteSchema,
    /provider\s*=\s*"sqlite"/,
    'provider = "postgresql"',
    'provider = "sqlite"',
  );
  out = replaceOnce(
    out,
    /output\s*=\s*"\.\.\/lib\/generated\/sqlite"/,
    'output   = "../../lib/generated/postgresql"',
    'output = "../lib/generated/sqlite"',
  );
  // The first comment lines describe the source file; replace them with a do-not-edit header.
  out = out.replace(/^(\/\/.*\n)+/, "");
  return HEADER + out;
}

export function readSchema(dialect: Dialect): string {
  const sqlite = readFileSync(SQLITE_SCHEMA, "utf8");
  return dialect === "sqlite" ? sqlite : toPostgresSchema(sqlite);
}
