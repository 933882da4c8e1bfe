import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type ChatMessage, databaseKind, db } from "@/lib/db/client";
import { recallCandidates } from "@/lib/db/recall";
import {
  conversationToken,
  indexMessages,
  legacyStemsLeft,
  ownerToken,
  pgConversationLexeme,
  restemLegacyDocs,
} from "@/lib/db/search";
import { unsafeDeleteSessionById } from "@/lib/db/sessions";
import { execute } from "@/lib/db/sql";
import { env } from "@/lib/env";
import { pgTermsVector, stemOf, tokenize } from "@/lib/search/terms";

// Documents indexed before stems were indexed beside words (decision 017): found by their own word forms while
// any is left, given their stems by setup's pass, after which recall looks a term up by its stem alone. Files of a
// worker run one after another on its database, so this file's pass over the older documents races with no other.

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

/** A made-up word of letters only (so it has a Porter stem once a suffix is added). */
const letters = () => Array.from(randomBytes(8), (b) => "bcdfghklmnprstvz"[b % 16]).join("");

/** Rewrites a message's index entry as one written before stems: its words only. */
async function indexWithoutStems(message: ChatMessage, userId: string) {
  const doc = await db.searchDoc.findUniqueOrThrow({ where: { messageId: message.id } });
  const words = tokenize(message.text).map((t) => t.term);
  if (kind === "sqlite") {
    await execute(db, `DELETE FROM "SearchFts" WHERE rowid = ?`, [doc.id]);
    await execute(db, `INSERT INTO "SearchFts" (rowid, owner, conv, body) VALUES (?, ?, ?, ?)`, [
      doc.id,
      ownerToken(userId),
      conversationToken(message.sessionId),
      words.join(" "),
    ]);
  } else {
    await db.$executeRawUnsafe(
      `UPDATE "SearchDoc" SET "terms" = $1::tsvector WHERE "id" = $2`,
      `${pgTermsVector(words, ownerToken(userId))} ${pgConversationLexeme(message.sessionId)}`,
      doc.id,
    );
  }
  return doc.id;
}

describe(`documents indexed before stems (${kind})`, () => {
  it("are found by their words until setup's pass gives them stems; then a term is looked up by its stem alone", async () => {
    const past = `za${letters()}ed`;
    const stem = stemOf(past);
    expect(stem).not.toBeNull();
    expect(stem).not.toBe(past);
    const user = await db.user.create({
      data: { email: `stems-${randomUUID()}@example.test`, name: "Stems", passwordHash: "x" },
    });
    const texts = [
      `We ${past} the fence last spring`,
      "Sounds like hard work.",
      `Next year we ${stem} it again`,
      "Good plan.",
      ...Array.from({ length: 26 }, (_, i) => `filler line ${i} about the weather`),
    ];
    const { session, messages } = await db.$transaction(async (tx) => {
      const session = await tx.chatSession.create({
        data: { userId: user.id, title: "Stems", lastSeq: texts.length },
      });
      const messages: ChatMessage[] = [];
      for (const [i, text] of texts.entries()) {
        messages.push(
          await tx.chatMessage.create({
            data: {
              sessionId: session.id,
              seq: i + 1,
              role: i % 2 ? "assistant" : "user",
              text,
              parentId: messages.at(-1)?.id ?? null,
            },
          }),
        );
      }
      await indexMessages(
        { docs: messages.map((m) => ({ ...m, userId: user.id, role: m.role as "user" | "assistant" })) },
        { tx },
      );
      return { session, messages };
    });
    const recalled = async () =>
      (
        await recallCandidates({
          userId: user.id,
          sessionId: session.id,
          scope: "conversation",
          question: `When was it ${past}?`,
          leafSeq: texts.length + 1,
          limit: 10,
          embedding: null,
        })
      )
        .map((h) => h.seq)
        .sort((a, b) => a - b);
    try {
      const [first] = messages as [ChatMessage];
      // As an upgraded database holds it: an entry without stems, up to the migration's marker.
      const legacyId = await indexWithoutStems(first, user.id);
      await db.searchIndexState.upsert({
        where: { id: 1 },
        create: { id: 1, legacyMaxId: legacyId },
        update: { legacyMaxId: legacyId },
      });
      expect(await legacyStemsLeft()).toBe(true);
      // Its own word form finds it; the stem finds the message holding the stem as a word.
      expect(await recalled()).toEqual([1, 3]);

      let restemmed = 0;
      for (let n = await restemLegacyDocs({ limit: 500 }); n > 0; n = await restemLegacyDocs({ limit: 500 }))
        restemmed += n;
      expect(restemmed).toBeGreaterThanOrEqual(1);
      expect(await db.searchIndexState.findUnique({ where: { id: 1 } })).toEqual({ id: 1, legacyMaxId: 0 });
      expect(await legacyStemsLeft()).toBe(false);
      const again = await db.searchDoc.findUniqueOrThrow({ where: { messageId: first.id } });
      expect(again.id).toBeGreaterThan(legacyId);
      expect(await recalled()).toEqual([1, 3]);

      // The lookup is by the stem alone now: an entry without stems (which no longer exists after the pass) would
      // not be found.
      await indexWithoutStems(first, user.id);
      expect(await recalled()).toEqual([3]);
    } finally {
      await unsafeDeleteSessionById({ sessionId: session.id, actorId: null });
      await db.user.delete({ where: { id: user.id } });
    }
  }, 120_000);
});
