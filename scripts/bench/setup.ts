import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withPgClient } from "../lib/adapters";
import { dialectOf, postgresDatabaseName, withDatabase } from "../lib/database-url";
import { createDatabase, dropDatabase, redactUrl } from "../lib/migrate";
import { ROOT } from "../lib/paths";
import type { Options } from "./config";
import { BenchError } from "./http";
import { round } from "./stats";

// What a bench run and a --compare run share: their own database, the commit they ran at, the JSON they write.
// A script, not the app: it reads process.env itself.

const DEFAULT_POSTGRES_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

export const log = (message: string) => console.log(`bench: ${message}`);

/**
 * `--db sqlite`: a new file under the OS temp dir; `--db postgres`: a new database on TEST_POSTGRES_URL's server;
 * a URL: a database that must not exist yet, so the benchmark never writes into (or drops) someone's data.
 */
export async function databaseFor(options: Options): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const kind = options.db.toLowerCase();
  if (kind === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
    return {
      url: `file:${path.join(dir, "bench.db")}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === "postgres" || kind === "postgresql") {
    const server = process.env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_SERVER;
    const url = withDatabase(server, `recall_bench_${randomBytes(5).toString("hex")}`);
    return { url, cleanup: () => dropDatabase(url) };
  }
  const url = options.db;
  if (dialectOf(url) === "sqlite") {
    const file = url.replace(/^file:/, "");
    if (existsSync(path.resolve(ROOT, file)))
      throw new BenchError(`--db ${url}: the file exists; give a new path`);
  } else {
    const name = postgresDatabaseName(url);
    const exists = await withPgClient(withDatabase(url), async (c) =>
      Boolean((await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount),
    );
    if (exists) throw new BenchError(`--db ${redactUrl(url)}: database "${name}" exists; name a new one`);
  }
  await createDatabase(url);
  return { url, cleanup: () => dropDatabase(url) };
}

export function gitCommit(): string | null {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const dirty = execFileSync("git", ["status", "--porcelain"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return `${sha.toString().trim()}${dirty.length ? " (with uncommitted changes)" : ""}`;
  } catch {
    return null;
  }
}

/** Keeps the JSON readable: latencies to 0.01 ms. */
export function jsonRound(_key: string, value: unknown) {
  return typeof value === "number" && !Number.isInteger(value) ? round(value) : value;
}

export const errorText = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);
