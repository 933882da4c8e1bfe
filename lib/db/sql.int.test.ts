import { afterEach, describe, expect, it } from "vitest";
import { closeApps, createUserWithSession, loadApp } from "@/lib/chat/test-helpers";

// The hot path's written-out statements (lib/db/sql.ts, docs/decisions/041): on SQLite they go straight to the
// driver adapter of the client's connection, so they must behave exactly as statements of the transaction they are
// sent in — rolled back with it, and refused once Prisma has ended it on its timeout.

afterEach(closeApps);

async function load() {
  const app = await loadApp({});
  const sql = await import("./sql");
  const { withTransaction } = await import("./transaction");
  const { sqliteAdapterOf, databaseKind } = await import("./client");
  return { ...app, ...sql, withTransaction, sqliteAdapterOf, databaseKind };
}

const titleOf = async (app: Awaited<ReturnType<typeof load>>, sessionId: string) =>
  (await app.db.chatSession.findUniqueOrThrow({ where: { id: sessionId }, select: { title: true } })).title;

describe("written-out statements", () => {
  it("go to the driver on SQLite once connected, through Prisma on PostgreSQL", async () => {
    const app = await load();
    await createUserWithSession(app.db);
    const direct = app.sqliteAdapterOf(app.db) !== null;
    expect(direct).toBe(app.databaseKind(process.env.DATABASE_URL ?? "") === "sqlite");
  });

  it("are part of the transaction they are sent in: a throw rolls them back, a commit keeps them", async () => {
    const app = await load();
    const { sessionId } = await createUserWithSession(app.db, "before");
    const rename = (tx: Parameters<typeof app.execute>[0], title: string) =>
      app.execute(tx, `UPDATE "ChatSession" SET "title" = ? WHERE "id" = ?`, [title, sessionId]);

    await expect(
      app.withTransaction(async (tx) => {
        expect(await rename(tx, "inside")).toBe(1);
        // The transaction sees its own write, whichever way it was sent.
        const [row] = await app.queryRows(tx, `SELECT "title" FROM "ChatSession" WHERE "id" = ?`, [
          sessionId,
        ]);
        expect(row?.title).toBe("inside");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await titleOf(app, sessionId)).toBe("before");

    await app.withTransaction(async (tx) => rename(tx, "committed"));
    expect(await titleOf(app, sessionId)).toBe("committed");
  });

  it("are refused after the transaction's timeout instead of being written outside it", async () => {
    const app = await load();
    const { sessionId } = await createUserWithSession(app.db, "before");
    const late = app.withTransaction(
      async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await app.execute(tx, `UPDATE "ChatSession" SET "title" = ? WHERE "id" = ?`, ["late", sessionId]);
      },
      { timeout: 150 },
    );
    await expect(late).rejects.toThrow();
    expect(await titleOf(app, sessionId)).toBe("before");
  });

  it("read values the same on both databases", async () => {
    const app = await load();
    const { sessionId } = await createUserWithSession(app.db);
    const at = new Date("2026-01-02T03:04:05.678Z");
    await app.execute(
      app.db,
      {
        sqlite: `UPDATE "ChatSession" SET "memorySettings" = ?, "leaseUntil" = ?, "temporary" = ? WHERE "id" = ?`,
        postgresql: `UPDATE "ChatSession" SET "memorySettings" = $1::jsonb, "leaseUntil" = $2, "temporary" = $3 WHERE "id" = $4`,
      },
      [app.jsonArg({ recall: "off", maxMessages: 8 }), at, true, sessionId],
    );
    const [row] = await app.queryRows(
      app.db,
      `SELECT "memorySettings", "leaseUntil", "temporary", "lastSeq" FROM "ChatSession" WHERE "id" = ?`,
      [sessionId],
    );
    expect({
      settings: app.asJson(row?.memorySettings),
      until: app.asDate(row?.leaseUntil).toISOString(),
      temporary: app.asBoolean(row?.temporary),
      lastSeq: app.asNumber(row?.lastSeq),
    }).toEqual({
      settings: { recall: "off", maxMessages: 8 },
      until: at.toISOString(),
      temporary: true,
      lastSeq: 0,
    });
    // Prisma reads what the written-out statement wrote as it reads its own writes.
    const typed = await app.db.chatSession.findUniqueOrThrow({
      where: { id: sessionId },
      select: { memorySettings: true, leaseUntil: true, temporary: true },
    });
    expect(typed).toEqual({
      memorySettings: { recall: "off", maxMessages: 8 },
      leaseUntil: at,
      temporary: true,
    });
  });
});
