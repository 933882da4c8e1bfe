import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { databaseKind, db } from "@/lib/db/client";
import { indexMessages } from "@/lib/db/search";
import { mergeSearchIndex, scheduleSearchMerge, searchMergeSettled } from "@/lib/db/search-merge";
import { unsafeDeleteSessionById } from "@/lib/db/sessions";
import { queryRows } from "@/lib/db/sql";
import { env } from "@/lib/env";

// The messages' FTS5 index keeps fewer segments when merge steps run after indexing writes (lib/db/search-merge.ts).
// Other test files write to the same index before this one (in an order that changes between runs): the test makes
// its own starting point.

const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";

afterAll(async () => {
  await db.$disconnect();
});

const segments = async () =>
  Number(
    (
      await queryRows<{ n: number | bigint }>(
        db,
        `SELECT count(DISTINCT "segid") AS n FROM "SearchFts_idx"`,
        [],
      )
    )[0]?.n,
  );

const matches = async (word: string) =>
  (
    await queryRows<{ id: number | bigint }>(
      db,
      `SELECT rowid AS id FROM "SearchFts" WHERE "SearchFts" MATCH ? ORDER BY rowid`,
      [`body : "${word}"`],
    )
  ).map((r) => Number(r.id));

const FTS5_DEFAULT_AUTOMERGE = 4;
const setAutomerge = (n: number) =>
  db.$executeRawUnsafe(`INSERT INTO "SearchFts"("SearchFts", rank) VALUES ('automerge', ${n})`);

describe.skipIf(!sqlite)("search index merge steps (SQLite)", () => {
  it("merges the segments one message per transaction leaves, and every document still matches", async () => {
    const word = `zm${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const user = await db.user.create({
      data: { email: `merge-${randomUUID()}@example.test`, name: "Merge", passwordHash: "x" },
    });
    const session = await db.chatSession.create({ data: { userId: user.id, title: "Merge", lastSeq: 12 } });
    try {
      const messages = await db.$transaction(async (tx) => {
        const out = [];
        for (let seq = 1; seq <= 12; seq++) {
          out.push(
            await tx.chatMessage.create({
              data: {
                sessionId: session.id,
                seq,
                role: seq % 2 ? "user" : "assistant",
                text: `${word} ${seq}`,
              },
            }),
          );
        }
        return out;
      });
      // As turns do: each message indexed by its own transaction, each a new segment. How many segments the index
      // then holds depended on what it held before — written by the test files that ran earlier on this database,
      // in an order that changes between runs — through FTS5's automerge (a little merging at each write) and its
      // crisis merge (at 16 segments on a level). So the index starts as one segment and automerge is off while
      // the twelve are made.
      await db.$executeRawUnsafe(`INSERT INTO "SearchFts"("SearchFts") VALUES ('optimize')`);
      await setAutomerge(0);
      try {
        for (const m of messages) {
          await db.$transaction((tx) =>
            indexMessages({ docs: [{ ...m, userId: user.id }], fresh: true }, { tx }),
          );
        }
      } finally {
        await setAutomerge(FTS5_DEFAULT_AUTOMERGE);
      }
      const found = await matches(word);
      expect(found).toHaveLength(12);
      const before = await segments();
      // The twelve, and the one segment the index held before when it held anything.
      expect([12, 13]).toContain(before);
      // Enough pages for the whole test index: afterwards no level holds two segments.
      expect(await mergeSearchIndex(100_000)).toBe(true);
      const after = await segments();
      // A full merge leaves fewer than four segments a level, and the test index has few levels.
      expect(after).toBeLessThan(before);
      expect(after).toBeLessThanOrEqual(8);
      expect(await matches(word)).toEqual(found);

      // A scheduled step runs after the current work and is shared by writes that come while it waits.
      scheduleSearchMerge();
      scheduleSearchMerge();
      await searchMergeSettled();
      expect(await matches(word)).toEqual(found);
    } finally {
      await unsafeDeleteSessionById({ sessionId: session.id, actorId: user.id });
      await db.user.delete({ where: { id: user.id } });
    }
  });
});
