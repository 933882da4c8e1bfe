import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sessionClaims } from "@/lib/auth/session-token";
import { type ChatMessage, databaseKind, db, type Tx } from "@/lib/db/client";
import {
  indexMessages,
  indexUnindexedMessages,
  SEARCH_PAGE_SIZE,
  searchMessagesForUser,
} from "@/lib/db/search";
import { unsafeDeleteSessionById } from "@/lib/db/sessions";
import { rowsReferring, zeroEverywhere } from "@/lib/db/test-rows";
import { withTransaction } from "@/lib/db/transaction";
import { env } from "@/lib/env";

// Search over a user's own messages on the database's real engine (FTS5 / tsvector + GIN), through the function
// the route calls. The database is shared with other test files: every test makes its own users and words.

const kind = databaseKind(env.DATABASE_URL);

// The route test signs in by the token's claims (as lib/db/admin.int.test.ts does).
vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

afterAll(async () => {
  await db.$disconnect();
});

async function createUser() {
  return db.user.create({
    data: { email: `search-${randomUUID()}@example.test`, name: "Search", passwordHash: "x" },
  });
}

type Role = "user" | "assistant" | "tool";

/** A conversation with these messages, indexed the way turns index them (in the writing transaction). */
async function conversation(userId: string, title: string, messages: [Role, string][], index = true) {
  return withTransaction(async (tx) => {
    const session = await tx.chatSession.create({ data: { userId, title, lastSeq: messages.length } });
    const rows: ChatMessage[] = [];
    let parentId: string | null = null;
    for (const [i, [role, text]] of messages.entries()) {
      const row: ChatMessage = await tx.chatMessage.create({
        data: {
          sessionId: session.id,
          seq: i + 1,
          role,
          text,
          parentId,
          createdAt: new Date(Date.now() + i),
        },
      });
      parentId = row.id;
      rows.push(row);
    }
    if (index)
      await indexMessages({ docs: rows.map((r) => ({ ...r, userId, role: r.role as Role })) }, { tx });
    return { session, messages: rows };
  });
}

const BULK = { timeout: 120_000, maxWait: 60_000 };

/** A long conversation written at once (one message per text, oldest first), indexed as an import indexes it. */
async function longConversation(userId: string, texts: string[]) {
  const session = await db.chatSession.create({ data: { userId, title: "Long", lastSeq: texts.length } });
  const ids: string[] = texts.map(() => randomUUID());
  const rows = texts.map((text, i) => ({
    id: ids[i] as string,
    parentId: i === 0 ? null : (ids[i - 1] as string),
    sessionId: session.id,
    seq: i + 1,
    role: "user" as const,
    text,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
  }));
  await db.chatMessage.createMany({ data: rows });
  await db.$transaction(
    (tx) => indexMessages({ docs: rows.map((r) => ({ ...r, userId })), fresh: true }, { tx }),
    BULK,
  );
  return ids;
}

/** A unique made-up word, so tests sharing the database never see each other's rows. */
const word = () => `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function ftsRows(): Promise<number> {
  const [row] =
    kind === "sqlite"
      ? await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS n FROM "SearchFts_docsize"`)
      : await db.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT COUNT(*) AS n FROM "SearchDoc" WHERE "terms" IS NOT NULL`,
        );
  return Number(row?.n);
}

describe(`search (${kind})`, () => {
  it("finds an English word in the user's own messages, with a marked, escaped snippet and the title", async () => {
    const user = await createUser();
    const w = word();
    const { session, messages } = await conversation(user.id, "Hiking plans", [
      ["user", `We planned the <b>${w}</b> trip to the mountains & lakes.`],
      ["assistant", "Bring water and a map."],
    ]);
    const page = await searchMessagesForUser({ userId: user.id, q: w.toUpperCase() });
    expect(page.results).toEqual([
      {
        sessionId: session.id,
        messageId: messages[0]?.id,
        title: "Hiking plans",
        snippet: `We planned the &lt;b&gt;<mark>${w}</mark>&lt;/b&gt; trip to the mountains &amp; lakes.`,
        createdAt: messages[0]?.createdAt.toISOString(),
        role: "user",
        version: null,
      },
    ]);
    expect(page.nextCursor).toBeNull();
    // The assistant's words are indexed too; a word nobody wrote finds nothing; any content word is enough.
    expect((await searchMessagesForUser({ userId: user.id, q: `nobody${w}` })).results).toEqual([]);
    const either = await searchMessagesForUser({ userId: user.id, q: `water ${w}` });
    expect(either.results.map((r) => r.messageId).sort()).toEqual([messages[0]?.id, messages[1]?.id].sort());
    const answer = await searchMessagesForUser({ userId: user.id, q: "bring water" });
    expect(answer.results.map((r) => r.messageId)).toEqual([messages[1]?.id]);
    expect(answer.results[0]?.snippet).toBe("<mark>Bring</mark> <mark>water</mark> and a map.");
  });

  it("finds Chinese words inside running text, including the two-character word 松石", async () => {
    const user = await createUser();
    const { messages } = await conversation(user.id, "首饰", [
      ["user", "我昨天在市场买了一条绿松石手链，颜色很漂亮。"],
      ["assistant", "绿松石是一种常见的宝石，Turquoise 也很受欢迎。"],
      ["user", "松树和石头不算。"],
    ]);
    const [question, answer] = messages;
    const ids = async (q: string) =>
      (await searchMessagesForUser({ userId: user.id, q })).results.map((r) => r.messageId).sort();
    expect(await ids("松石")).toEqual([question?.id, answer?.id].sort());
    // Any of a run's bigrams is a match; the message with all of them ranks first.
    const bracelet = await searchMessagesForUser({ userId: user.id, q: "绿松石手链" });
    expect(bracelet.results.map((r) => r.messageId)).toEqual([question?.id, answer?.id]);
    expect(await ids("手链 颜色")).toEqual([question?.id]);
    expect(await ids("turquoise 宝石")).toEqual([answer?.id]);
    // Characters that are not adjacent in the text are not the word.
    expect(await ids("石松")).toEqual([]);
    // A single character matches wherever it occurs, even as the last character of a run.
    expect(await ids("链")).toEqual([question?.id]);
    const page = await searchMessagesForUser({ userId: user.id, q: "松石" });
    const snippet = page.results.find((r) => r.messageId === question?.id)?.snippet;
    expect(snippet).toBe("我昨天在市场买了一条绿<mark>松石</mark>手链，颜色很漂亮。");
  });

  it("answers a natural question: any content word, other forms of it, the message with all of them first", async () => {
    const user = await createUser();
    const w = word();
    const { messages } = await conversation(user.id, "Questions", [
      ["user", `Tonight I went to my first ${w} support group session at the community centre.`],
      ["assistant", "I'm glad the group helped. Community centres often host such evenings."],
      ["user", `We call the new ${w} puppy Pepper.`],
      ["user", `Support support support for the ${w} team at work.`],
    ]);
    const [group, reply, puppy, team] = messages;
    const ids = async (q: string) =>
      (await searchMessagesForUser({ userId: user.id, q })).results.map((r) => r.messageId);
    // "when did I go to the support group": stop words out; the message with both content words ranks first.
    const found = await ids(`When did I go to the ${w} support group?`);
    expect(found[0]).toBe(group?.id);
    expect(found).toEqual(expect.arrayContaining([reply?.id, team?.id, puppy?.id]));
    // Another form of a word: "calling" finds "call" (both are indexed under their stem).
    expect((await ids(`What are we calling the ${w} puppy?`))[0]).toBe(puppy?.id);
    // Stop words alone still search (nothing else to go by).
    expect(await ids(`${w} `)).toHaveLength(3);
  });

  it("ranks messages where the words weigh more first, and pages through every match once", async () => {
    const user = await createUser();
    const w = word();
    const filler = "the quick brown fox jumps over the lazy dog again and again in the garden";
    const { messages } = await conversation(user.id, "Ranking", [
      ["user", `${w} once, among many other words: ${filler} ${filler}`],
      ["user", `${w} ${w} ${w} said three times`],
      ["user", `${w} twice here, ${w}, with ${filler}`],
    ]);
    const page = await searchMessagesForUser({ userId: user.id, q: w });
    expect(page.results.map((r) => r.messageId)).toEqual([messages[1]?.id, messages[2]?.id, messages[0]?.id]);

    const many = word();
    const rows: [Role, string][] = Array.from({ length: SEARCH_PAGE_SIZE + 5 }, (_, i) => [
      "user",
      `${many} #${i}`,
    ]);
    const { messages: all } = await conversation(user.id, "Many", rows);
    const first = await searchMessagesForUser({ userId: user.id, q: many });
    expect(first.results).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await searchMessagesForUser({ userId: user.id, q: many, cursor: first.nextCursor });
    expect(second.results).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.results, ...second.results].map((r) => r.messageId).sort();
    expect(seen).toEqual(all.map((m) => m.id).sort());
    await expect(searchMessagesForUser({ userId: user.id, q: many, cursor: "nope" })).rejects.toMatchObject({
      code: "bad_request",
    });

    // Over HTTP the answer is the array of results; the next page's cursor is the X-Next-Cursor header.
    const { GET } = await import("@/app/api/search/route");
    vi.mocked(sessionClaims).mockResolvedValue({ uid: user.id, ver: 0, sid: null });
    const get = (query: string) =>
      GET(new Request(`http://127.0.0.1/api/search?${query}`), { params: Promise.resolve({}) });
    const res1 = await get(`q=${many}`);
    expect(res1.status).toBe(200);
    const page1 = (await res1.json()) as { messageId: string; sessionId: string }[];
    expect(page1.map((r) => r.messageId)).toEqual(first.results.map((r) => r.messageId));
    expect(Object.keys(page1[0] ?? {}).sort()).toEqual([
      "createdAt",
      "messageId",
      "role",
      "sessionId",
      "snippet",
      "title",
      "version",
    ]);
    const cursor = res1.headers.get("x-next-cursor");
    expect(cursor).toBe(first.nextCursor);
    const res2 = await get(`q=${many}&cursor=${encodeURIComponent(cursor ?? "")}`);
    expect(((await res2.json()) as unknown[]).length).toBe(5);
    expect(res2.headers.get("x-next-cursor")).toBeNull();
  });

  it("finds the few messages holding all the words, or all but one, among more than PostgreSQL reads newest first", async () => {
    // PostgreSQL ranks the user's newest 1 000 documents and what the GIN index gives for the rare terms and the
    // combinations of common ones (lib/db/search.ts PG_RECENT_DOCS); SQLite ranks every match.
    const user = await createUser();
    const [a, b, c, rare] = [word(), word(), word(), word()];
    // Each of a, b and c in a third of 1 300 messages, never together but in four early ones; a rare word once.
    const texts = Array.from({ length: 1300 }, (_, i) => `${[a, b, c][i % 3]} message ${i}`);
    texts[10] = `${a} and ${b}, early`;
    texts[11] = `${a}, ${b} and ${c}, early`;
    texts[12] = `${b} and ${c}, early`;
    texts[13] = `${a} and ${c}, early`;
    texts[20] = `${a} with ${rare}, once`;
    const ids = await longConversation(user.id, texts);
    const found = async (q: string) =>
      (await searchMessagesForUser({ userId: user.id, q })).results.map((r) => ids.indexOf(r.messageId));

    // All the words first, then all but one (each of those holds two of the three words: ties by ts_rank_cd).
    expect((await found(`${a} ${b} `)).slice(0, 2).sort()).toEqual([10, 11]);
    const three = await found(`${a} ${b} ${c} `);
    expect(three[0]).toBe(11);
    expect(three.slice(1, 4).sort()).toEqual([10, 12, 13]);
    // A rare word among thousands, alone and beside a common one; and while it is still being typed.
    expect(await found(rare)).toEqual([20]);
    expect((await found(`${a} ${rare} `))[0]).toBe(20);
    expect(await found(rare.slice(0, 8))).toEqual([20]);
    // A common word still fills pages.
    const page = await searchMessagesForUser({ userId: user.id, q: `${a} ` });
    expect(page.results).toHaveLength(SEARCH_PAGE_SIZE);
    expect(page.nextCursor).toEqual(expect.any(String));
  }, 60_000);

  it.runIf(kind === "postgresql")(
    "PostgreSQL: reads a bounded part of the index for a word in every message of a long history",
    async () => {
      const user = await createUser();
      const [common, other] = [word(), word()];
      const n = 6000;
      await longConversation(
        user.id,
        Array.from({ length: n }, (_, i) => `${common} ${i % 3 ? other : "item"} ${i}`),
      );
      // This transaction's own counters of SearchDoc rows read: by sequential and bitmap scans (counted on the
      // table) and by index scans (counted on each index).
      const read = (tx: Tx) =>
        tx
          .$queryRawUnsafe<{ n: bigint }[]>(
            `SELECT pg_stat_get_xact_tuples_returned('"SearchDoc"'::regclass)
                  + sum(pg_stat_get_xact_tuples_fetched(c."oid")) AS n
             FROM pg_class c
             WHERE c."oid" = '"SearchDoc"'::regclass
                OR c."oid" IN (SELECT "indexrelid" FROM pg_index WHERE "indrelid" = '"SearchDoc"'::regclass)`,
          )
          .then((r) => Number(r[0]?.n ?? 0));
      for (const q of [`${common} `, `${common} ${other} `]) {
        const touched = await db.$transaction(async (tx) => {
          const before = await read(tx);
          const page = await searchMessagesForUser({ userId: user.id, q }, { tx });
          expect(page.results).toHaveLength(SEARCH_PAGE_SIZE);
          return (await read(tx)) - before;
        }, BULK);
        // The newest 1 000 documents and their matches ranked: not the 6 000 matches.
        expect(touched).toBeLessThan(n / 2);
      }
    },
    60_000,
  );

  it("never returns another user's messages, and indexes no tool rows", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const w = word();
    const mine = await conversation(alice.id, "Mine", [
      ["user", `${w} belongs to alice`],
      ["tool", `${w} tool output`],
    ]);
    await conversation(bob.id, "Bob's", [["user", `${w} belongs to bob`]]);
    const alicePage = await searchMessagesForUser({ userId: alice.id, q: w });
    expect(alicePage.results.map((r) => r.messageId)).toEqual([mine.messages[0]?.id]);
    const bobPage = await searchMessagesForUser({ userId: bob.id, q: `${w} alice` });
    expect(bobPage.results.map((r) => r.title)).toEqual(["Bob's"]);
    expect(await db.searchDoc.count({ where: { messageId: mine.messages[1]?.id } })).toBe(0);
  });

  it("deleting a conversation removes its whole tree and its index entries in the same transaction", async () => {
    const user = await createUser();
    const w = word();
    const keep = await conversation(user.id, "Keep", [["user", `${w} stays`]]);
    const gone = await conversation(user.id, "Gone", [
      ["user", `${w} question 松石`],
      ["assistant", `${w} answer`],
      ["user", `${w} edited question`],
    ]);
    // A second branch: a sibling answer to the first question.
    const sibling = await db.chatMessage.create({
      data: {
        sessionId: gone.session.id,
        seq: 4,
        role: "assistant",
        text: `${w} other version`,
        parentId: gone.messages[0]?.id,
      },
    });
    await withTransaction((tx) =>
      indexMessages({ docs: [{ ...sibling, userId: user.id, role: "assistant" }] }, { tx }),
    );
    expect((await searchMessagesForUser({ userId: user.id, q: w })).results).toHaveLength(5);
    const before = await ftsRows();

    const receipt = await unsafeDeleteSessionById({ sessionId: gone.session.id, actorId: user.id });
    expect(receipt.deleted.ChatMessage).toBe(4);

    const page = await searchMessagesForUser({ userId: user.id, q: w });
    expect(page.results.map((r) => r.messageId)).toEqual([keep.messages[0]?.id]);
    expect((await searchMessagesForUser({ userId: user.id, q: "松石" })).results).toEqual([]);
    // Zero rows: the documents, the engine's own rows (the trigger fired on the cascade), and any row anywhere
    // naming the conversation or its messages.
    const ids = [gone.session.id, ...gone.messages.map((m) => m.id), sibling.id];
    expect(await db.searchDoc.count({ where: { messageId: { in: ids } } })).toBe(0);
    expect(await ftsRows()).toBe(before - 4);
    const left = await rowsReferring(db, env.DATABASE_URL, ids);
    expect(left).toEqual(zeroEverywhere(left));
  });

  it("replaces a message's entry when it is indexed again, and backfills messages that have none", async () => {
    const user = await createUser();
    const [a, b] = [word(), word()];
    const { messages } = await conversation(user.id, "Edits", [["assistant", `${a} partial`]]);
    const answer = messages[0];
    if (!answer) throw new Error("no answer");
    await db.chatMessage.update({ where: { id: answer.id }, data: { text: `${b} final` } });
    await withTransaction((tx) =>
      indexMessages(
        { docs: [{ ...answer, text: `${b} final`, userId: user.id, role: "assistant" }] },
        { tx },
      ),
    );
    expect((await searchMessagesForUser({ userId: user.id, q: a })).results).toEqual([]);
    expect((await searchMessagesForUser({ userId: user.id, q: b })).results).toHaveLength(1);
    expect(await db.searchDoc.count({ where: { messageId: answer.id } })).toBe(1);

    const c = word();
    const old = await conversation(user.id, "Before the index", [["user", `${c} from before 松石`]], false);
    expect((await searchMessagesForUser({ userId: user.id, q: c })).results).toEqual([]);
    // The backfill walks message ids upwards; ids are time-ordered cuids, so it starts just before this one
    // (from the answer made earlier in this test) and stops once it is indexed: the shared test database may hold
    // any number of other unindexed messages, and backfilling all of them is not what is tested here.
    const oldId = old.messages[0]?.id as string;
    for (let cursor: string | undefined = answer.id; ; ) {
      const { count, lastId } = await indexUnindexedMessages({ limit: 500, afterId: cursor });
      if (count === 0 || (await db.searchDoc.count({ where: { messageId: oldId } })) === 1) break;
      cursor = lastId;
    }
    const found = await searchMessagesForUser({ userId: user.id, q: `${c} 松石` });
    expect(found.results.map((r) => r.messageId)).toEqual([old.messages[0]?.id]);
  });

  it("deleting the user removes the index entries with everything else", async () => {
    const user = await createUser();
    const w = word();
    const { session, messages } = await conversation(user.id, "Leaving", [["user", `${w} goodbye`]]);
    const before = await ftsRows();
    await db.user.delete({ where: { id: user.id } });
    expect(await ftsRows()).toBe(before - 1);
    const left = await rowsReferring(db, env.DATABASE_URL, [user.id, session.id, messages[0]?.id as string]);
    expect(left).toEqual(zeroEverywhere(left));
  });
});
