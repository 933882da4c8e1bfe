import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { databaseKind, db, immediateTransactions, sqlitePath } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { env } from "@/lib/env";

// Work outside a transaction is never part of another request's open transaction (connection-gate.ts): on SQLite
// one connection carries both, on PostgreSQL each has its own. Both databases must behave the same.

const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";

afterAll(async () => {
  await db.$disconnect();
});

async function userWithSession() {
  const user = await db.user.create({
    data: { email: `gate-${randomUUID()}@example.test`, name: "Gate", passwordHash: "x" },
  });
  const session = await db.chatSession.create({ data: { userId: user.id, title: "before" } });
  return { user, session };
}

/** Sends a Prisma query now (its promise is lazy: it runs when first awaited). */
const sent = <T>(query: PromiseLike<T>): Promise<T> => Promise.resolve(query);
/** Lets what was sent reach the database (or its queue) before the test goes on. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A transaction that writes, then waits for `gate` before it fails (rolled back) or ends. */
function openTransaction(userId: string, outcome: "rollback" | "commit") {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let begun!: () => void;
  const started = new Promise<void>((resolve) => {
    begun = resolve;
  });
  const done = withTransaction(async (tx) => {
    await tx.chatSession.create({ data: { userId, title: "inside" } });
    begun();
    await gate;
    if (outcome === "rollback") throw new Error("rolled back on purpose");
  }).then(
    () => "committed",
    (e: unknown) => String(e),
  );
  return { started, release, done };
}

it("a write outside a transaction is kept when another transaction rolls back, and never reads its rows", async () => {
  const { user, session } = await userWithSession();
  const open = openTransaction(user.id, "rollback");
  await open.started;
  // Sent while the transaction is open (a Prisma query runs once something waits for it): on SQLite the write
  // waits until the transaction has ended.
  const write = sent(db.chatSession.update({ where: { id: session.id }, data: { title: "after" } }));
  const read = sent(db.chatSession.count({ where: { userId: user.id, title: "inside" } }));
  await settle();
  open.release();
  expect(await open.done).toMatch(/rolled back on purpose/);
  await write;
  expect(await read).toBe(0);
  const row = await db.chatSession.findUniqueOrThrow({ where: { id: session.id } });
  expect(row.title).toBe("after");
  await db.user.delete({ where: { id: user.id } });
});

it("a read outside a transaction answers at once with what is committed", async () => {
  const { user } = await userWithSession();
  const open = openTransaction(user.id, "commit");
  await open.started;
  const read = sent(db.chatSession.count({ where: { userId: user.id, title: "inside" } }));
  await settle();
  open.release();
  expect(await open.done).toBe("committed");
  // SQLite: the read-only connection answered at once, before the commit. PostgreSQL: its own connection, at once
  // as well, though a slow machine may let the commit through first.
  if (sqlite) expect(await read).toBe(0);
  else expect([0, 1]).toContain(await read);
  expect(await db.chatSession.count({ where: { userId: user.id, title: "inside" } })).toBe(1);
  await db.user.delete({ where: { id: user.id } });
});

it("a transaction's own statements sent to the app's client still run (no deadlock)", async () => {
  const { user, session } = await userWithSession();
  const titles = await withTransaction(async (tx) => {
    await tx.chatSession.update({ where: { id: session.id }, data: { title: "renamed" } });
    // Code that reaches for `db` inside its transaction: on SQLite it ran inside it, and still does.
    const seen = await db.chatSession.findUniqueOrThrow({ where: { id: session.id } });
    return seen.title;
  });
  // SQLite: one connection, so it read the transaction's own write; PostgreSQL: another connection, the committed row.
  expect(titles).toBe(sqlite ? "renamed" : "before");
  await db.user.delete({ where: { id: user.id } });
});

// Another process's writer (a second server on the same file, a script): a transaction that has read and then writes
// meanwhile is refused at once unless it took the write lock at its BEGIN (client.ts `immediateTransactions`).
it.runIf(sqlite)(
  "a transaction that reads, then writes, waits for another process's writer instead of failing",
  async () => {
    const { user } = await userWithSession();
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(${JSON.stringify(sqlitePath(env.DATABASE_URL))});
         db.exec("BEGIN IMMEDIATE");
         console.log("locked");
         setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("locked")) resolve();
      });
      holder.on("exit", () => reject(new Error("the lock holder exited before locking")));
    });
    try {
      const renamed = await withTransaction(async (tx) => {
        const before = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
        return tx.user.update({ where: { id: user.id }, data: { name: `${before.name} renamed` } });
      });
      expect(renamed.name).toBe("Gate renamed");
    } finally {
      expect(await exited).toBe(0);
    }
  },
  20_000,
);

it.runIf(sqlite)(
  "BEGIN takes the write lock, and begins deferred as before when another writer keeps it past the wait",
  () => {
    const file = sqlitePath(env.DATABASE_URL);
    const conn = new Database(file, { timeout: 50 });
    immediateTransactions(conn);
    const other = new Database(file, { timeout: 0 });
    try {
      conn.prepare("BEGIN").run();
      expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(/locked/);
      conn.exec("ROLLBACK");

      other.exec("BEGIN IMMEDIATE");
      conn.prepare("BEGIN").run();
      expect(conn.inTransaction).toBe(true);
      // Deferred: reading works, writing waits for the other writer as it did before.
      expect(conn.prepare(`SELECT COUNT(*) AS n FROM "User"`).get()).toBeDefined();
      conn.exec("ROLLBACK");
      other.exec("ROLLBACK");
    } finally {
      conn.close();
      other.close();
    }
  },
);
