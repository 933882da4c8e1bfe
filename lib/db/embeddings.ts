import { env } from "@/lib/env";
import { getEmbedder } from "@/lib/llm/embeddings";
import { databaseKind, db, type Tx, vectorExtensionError } from "./client";

// Message embeddings for recall (docs/decisions/026-recall.md). One MessageEmbedding row per message (foreign key
// with ON DELETE CASCADE: the vector goes with its message, conversation or user, in that transaction). SQLite:
// the vector is little-endian float32s, compared with sqlite-vec's vec_distance_cosine (the extension is loaded on
// every connection, lib/db/client.ts). PostgreSQL: with the pgvector extension, in a `pgvector` column added at
// start; without it (CREATE EXTENSION fails) recall is lexical only and says so. Project file chunks are embedded
// the same way, in ProjectChunkEmbedding (docs/decisions/039-chunk-embeddings.md).

type Client = typeof db | Tx;

export type VectorStore = { kind: "sqlite-vec" | "pgvector" } | { kind: "none"; reason: string };

let detected: Promise<VectorStore> | undefined;

/** Where this database keeps vectors, found once per process (PostgreSQL: pgvector is created when it can be). */
export function vectorStore(): Promise<VectorStore> {
  detected ??= detect().catch((e: unknown) => ({
    kind: "none" as const,
    reason: e instanceof Error ? e.message : String(e),
  }));
  return detected;
}

async function detect(): Promise<VectorStore> {
  if (databaseKind(env.DATABASE_URL) === "sqlite") {
    try {
      await db.$queryRawUnsafe("SELECT vec_version() AS v");
      return { kind: "sqlite-vec" };
    } catch {
      return {
        kind: "none",
        reason: `sqlite-vec could not be loaded: ${vectorExtensionError() ?? "unknown"}`,
      };
    }
  }
  try {
    await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    const why = /Message: `(.*)`/.exec(text)?.[1] ?? text.trim().split("\n").at(-1);
    return { kind: "none", reason: `the PostgreSQL extension pgvector is not available (${why})` };
  }
  for (const table of ["MessageEmbedding", "ProjectChunkEmbedding"]) {
    await db.$executeRawUnsafe(`ALTER TABLE "${table}" ADD COLUMN IF NOT EXISTS "pgvector" vector`);
  }
  return { kind: "pgvector" };
}

/** Embeddings stored per statement: 100 × 5 parameters, far under SQLite's 32 766 and PostgreSQL's 65 535. */
const STORE_ROWS = 100;
const toBytes = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer);
const pgVector = (vector: number[]) => `[${vector.join(",")}]`;
const ph = (n: number, from: number, sqlite: boolean) =>
  Array.from({ length: n }, (_, i) => (sqlite ? "?" : `$${from + i}`));

/**
 * The two embedded tables, in what differs: the embeddings table and its key (the embedded row's id; PostgreSQL
 * casts the parameter to its type), the owner columns copied from the row's own rows (`values`: its id, then its
 * owners, read through `join` from `v."id"`), and the rows to embed in walk order (by `position`; `ready` leaves out
 * the unfinished).
 */
const TABLES = {
  messages: {
    embeddings: "MessageEmbedding",
    key: "messageId",
    keyCast: "",
    owners: {
      columns: `"userId", "sessionId"`,
      values: `m."id", s."userId", m."sessionId"`,
      join: `JOIN "ChatMessage" m ON m."id" = v."id" JOIN "ChatSession" s ON s."id" = m."sessionId"`,
    },
    walk: {
      rows: `"SearchDoc" d JOIN "ChatMessage" m ON m."id" = d."messageId"`,
      position: `d."id"`,
      key: `d."messageId"`,
      text: `m."text"`,
      ready: ` AND m."status" <> 'streaming'`,
    },
  },
  chunks: {
    embeddings: "ProjectChunkEmbedding",
    key: "chunkId",
    keyCast: "::int",
    owners: {
      columns: `"projectId", "userId"`,
      values: `c."id", c."projectId", c."userId"`,
      join: `JOIN "ProjectFileChunk" c ON c."id" = v."id"`,
    },
    walk: { rows: `"ProjectFileChunk" c`, position: `c."id"`, key: `c."id"`, text: `c."text"`, ready: "" },
  },
} as const;

export type EmbeddedTable = keyof typeof TABLES;
type KeyOf = { messages: string; chunks: number };

/**
 * Stores (or replaces) embeddings made by `model` of messages or project file chunks. The owners (user and
 * conversation, or project and user) are read from the row's own rows; a row deleted meanwhile (with its
 * conversation, file, project or user) gets none.
 */
export async function storeVectors<T extends EmbeddedTable>(
  { table, model, items }: { table: T; model: string; items: { key: KeyOf[T]; vector: number[] }[] },
  opts: { tx?: Tx } = {},
): Promise<void> {
  const store = await vectorStore();
  if (store.kind === "none" || items.length === 0) return;
  const client: Client = opts.tx ?? db;
  const t = TABLES[table];
  const pg = store.kind === "pgvector";
  // One statement (one commit) per STORE_ROWS items: a statement per item was one commit per message, ~1 ms each on
  // SQLite — most of the backlog job's time. A key given twice keeps its last vector (an upsert may not touch a row
  // twice in one statement).
  const latest = [...new Map(items.map((item) => [item.key, item])).values()];
  const perRow = pg ? 5 : 4;
  for (let from = 0; from < latest.length; from += STORE_ROWS) {
    const part = latest.slice(from, from + STORE_ROWS);
    const values = part.map((_, r) => {
      const [a, b, c, d, e] = ph(perRow, 1 + r * perRow, !pg);
      return pg
        ? `(${a}${t.keyCast}, ${b}, ${c}::int, ${d}::bytea, ${e}::vector)`
        : `(${a}, ${b}, ${c}, ${d})`;
    });
    await client.$executeRawUnsafe(
      `WITH v ("id", "model", "dims", "vector"${pg ? `, "pgvector"` : ""}) AS (
         VALUES ${values.join(", ")}
       )
       INSERT INTO "${t.embeddings}" ("${t.key}", ${t.owners.columns}, "model", "dims", "vector"${pg ? `, "pgvector"` : ""})
       SELECT ${t.owners.values}, v."model", v."dims", v."vector"${pg ? `, v."pgvector"` : ""}
       FROM v ${t.owners.join}
       WHERE true
       ON CONFLICT ("${t.key}") DO UPDATE SET "model" = excluded."model", "dims" = excluded."dims",
         "vector" = excluded."vector"${pg ? `, "pgvector" = excluded."pgvector"` : ""}`,
      ...part.flatMap(({ key, vector }) => [
        key,
        model,
        vector.length,
        toBytes(vector),
        ...(pg ? [pgVector(vector)] : []),
      ]),
    );
  }
}

/**
 * Up to `limit` rows with no embedding by `model`, in walk order after position `after`: indexed messages (user and
 * assistant, with searchable text, by search index id) or project file chunks (by id) — the backlog (older, imported
 * or uploaded before) and each committed turn's messages or upload's chunks.
 */
export async function vectorsToMake<T extends EmbeddedTable>(
  { table, model, after, limit }: { table: T; model: string; after: number; limit: number },
  opts: { tx?: Tx } = {},
): Promise<{ position: number; key: KeyOf[T]; text: string }[]> {
  const client: Client = opts.tx ?? db;
  const t = TABLES[table];
  const w = t.walk;
  const [a, b, c] = ph(3, 1, databaseKind(env.DATABASE_URL) === "sqlite");
  const rows = await client.$queryRawUnsafe<
    { position: number | bigint; key: string | number | bigint; text: string }[]
  >(
    `SELECT ${w.position} AS "position", ${w.key} AS "key", ${w.text} AS "text"
     FROM ${w.rows}
     LEFT JOIN "${t.embeddings}" e ON e."${t.key}" = ${w.key} AND e."model" = ${a}
     WHERE ${w.position} > ${b} AND e."${t.key}" IS NULL${w.ready}
     ORDER BY ${w.position} LIMIT ${c}`,
    model,
    after,
    limit,
  );
  return rows.map((r) => ({
    position: Number(r.position),
    key: (typeof r.key === "string" ? r.key : Number(r.key)) as KeyOf[T],
    text: r.text,
  }));
}

/**
 * The messages nearest to `vector` (cosine) among one conversation's embeddings by `model`, or one user's: message
 * id and distance, nearest first. Reads MessageEmbedding by its conversation or user index, never ChatMessage.
 */
export async function nearestMessages(
  {
    userId,
    sessionId,
    model,
    vector,
    limit,
  }: { userId: string; sessionId?: string; model: string; vector: number[]; limit: number },
  opts: { tx?: Tx } = {},
): Promise<{ messageId: string; distance: number }[]> {
  const store = await vectorStore();
  if (store.kind === "none") return [];
  const client: Client = opts.tx ?? db;
  const sqlite = store.kind === "sqlite-vec";
  const scope = sessionId === undefined ? [userId] : [userId, sessionId];
  const [q, u, s] = ph(3, 1, sqlite);
  const where = `e."userId" = ${u}${sessionId === undefined ? "" : ` AND e."sessionId" = ${s}`}`;
  const [m, dims, lim] = ph(3, scope.length + 2, sqlite);
  const distance = sqlite ? `vec_distance_cosine(e."vector", ${q})` : `e."pgvector" <=> ${q}::vector`;
  const rows = await client.$queryRawUnsafe<{ messageId: string; distance: number }[]>(
    `SELECT e."messageId", ${distance} AS distance FROM "MessageEmbedding" e
     WHERE ${where} AND e."model" = ${m} AND e."dims" = ${dims}
     ORDER BY distance, e."messageId" LIMIT ${lim}`,
    sqlite ? toBytes(vector) : pgVector(vector),
    ...scope,
    model,
    vector.length,
    limit,
  );
  return rows.map((r) => ({ messageId: r.messageId, distance: Number(r.distance) }));
}

/** The question of a turn as recall compares it with messages and file chunks: embedded once, by `model`. */
export interface QuestionVector {
  model: string;
  vector: number[];
}

/**
 * The question's embedding, or null without EMBEDDINGS_MODEL or a vector store. A turn embeds it before its transaction;
 * a failing embeddings server leaves recall lexical (and says so in the log).
 */
export async function embedQuestion(text: string): Promise<QuestionVector | null> {
  const embedder = getEmbedder();
  if (!embedder || (await vectorStore()).kind === "none") return null;
  try {
    const [vector] = await embedder.embed([text]);
    return vector ? { model: embedder.model, vector } : null;
  } catch (e) {
    console.error(
      `[recall] the question could not be embedded; lexical only: ${e instanceof Error ? e.message : e}`,
    );
    return null;
  }
}

/**
 * The chunks of one of the user's projects nearest to `vector` (cosine) among their embeddings by `model`: chunk id
 * and distance, nearest first. Reads ProjectChunkEmbedding by its project index.
 */
export async function nearestChunks(
  {
    userId,
    projectId,
    model,
    vector,
    limit,
  }: { userId: string; projectId: string; model: string; vector: number[]; limit: number },
  opts: { tx?: Tx } = {},
): Promise<{ chunkId: number; distance: number }[]> {
  const store = await vectorStore();
  if (store.kind === "none") return [];
  const client: Client = opts.tx ?? db;
  const sqlite = store.kind === "sqlite-vec";
  const [q, p, u, m, dims, lim] = ph(6, 1, sqlite);
  const distance = sqlite ? `vec_distance_cosine(e."vector", ${q})` : `e."pgvector" <=> ${q}::vector`;
  const rows = await client.$queryRawUnsafe<{ chunkId: number | bigint; distance: number }[]>(
    `SELECT e."chunkId", ${distance} AS distance FROM "ProjectChunkEmbedding" e
     WHERE e."projectId" = ${p} AND e."userId" = ${u} AND e."model" = ${m} AND e."dims" = ${dims}
     ORDER BY distance, e."chunkId" LIMIT ${lim}`,
    sqlite ? toBytes(vector) : pgVector(vector),
    projectId,
    userId,
    model,
    vector.length,
    limit,
  );
  return rows.map((r) => ({ chunkId: Number(r.chunkId), distance: Number(r.distance) }));
}
