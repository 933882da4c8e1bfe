import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient, databaseKind, truncateWalInWorker, walCheckpointsOf } from "@/lib/db/client";
import { env } from "@/lib/env";
import { expectConsoleWarn } from "@/test/console";
import { FALLBACK_PAGES, startWalCheckpoints, type WalCheckpoints } from "./wal-checkpoints";

// The WAL checkpoint worker (wal-checkpoints.ts, decision 045): SQLite only; PostgreSQL has no WAL of the app's.

const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";
const dir = mkdtempSync(path.join(os.tmpdir(), "recall-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits (bounded) until `done` holds; the bound is generous, the test fails only if it never holds. */
async function until(done: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function walDatabase(name: string) {
  const file = path.join(dir, name);
  const conn = new Database(file);
  conn.pragma("journal_mode = WAL");
  conn.exec("CREATE TABLE t (x BLOB)");
  return { file, conn };
}

const autocheckpoint = (conn: Database.Database) => conn.pragma("wal_autocheckpoint", { simple: true });
/** Writes `pages` 4 KiB pages' worth of rows in one transaction. */
const write = (conn: Database.Database, pages: number) =>
  conn.transaction(() => {
    const insert = conn.prepare("INSERT INTO t (x) VALUES (?)");
    for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(4000, i % 251));
  })();

describe.skipIf(!sqlite)("WAL checkpoints in a worker thread", () => {
  it("takes over the checkpoints: the app's connection only appends, the log is copied back and starts over", async () => {
    const { file, conn } = walDatabase("takeover.db");
    expect(autocheckpoint(conn)).toBe(1000);
    let worker: WalCheckpoints | null = null;
    try {
      worker = startWalCheckpoints(file, [conn], 20);
      const w = worker;
      await until(() => w.running, "the worker to open the database");
      expect(autocheckpoint(conn)).toBe(FALLBACK_PAGES);
      // 6 × 600 pages: past SQLite's own 1 000-page threshold, under the raised one, which without the worker would
      // leave all 3 600 pages in one log. Each write waits for the worker's checkpoint of the previous one, so the
      // next write starts the log over — usually: a write that begins while the worker's next (idle) checkpoint holds
      // its locks appends instead, and a later one starts over (a full suite run on a busy machine failed the bound
      // of two rounds once). The file keeps the longest log's size: at most four rounds ever went into one log.
      for (let round = 1; round <= 6; round++) {
        write(conn, 600);
        await until(() => w.framesCheckpointed >= round * 600, `checkpoint ${round}`);
      }
      expect(statSync(`${file}-wal`).size).toBeLessThan(3000 * 4096);
      expect(conn.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(3600);
    } finally {
      await worker?.stop();
      conn.close();
    }
  });

  it("sets the connections back to SQLite's own checkpoints when it stops or cannot open the database", async () => {
    const { file, conn } = walDatabase("fallback.db");
    try {
      const worker = startWalCheckpoints(file, [conn], 20);
      await until(() => worker.running, "the worker to open the database");
      await worker.stop();
      expect(worker.running).toBe(false);
      expect(autocheckpoint(conn)).toBe(1000);

      expectConsoleWarn(/the WAL checkpoint worker stopped/);
      conn.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
      const missing = startWalCheckpoints(path.join(dir, "missing.db"), [conn], 20);
      let exited = false;
      missing.exited.then(() => {
        exited = true;
      });
      await until(() => exited, "the worker to give up");
      expect(missing.running).toBe(false);
      expect(autocheckpoint(conn)).toBe(1000);
      await missing.stop();
    } finally {
      conn.close();
    }
  });

  it("truncates the log for a deletion without waiting: busy at once while a reader holds an older snapshot", async () => {
    const { file, conn } = walDatabase("truncate.db");
    const reader = new Database(file, { readonly: true });
    const other = new Database(file);
    other.pragma("busy_timeout = 0");
    let worker: WalCheckpoints | null = null;
    try {
      worker = startWalCheckpoints(file, [conn], 60_000);
      const w = worker;
      await until(() => w.running, "the worker to open the database");
      write(conn, 50);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      expect(await w.truncate()).toBe(true);
      expect(statSync(`${file}-wal`).size).toBe(0);

      // A reader in the middle of a read transaction keeps the frames it reads: the log cannot be emptied.
      write(conn, 50);
      reader.exec("BEGIN");
      expect(reader.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(100);
      write(conn, 50);
      expect(await w.truncate()).toBe(false);
      // The write lock is free again: a connection that never waits writes at once.
      write(other, 1);
      reader.exec("COMMIT");
      expect(await w.truncate()).toBe(true);
      expect(statSync(`${file}-wal`).size).toBe(0);
      expect(conn.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(151);

      await w.stop();
      expect(await w.truncate()).toBeNull();
    } finally {
      await worker?.stop();
      reader.close();
      other.close();
      conn.close();
    }
  });

  it("lets a process that asked for a truncation exit by itself once it is answered", () => {
    // A script that deletes (retention, an import's rollback) ends when its work does: the worker, unref'ed, must
    // not keep it alive after the answer (posting to it held the process open until this was handled).
    const { file, conn } = walDatabase("exit.db");
    write(conn, 10);
    conn.close();
    const script = `
      const { startWalCheckpoints } = require(${JSON.stringify(path.resolve("lib/db/wal-checkpoints.ts"))});
      const worker = startWalCheckpoints(${JSON.stringify(file)}, [], 60000);
      const ready = setInterval(() => {
        if (!worker.running) return;
        clearInterval(ready);
        worker.truncate().then((done) => console.log("truncated", done));
      }, 5);`;
    const run = spawnSync(path.resolve("node_modules/.bin/tsx"), ["-e", script], {
      encoding: "utf8",
      // A hang guard: the child is killed if it never exits.
      timeout: 30_000,
    });
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toBe("truncated true");
    expect(run.status).toBe(0);
    // Emptied by the truncation (SQLite removes it when the last connection closes).
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
  }, 60_000);

  it("runs beside the app's client once it connects, and stops with it", async () => {
    const client = createPrismaClient(env.DATABASE_URL);
    try {
      await client.$queryRawUnsafe("SELECT 1");
      const worker = walCheckpointsOf(client);
      expect(worker).not.toBeNull();
      await until(() => worker?.running === true, "the app client's worker");
      const rows =
        await client.$queryRawUnsafe<{ wal_autocheckpoint: number | bigint }[]>("PRAGMA wal_autocheckpoint");
      expect(Number(rows[0]?.wal_autocheckpoint)).toBe(FALLBACK_PAGES);
      // A deletion's checkpoint goes to the worker (lib/db/checkpoint.ts).
      await client.$executeRawUnsafe(`UPDATE "User" SET "name" = "name" WHERE 0`);
      expect(await truncateWalInWorker(client)).toBe(true);

      // The truncation holds SQLite's write lock in the worker: a transaction of this client that read and then
      // wrote meanwhile would get SQLITE_BUSY at once. None begins until the worker has answered.
      const order: string[] = [];
      await client.$executeRawUnsafe(`UPDATE "User" SET "name" = "name" WHERE 0`);
      const truncation = truncateWalInWorker(client).then((done) => {
        order.push(`truncated ${done}`);
      });
      const transaction = client.$transaction(async (tx) => {
        order.push("transaction began");
        await tx.$queryRawUnsafe(`SELECT COUNT(*) FROM "User"`);
        await tx.$executeRawUnsafe(`UPDATE "User" SET "name" = "name" WHERE 0`);
      });
      await Promise.all([truncation, transaction]);
      expect(order).toEqual(["truncated true", "transaction began"]);

      await client.$disconnect();
      expect(worker?.running).toBe(false);
      expect(await truncateWalInWorker(client)).toBeNull();
    } finally {
      await client.$disconnect();
    }
  });
});
