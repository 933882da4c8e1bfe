import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { withPgClient } from "./adapters";
import { dialectOf, sqliteFilePath } from "./database-url";

// npm run backup / restore. SQLite: the online backup API (a consistent copy page by page while the server keeps
// writing; changes made meanwhile restart the copy of the pages they touch), the copy switched to a single file
// (journal_mode=DELETE). PostgreSQL: pg_dump in its custom format (one snapshot of the whole database) and
// pg_restore. Either restore only goes into an empty database: no tables, or the app's tables without a row.

export type BackupFormat = "sqlite" | "pg_dump";

const SQLITE_MAGIC = "SQLite format 3\0";
const PGDUMP_MAGIC = "PGDMP";

/**
 * Tables that hold no data of their own (migration bookkeeping, FTS5 shadow tables of the search index, and the
 * search index's state row, which its migration writes into every new database).
 */
const bookkeeping = (name: string) =>
  name.startsWith("_prisma") ||
  name === "SearchIndexState" ||
  name.startsWith("SearchFts") ||
  name.startsWith("ProjectChunkFts") ||
  name.startsWith("sqlite_");

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error) =>
      reject(
        new Error(`${command} could not be started (${error.message}); install the PostgreSQL client tools`),
      ),
    );
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

function formatOf(file: string): BackupFormat {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(16);
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString("latin1") === SQLITE_MAGIC) return "sqlite";
  if (head.subarray(0, 5).toString("latin1") === PGDUMP_MAGIC) return "pg_dump";
  throw new Error(`${file} is not a Recall backup (neither an SQLite database nor a pg_dump archive)`);
}

/** Writes a consistent copy of the database at `url` to `file` (which must not exist). */
export async function backupDatabase({
  url,
  file,
  cwd = process.cwd(),
}: {
  url: string;
  file: string;
  cwd?: string;
}) {
  if (existsSync(file)) throw new Error(`${file} exists already; choose a new file name`);
  if (dialectOf(url) === "sqlite") {
    const source = new Database(sqliteFilePath(url, cwd), { fileMustExist: true, readonly: true });
    try {
      await source.backup(file);
    } finally {
      source.close();
    }
    const copy = new Database(file);
    try {
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    return { format: "sqlite" as const, bytes: statSync(file).size };
  }
  try {
    await run("pg_dump", [
      "--format=custom",
      "--no-owner",
      "--no-privileges",
      `--file=${file}`,
      `--dbname=${url}`,
    ]);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  }
  return { format: "pg_dump" as const, bytes: statSync(file).size };
}

/** The app's tables that hold rows, with their counts (empty: the database may be restored into). */
async function tablesWithRows({ url, cwd = process.cwd() }: { url: string; cwd?: string }) {
  const found: Record<string, number> = {};
  if (dialectOf(url) === "sqlite") {
    const path = sqliteFilePath(url, cwd);
    if (!existsSync(path) || statSync(path).size === 0) return found;
    const conn = new Database(path, { readonly: true });
    try {
      const names = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .pluck()
        .all() as string[];
      for (const name of names.filter((n) => !bookkeeping(n))) {
        const n = conn
          .prepare(`SELECT count(*) FROM "${name.replace(/"/g, '""')}"`)
          .pluck()
          .get() as number;
        if (n > 0) found[name] = n;
      }
    } finally {
      conn.close();
    }
    return found;
  }
  await withPgClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    for (const { name } of rows.filter((r) => !bookkeeping(r.name))) {
      const res = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`,
      );
      const n = Number(res.rows[0]?.n ?? 0);
      if (n > 0) found[name] = n;
    }
  });
  return found;
}

/** Puts the backup in `file` into the database at `url`, which must be empty (stop the server first). */
export async function restoreDatabase({
  url,
  file,
  cwd = process.cwd(),
}: {
  url: string;
  file: string;
  cwd?: string;
}) {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const format = formatOf(file);
  const dialect = dialectOf(url);
  if ((format === "sqlite") !== (dialect === "sqlite")) {
    throw new Error(`${file} is a ${format} backup; DATABASE_URL is a ${dialect} database`);
  }
  const full = await tablesWithRows({ url, cwd });
  if (Object.keys(full).length > 0) {
    const list = Object.entries(full)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ");
    throw new Error(`The database is not empty (${list}); restore only goes into an empty database`);
  }
  if (dialect === "sqlite") {
    const target = sqliteFilePath(url, cwd);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${target}${suffix}`, { force: true });
    const source = new Database(file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(target);
    } finally {
      source.close();
    }
    const restored = new Database(target);
    try {
      restored.pragma("journal_mode = WAL");
    } finally {
      restored.close();
    }
    return;
  }
  // The app's empty tables (a migrated database) are replaced by the dump's.
  await run("pg_restore", [
    "--clean",
    "--if-exists",
    "--no-owner",
    "--no-privileges",
    "--single-transaction",
    "--exit-on-error",
    `--dbname=${url}`,
    file,
  ]);
}
