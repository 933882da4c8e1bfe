import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { embeddingsSettled, embeddingsStatus, scheduleEmbeddings } from "@/lib/chat/embedding-job";
import { answerIdOf, drain } from "@/lib/chat/test-helpers";
import { startTurn } from "@/lib/chat/turn";
import { type ChatMessage, databaseKind, db, sqlitePath } from "@/lib/db/client";
import { nearestMessages, storeVectors, vectorStore } from "@/lib/db/embeddings";
import { recallCandidates } from "@/lib/db/recall";
import { indexMessages } from "@/lib/db/search";
import { unsafeDeleteSessionById } from "@/lib/db/sessions";
import { rowsReferring, zeroEverywhere } from "@/lib/db/test-rows";
import { env } from "@/lib/env";
import { getEmbedder } from "@/lib/llm/embeddings";
import { hashEmbedding } from "@/lib/search/hash-embedding";

// The embeddings path end to end with the offline model's deterministic embeddings: messages embedded after they
// are indexed (the job a committed turn starts), stored with sqlite-vec on SQLite — on PostgreSQL with pgvector
// when the extension can be created, else recall is lexical only and says so — fused into recall, and gone with
// their conversation.

vi.hoisted(() => {
  process.env.EMBEDDINGS_MODEL = "recall-hash-test";
});

const kind = databaseKind(env.DATABASE_URL);

// The job walks every indexed message of this worker's database, and the files run before this one may have left
// thousands (lib/db/recall.int.test.ts): embedded first, so that each test here waits for its own messages only.
beforeAll(async () => {
  scheduleEmbeddings();
  await embeddingsSettled();
}, 120_000);

afterAll(async () => {
  await db.$disconnect();
});

const word = () => `ze${randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function conversation(userId: string, texts: string[]) {
  return db.$transaction(async (tx) => {
    const session = await tx.chatSession.create({
      data: { userId, title: "Vectors", lastSeq: texts.length },
    });
    const rows: ChatMessage[] = [];
    for (const [i, text] of texts.entries()) {
      rows.push(
        await tx.chatMessage.create({
          data: {
            sessionId: session.id,
            seq: i + 1,
            role: i % 2 === 0 ? "user" : "assistant",
            text,
            parentId: rows.at(-1)?.id ?? null,
          },
        }),
      );
    }
    await indexMessages(
      { docs: rows.map((r) => ({ ...r, userId, role: r.role as "user" | "assistant" })) },
      { tx },
    );
    const last = rows.at(-1) as ChatMessage;
    await tx.chatSession.update({
      where: { id: session.id },
      data: { activeLeafId: last.id, activeLeafSeq: last.seq },
    });
    return { session, messages: rows };
  });
}

async function createUser() {
  return db.user.create({
    data: { email: `vec-${randomUUID()}@example.test`, name: "V", passwordHash: "x" },
  });
}

describe(`recall embeddings (${kind})`, () => {
  it("says where vectors are kept: sqlite-vec on SQLite; pgvector on PostgreSQL only when it can be created", async () => {
    const store = await vectorStore();
    const status = await embeddingsStatus();
    if (kind === "sqlite") {
      expect(store).toEqual({ kind: "sqlite-vec" });
      expect(status).toEqual({ status: "on", model: "recall-hash-test", store: "sqlite-vec" });
    } else if (store.kind === "none") {
      console.info(`PostgreSQL: pgvector is not available here, recall is lexical only (${store.reason})`);
      expect(store.reason).toMatch(/pgvector/);
      expect(status).toMatchObject({ status: "unavailable", model: "recall-hash-test" });
      expect(status.status === "unavailable" && status.reason).toMatch(/lexically only/);
    } else {
      console.info("PostgreSQL: pgvector is available");
      expect(status).toEqual({ status: "on", model: "recall-hash-test", store: "pgvector" });
    }
  });

  it("embeds indexed messages after the fact, fuses them into recall, and keeps other users' apart", async () => {
    const user = await createUser();
    const stranger = await createUser();
    const w = word();
    const texts = [
      `My sister ${w} moved to Lisbon in the spring`,
      "That sounds exciting, Lisbon is lovely.",
      "I also started learning the cello",
      "The cello is a wonderful instrument.",
      `Where did ${w} move?`,
    ];
    const mine = await conversation(user.id, texts);
    const theirs = await conversation(stranger.id, [`My sister ${w} moved to Lisbon in the spring`]);
    scheduleEmbeddings();
    await embeddingsSettled();
    const ids = [...mine.messages, ...theirs.messages].map((m) => m.id);
    const stored = await db.messageEmbedding.findMany({ where: { messageId: { in: ids } } });
    const store = await vectorStore();
    if (store.kind === "none") {
      expect(stored).toEqual([]);
    } else {
      expect(stored).toHaveLength(6);
      const first = stored.find((e) => e.messageId === mine.messages[0]?.id);
      expect(first).toMatchObject({
        userId: user.id,
        sessionId: mine.session.id,
        model: "recall-hash-test",
        dims: 256,
      });
      expect([...new Float32Array(new Uint8Array(first?.vector ?? []).buffer)][0]).toBeCloseTo(
        hashEmbedding(texts[0] as string)[0] as number,
        6,
      );
      const near = await nearestMessages({
        userId: user.id,
        sessionId: mine.session.id,
        model: "recall-hash-test",
        vector: hashEmbedding("when did my sister move to Lisbon"),
        limit: 3,
      });
      expect(near[0]?.messageId).toBe(mine.messages[0]?.id);
      expect(near.every((n) => mine.messages.some((m) => m.id === n.messageId))).toBe(true);
    }
    expect(getEmbedder()?.model).toBe("recall-hash-test");
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: mine.session.id,
      scope: "all",
      question: `when did my sister move to Lisbon`,
      leafSeq: 5,
      limit: 5,
    });
    expect(hits[0]?.seq).toBe(1);
    expect(hits.every((h) => h.sessionId === mine.session.id)).toBe(true);
    // Fused scores are sums of 1 / (60 + rank); lexical-only ones are the share of terms held (above 1 here).
    if (store.kind !== "none") expect(hits[0]?.score).toBeLessThan(0.05);
    else expect(hits[0]?.score).toBeGreaterThan(1);
  });

  it("stores more than one statement's worth: every vector kept, a repeated key's last one, none for a gone message", async () => {
    const user = await createUser();
    const texts = Array.from({ length: 150 }, (_, i) => `batch ${word()} ${i}`);
    const { messages } = await conversation(user.id, texts);
    const gone = await conversation(user.id, ["soon deleted"]);
    await unsafeDeleteSessionById({ sessionId: gone.session.id, actorId: user.id });
    const vector = (x: number) => Array.from({ length: 8 }, (_, i) => x + i / 8);
    const items = messages.map((m, i) => ({ key: m.id, vector: vector(i) }));
    const first = messages[0] as ChatMessage;
    items.push(
      { key: first.id, vector: vector(-1) },
      { key: gone.messages[0]?.id as string, vector: vector(9) },
    );
    await storeVectors({ table: "messages", model: "batch-test", items });
    const stored = await db.messageEmbedding.findMany({
      where: { messageId: { in: [...messages, ...gone.messages].map((m) => m.id) } },
    });
    if ((await vectorStore()).kind === "none") {
      expect(stored).toEqual([]);
      return;
    }
    expect(stored).toHaveLength(150);
    const floats = (bytes: Uint8Array) => [...new Float32Array(new Uint8Array(bytes).buffer)];
    const byId = new Map(stored.map((e) => [e.messageId, e]));
    expect(floats(byId.get(first.id)?.vector as Uint8Array)).toEqual(vector(-1));
    expect(floats(byId.get(messages[149]?.id as string)?.vector as Uint8Array)).toEqual(vector(149));
    expect(stored.every((e) => e.userId === user.id && e.model === "batch-test" && e.dims === 8)).toBe(true);
  });

  it("a deleted conversation leaves no search row and no vector behind", async () => {
    const user = await createUser();
    const w = word();
    const gone = await conversation(user.id, [`${w} vectors die`, `${w} with their message`]);
    scheduleEmbeddings();
    await embeddingsSettled();
    const ids = gone.messages.map((m) => m.id);
    const store = await vectorStore();
    expect(await db.messageEmbedding.count({ where: { messageId: { in: ids } } })).toBe(
      store.kind === "none" ? 0 : 2,
    );
    expect(await db.searchDoc.count({ where: { messageId: { in: ids } } })).toBe(2);
    await unsafeDeleteSessionById({ sessionId: gone.session.id, actorId: user.id });
    const left = await rowsReferring(db, env.DATABASE_URL, [gone.session.id, ...ids]);
    expect(left).toEqual(zeroEverywhere(left));
    if (kind === "sqlite") {
      const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT COUNT(*) AS n FROM "SearchFts" WHERE "SearchFts" MATCH ?`,
        `body : "${w}"`,
      );
      expect(Number(row?.n)).toBe(0);
    }
  });

  it("embeds a turn's question before its transaction: no embeddings call waits while the write lock is held", async () => {
    const user = await createUser();
    const session = await db.chatSession.create({ data: { userId: user.id, title: "Lock" } });
    const question = `${word()} is the question embedded outside the transaction?`;
    const embedder = getEmbedder();
    if (!embedder) throw new Error("EMBEDDINGS_MODEL is set: an embedder exists");
    const embed = embedder.embed;
    // Each call's texts, and whether a writer could take the database (SQLite) or the session's row (PostgreSQL).
    const calls: { texts: string[]; free: boolean }[] = [];
    embedder.embed = async (texts) => {
      calls.push({ texts, free: await writable(session.id) });
      return embed.call(embedder, texts);
    };
    const regenerated: typeof calls = [];
    try {
      const events = await drain(
        await startTurn({ sessionId: session.id, userId: user.id, input: { content: question } }),
      );
      await embeddingsSettled();
      // A new version of the answer: its question is read back from the history and embedded, still before.
      const answerId = answerIdOf(events);
      const before = calls.length;
      await drain(
        await startTurn({ sessionId: session.id, userId: user.id, input: { regenerate: answerId } }),
      );
      regenerated.push(...calls.slice(before));
    } finally {
      embedder.embed = embed;
    }
    const asked = calls.filter((c) => c.texts.includes(question));
    if ((await vectorStore()).kind === "none") {
      // No vector store (PostgreSQL without pgvector): nothing is embedded at all, in or out of the transaction.
      expect(calls).toEqual([]);
      return;
    }
    // The question was embedded (by the turn, and once more by the job after the commit), never under the lock.
    expect(asked.length).toBeGreaterThan(0);
    expect(regenerated.filter((c) => c.texts.includes(question)).length).toBeGreaterThan(0);
    expect(calls.map((c) => c.free)).not.toContain(false);
  });
});

/** Whether another connection could write now, without waiting: the probe of the test above. */
async function writable(sessionId: string): Promise<boolean> {
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const other = new Database(sqlitePath(env.DATABASE_URL), { timeout: 0 });
    try {
      other.exec("BEGIN IMMEDIATE");
      other.exec("ROLLBACK");
      return true;
    } catch (e) {
      if ((e as { code?: string }).code?.startsWith("SQLITE_BUSY")) return false;
      throw e;
    } finally {
      other.close();
    }
  }
  const { Client } = await import("pg");
  const other = new Client({ connectionString: env.DATABASE_URL });
  await other.connect();
  try {
    await other.query("BEGIN");
    await other.query(`SELECT 1 FROM "ChatSession" WHERE "id" = $1 FOR UPDATE NOWAIT`, [sessionId]);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === "55P03") return false;
    throw e;
  } finally {
    await other.query("ROLLBACK").catch(() => undefined);
    await other.end();
  }
}
