import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { readTurnEvents } from "@/lib/chat/sse";
import { closeApps, createUserWithSession, drain, loadApp } from "@/lib/chat/test-helpers";
import { env } from "@/lib/env";
import { withPgClient } from "./adapters";
import { backupDatabase, restoreDatabase } from "./backup";
import { dialectOf, sqliteFilePath, withDatabase } from "./database-url";
import { createDatabase, dropDatabase, migrateDatabase } from "./migrate";

// npm run backup / restore on the run's dialect, against databases this file creates: a backup taken while a turn
// streams, restored into a fresh database and compared table by table; a second one after the turn, compared with
// the source exactly; a restore into a database with rows refused; a conversation deleted before a backup absent
// from it.

const dialect = dialectOf(env.DATABASE_URL);
const dir = mkdtempSync(path.join(os.tmpdir(), "recall-backup-"));
const created: string[] = [];

function freshUrl(): string {
  const name = `recall_backup_${randomBytes(5).toString("hex")}`;
  const url =
    dialect === "sqlite" ? `file:${path.join(dir, `${name}.db`)}` : withDatabase(env.DATABASE_URL, name);
  created.push(url);
  return url;
}

afterAll(async () => {
  await closeApps();
  for (const url of created) await dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

/** Every table's rows, each table sorted, as JSON (the FTS5 shadow tables excepted: SearchDoc stands for them). */
async function tables(url: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const keep = (name: string) =>
    !name.startsWith("SearchFts") && !name.startsWith("ProjectChunkFts") && !name.startsWith("sqlite_");
  if (dialect === "sqlite") {
    const conn = new Database(sqliteFilePath(url, process.cwd()), { readonly: true });
    try {
      const names = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .pluck()
        .all() as string[];
      for (const name of names.filter(keep)) {
        out[name] = conn
          .prepare(`SELECT * FROM "${name}"`)
          .all()
          .map((r) => JSON.stringify(r))
          .sort();
      }
    } finally {
      conn.close();
    }
    return out;
  }
  await withPgClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    for (const { name } of rows.filter((r) => keep(r.name))) {
      const res = await client.query(`SELECT * FROM "${name}"`);
      out[name] = res.rows.map((r) => JSON.stringify(r)).sort();
    }
  });
  return out;
}

describe(`backup and restore (${dialect})`, () => {
  it("backs up while a turn streams, restores into a fresh database, and every table matches", async () => {
    const source = freshUrl();
    await migrateDatabase(source);
    const app = await loadApp({ DATABASE_URL: source, OFFLINE_MODEL_TOKEN_DELAY_MS: "50" });
    const { userId, sessionId } = await createUserWithSession(app.db, "backup");
    await app.turn(sessionId, userId, "My favourite colour is teal.");

    const events = readTurnEvents(
      await app.startTurn({ sessionId, userId, input: { content: "Tell me a long story about teal." } }),
    );
    for (
      let next = await events.next();
      !next.done && next.value.type !== "delta";
      next = await events.next()
    ) {}
    const during = path.join(dir, `during-${randomBytes(4).toString("hex")}.bak`);
    await backupDatabase({ url: source, file: during });
    const rest: string[] = [];
    for await (const event of events) rest.push(event.type);
    expect(rest).toContain("done");

    const restoredDuring = freshUrl();
    if (dialect === "postgresql") await migrateDatabase(restoredDuring); // an empty migrated database is accepted
    await restoreDatabase({ url: restoredDuring, file: during });
    const mid = await tables(restoredDuring);
    const messages =
      mid.ChatMessage?.map((r) => JSON.parse(r) as { sessionId: string; seq: number; status: string }) ?? [];
    // The copy is of one moment: the question stored, its answer streaming (or, if the copy lagged, complete) — never
    // half a write.
    const ofSession = messages.filter((m) => m.sessionId === sessionId).sort((a, b) => a.seq - b.seq);
    expect(ofSession.slice(0, 3).map((m) => m.status)).toEqual(["complete", "complete", "complete"]);
    expect(["streaming", "complete"]).toContain(ofSession[3]?.status);
    const now = await tables(source);
    expect(Object.keys(mid).sort()).toEqual(Object.keys(now).sort());
    // What the turn did not touch after the copy is identical.
    for (const table of ["User", "_prisma_migrations", "AuditLog", "MemoryFact", "Attachment"]) {
      expect(mid[table], table).toEqual(now[table]);
    }

    const after = path.join(dir, `after-${randomBytes(4).toString("hex")}.bak`);
    await backupDatabase({ url: source, file: after });
    const restoredAfter = freshUrl();
    await createDatabase(restoredAfter);
    await restoreDatabase({ url: restoredAfter, file: after });
    expect(await tables(restoredAfter)).toEqual(now);
    expect(now.ChatMessage?.length).toBe(4);

    await expect(restoreDatabase({ url: source, file: after })).rejects.toThrow(/not empty \(.*User 1/);
  }, 60_000);

  it("a conversation deleted before a backup is not in it", async () => {
    const source = freshUrl();
    await migrateDatabase(source);
    const app = await loadApp({ DATABASE_URL: source });
    const { deleteSessionForUser } = await import("@/lib/db/sessions");
    const marker = `zq${randomBytes(8).toString("hex")}`;
    const { userId, sessionId } = await createUserWithSession(app.db, `title ${marker}`);
    await drain(await app.startTurn({ sessionId, userId, input: { content: `remember ${marker} please` } }));
    await deleteSessionForUser({ sessionId, userId });

    const file = path.join(dir, `deleted-${randomBytes(4).toString("hex")}.bak`);
    await backupDatabase({ url: source, file });
    if (dialect === "sqlite") expect(readFileSync(file).includes(marker)).toBe(false);
    const restored = freshUrl();
    await createDatabase(restored);
    await restoreDatabase({ url: restored, file });
    const all = Object.values(await tables(restored)).flat();
    expect(all.some((row) => row.includes(marker))).toBe(false);
    expect(all.some((row) => row.includes(userId))).toBe(true);
  });
});
