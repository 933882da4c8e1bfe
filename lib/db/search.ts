import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import {
  ftsQuestionMatch,
  parseQuestion,
  pgQuestionQuery,
  pgQuestionTermExactQuery,
  pgQuestionTermQuery,
  questionMarks,
  questionTermMatches,
} from "@/lib/search/question";
import { buildSnippet } from "@/lib/search/snippet";
import { indexTerms, pgLexeme, pgOwnerLexeme, pgTermsVector } from "@/lib/search/terms";
import { databaseKind, db, type Tx, type TxOption } from "./client";
import { decodeOffsetCursor, encodeOffsetCursor } from "./cursor";
import { execute, queryRows } from "./sql";
import { inTx, withTransaction } from "./transaction";

// Full-text search over a user's own messages (docs/decisions/017-search.md). The terms are cut by lib/search
// (CJK → bigrams) and stored in the database's own engine: SQLite FTS5 (table SearchFts, bm25) or a PostgreSQL
// tsvector with a GIN index (ts_rank). SearchDoc rows reference their message with ON DELETE CASCADE, so deleting
// a message, a conversation or a user removes its index entries in the same transaction.
// No `import "server-only"`: the bench script calls searchMessagesForUser directly.

export type SearchableRole = "user" | "assistant";

/** A message to (re)index. Owner, conversation and time are read from the stored message itself. */
export interface SearchDocInput {
  id: string;
  sessionId: string;
  userId: string;
  role: SearchableRole | "system" | "tool";
  text: string;
  createdAt: Date;
}

const CHUNK = 200;

/**
 * The index's token for a user: a hash, so the index pages never hold a user id (FTS5 keeps terms in its own
 * blobs) and any id shape makes one plain term. The owner is checked on the rows as well.
 */
export function ownerToken(userId: string): string {
  return `u${createHash("sha256").update(userId).digest("hex").slice(0, 20)}`;
}

/**
 * The index's token for a conversation: 'c' and the hex of its id (a plain ASCII term whatever the id holds, and one
 * SQL can compute, so the migration that added it could fill it in). Recall within a conversation matches it.
 */
export function conversationToken(sessionId: string): string {
  return `c${Buffer.from(sessionId, "utf8").toString("hex")}`;
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const placeholders = (n: number, from = 1, kind = databaseKind(env.DATABASE_URL)) =>
  Array.from({ length: n }, (_, i) => (kind === "sqlite" ? "?" : `$${from + i}`)).join(", ");

/**
 * Indexes messages (insert or replace), inside the caller's transaction: a turn's question when it is appended,
 * its answer when it commits, imported messages at import. Tool and system messages, and messages without a
 * searchable term, are only removed from the index.
 */
export async function indexMessages(
  {
    docs,
    fresh = false,
  }: {
    docs: SearchDocInput[];
    /** The messages were never indexed (just written), so there is no entry to replace. */
    fresh?: boolean;
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  if (docs.length === 0) return;
  const kind = databaseKind(env.DATABASE_URL);
  for (const batch of chunks(docs)) {
    const ids = batch.map((d) => d.id);
    if (!fresh) {
      await execute(
        tx,
        `DELETE FROM "SearchDoc" WHERE "messageId" IN (${placeholders(ids.length, 1, "sqlite")})`,
        ids,
      );
    }
    // Terms are cut once per message; one without any is only removed from the index.
    const terms = new Map<string, { terms: string[]; userId: string; sessionId: string }>();
    for (const d of batch) {
      if (d.role !== "user" && d.role !== "assistant") continue;
      const cut = indexTerms(d.text);
      if (cut.length) terms.set(d.id, { terms: cut, userId: d.userId, sessionId: d.sessionId });
    }
    if (terms.size === 0) continue;
    if (kind === "sqlite") await insertSqliteDocs(tx, terms);
    else await insertPostgresDocs(tx, terms);
  }
}

/**
 * SearchDoc rows (owner and conversation read from the message's own rows), then their FTS5 entries by rowid.
 * Documents are numbered in the order their messages were written: recall reads a term's earliest matches by
 * document id (lib/db/recall.ts), and without the ORDER BY an imported batch was numbered in the order of its
 * message ids, which are random.
 */
async function insertSqliteDocs(tx: Tx, terms: Map<string, { terms: string[] }>) {
  const wanted = [...terms.keys()];
  const inserted = await queryRows<{
    id: number | bigint;
    messageId: string;
    userId: string;
    sessionId: string;
  }>(
    tx,
    `INSERT INTO "SearchDoc" ("messageId", "userId", "sessionId", "createdAt")
     SELECT m."id", s."userId", m."sessionId", m."createdAt"
     FROM "ChatMessage" m JOIN "ChatSession" s ON s."id" = m."sessionId"
     WHERE m."id" IN (${placeholders(wanted.length, 1, "sqlite")})
     ORDER BY m."createdAt", m."seq"
     RETURNING "id", "messageId", "userId", "sessionId"`,
    wanted,
  );
  if (inserted.length === 0) return;
  const values = inserted.map(() => "(?, ?, ?, ?)").join(", ");
  const params = inserted.flatMap((r) => [
    Number(r.id),
    ownerToken(r.userId),
    conversationToken(r.sessionId),
    terms.get(r.messageId)?.terms.join(" ") ?? "",
  ]);
  await execute(tx, `INSERT INTO "SearchFts" (rowid, owner, conv, body) VALUES ${values}`, params);
}

/**
 * SearchDoc rows with their tsvector in one INSERT: the vector carries the caller's owner and conversation tokens,
 * and a row is only written when they are the message's own. Numbered in the order the messages were written (see
 * insertSqliteDocs).
 */
async function insertPostgresDocs(
  tx: Tx,
  terms: Map<string, { terms: string[]; userId: string; sessionId: string }>,
) {
  const entries = [...terms];
  const values = entries
    .map((_, i) => `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4}::tsvector)`)
    .join(", ");
  const params = entries.flatMap(([id, t]) => [
    id,
    t.userId,
    t.sessionId,
    `${pgTermsVector(t.terms, ownerToken(t.userId))} ${pgConversationLexeme(t.sessionId)}`,
  ]);
  await tx.$executeRawUnsafe(
    `INSERT INTO "SearchDoc" ("messageId", "userId", "sessionId", "createdAt", "terms")
     SELECT m."id", s."userId", m."sessionId", m."createdAt", v.terms
     FROM (VALUES ${values}) AS v(id, uid, sid, terms)
     JOIN "ChatMessage" m ON m."id" = v.id AND m."sessionId" = v.sid
     JOIN "ChatSession" s ON s."id" = m."sessionId" AND s."userId" = v.uid
     ORDER BY m."createdAt", m."seq"`,
    ...params,
  );
}

/**
 * Indexes up to `limit` user and assistant messages that have no index entry yet (messages from before the
 * search_index migration, which SQL alone cannot cut into terms), in id order after `afterId`. Returns how many it
 * looked at and the last id: call again with it until `count` is 0 (a message without a searchable term gets no
 * entry, so it must not be looked at twice).
 */
export async function indexUnindexedMessages(
  { limit = 2000, afterId }: { limit?: number; afterId?: string | undefined } = {},
  { tx }: TxOption = {},
): Promise<{ count: number; lastId: string | undefined }> {
  const rows = await (tx ?? db).chatMessage.findMany({
    where: {
      role: { in: ["user", "assistant"] },
      status: { not: "streaming" },
      searchDoc: { is: null },
      ...(afterId === undefined ? {} : { id: { gt: afterId } }),
    },
    select: INDEXED_MESSAGE,
    orderBy: { id: "asc" },
    take: limit,
  });
  if (rows.length === 0) return { count: 0, lastId: afterId };
  await inTx({ tx }, (t) => indexMessages({ docs: rows.map(searchDocOf) }, { tx: t }));
  return { count: rows.length, lastId: rows.at(-1)?.id };
}

/**
 * Whether documents that may lack their words' stems are still in the index (written before stems were indexed
 * beside words; the `search_stems` migration kept the last of their ids, setup indexes them again). While they are,
 * a question's term is looked up by its word and its stem; after, by its stem alone, which every later document
 * holds for every word it holds. Remembered once false: a document written now always has its stems.
 */
export async function legacyStemsLeft({ tx }: TxOption = {}): Promise<boolean> {
  if (stemsComplete) return false;
  const client = tx ?? db;
  const marker = await legacyMaxId(client);
  const left =
    marker > 0 &&
    (await client.searchDoc.findFirst({ where: { id: { lte: marker } }, select: { id: true } })) !== null;
  if (!left) stemsComplete = true;
  return left;
}
let stemsComplete = false;

/**
 * Indexes again up to `limit` documents written before stems were indexed (see legacyStemsLeft), oldest first: each
 * gets a new document with its stems. Returns how many it indexed again; at 0 none is left, and the marker is set
 * to 0 so that no later check reads the index. Call until it returns 0 (setup does).
 */
export async function restemLegacyDocs({ limit = 2000 }: { limit?: number } = {}): Promise<number> {
  return withTransaction(async (tx) => {
    const marker = await legacyMaxId(tx);
    if (marker === 0) return 0;
    const rows = await tx.searchDoc.findMany({
      where: { id: { lte: marker } },
      orderBy: { id: "asc" },
      take: limit,
      select: { message: { select: INDEXED_MESSAGE } },
    });
    if (rows.length === 0) {
      await tx.searchIndexState.update({ where: { id: 1 }, data: { legacyMaxId: 0 } });
      return 0;
    }
    await indexMessages({ docs: rows.map((r) => searchDocOf(r.message)) }, { tx });
    return rows.length;
  }, RESTEM_TRANSACTION);
}
/** Setup runs it before the server starts; a batch of long messages on a slow disk may outlast the 5 s default. */
const RESTEM_TRANSACTION = { timeout: 60_000 };

/** The last document id that may lack stems (0: none; no row counts as none). */
async function legacyMaxId(client: Tx): Promise<number> {
  const state = await client.searchIndexState.findUnique({ where: { id: 1 }, select: { legacyMaxId: true } });
  return state?.legacyMaxId ?? 0;
}

/** What indexing a stored message reads of it: its own columns and its conversation's owner. */
const INDEXED_MESSAGE = {
  id: true,
  sessionId: true,
  role: true,
  text: true,
  createdAt: true,
  session: { select: { userId: true } },
} as const;

function searchDocOf(m: {
  id: string;
  sessionId: string;
  role: SearchDocInput["role"];
  text: string;
  createdAt: Date;
  session: { userId: string };
}): SearchDocInput {
  return {
    id: m.id,
    sessionId: m.sessionId,
    role: m.role,
    text: m.text,
    createdAt: m.createdAt,
    userId: m.session.userId,
  };
}

/** The conversation lexeme of a tsvector: '@' never occurs in a term, so no query word can match it. */
export function pgConversationLexeme(sessionId: string): string {
  return pgLexeme(`@${conversationToken(sessionId)}`);
}

export const SEARCH_PAGE_SIZE = 20;
/** Deepest result a cursor may ask for: ranking is recomputed per page, so pages are bounded. */
const SEARCH_MAX_OFFSET = 1000;
export const SEARCH_MAX_QUERY_LENGTH = 200;

export interface SearchResult {
  sessionId: string;
  messageId: string;
  title: string;
  /** The original text around the first match, HTML-escaped, matches wrapped in <mark>…</mark>. */
  snippet: string;
  createdAt: string;
  /** Who said it. */
  role: SearchableRole;
  /** Its place among the versions at its point of the conversation (1-based), or null when it has none beside it. */
  version: { index: number; count: number } | null;
}

export interface SearchPage {
  results: SearchResult[];
  nextCursor: string | null;
}

type Hit = {
  messageId: string;
  sessionId: string;
  createdAt: Date | string;
  title: string;
  score: number | string;
  /** PostgreSQL: how many of the question's terms the message holds, counted on its index entry. */
  held?: number | string;
  /** SQLite: the message's text, where they are counted. */
  text?: string;
};

/** How many of the best lexical matches are ranked again by how much of the question they hold. */
const RANK_POOL = 200;
/**
 * PostgreSQL ranks a bounded set (`search_ranked_docs`, migration search_bounded): the matches among the user's
 * newest PG_RECENT_DOCS documents, and from the GIN index at most PG_PROBE_CAP matches of each term that matches
 * fewer than PG_DENSE of those, and of the documents holding all the question's terms or all but one.
 */
const PG_RECENT_DOCS = 1000;
const PG_DENSE = 0.05;
const PG_PROBE_CAP = 400;

export interface RankedHit {
  messageId: string;
  sessionId: string;
  title: string;
  createdAt: Date;
  /**
   * The share of the question's content terms the message has (+1 when it has all), then the engine's score scaled
   * to the best in the pool, below one step of the share.
   */
  score: number;
}

/**
 * The user's messages that share any content word with the question `q`, best first: the engine's own ranking
 * (FTS5 bm25 / PostgreSQL ts_rank_cd) over any-term matches, then the messages that hold every content term ahead of
 * those that hold some (lib/search's parseQuestion: stop words out, stems in, CJK bigrams). Deterministic: ties go
 * to the newer message. Only the user's own conversations: the owner is in the match and checked on the rows.
 * SQLite ranks every match; PostgreSQL a bounded set of them (see PG_RECENT_DOCS), its pool chosen by the number of
 * terms held first, then ts_rank_cd.
 */
async function rankMessagesForUser(
  { userId, q, pool = RANK_POOL }: { userId: string; q: string; pool?: number },
  { tx = db }: TxOption = {},
): Promise<RankedHit[]> {
  const question = parseQuestion(q);
  const kind = databaseKind(env.DATABASE_URL);
  let rows: Hit[];
  if (kind === "sqlite") {
    const match = ftsQuestionMatch(question, ownerToken(userId));
    if (!match) return [];
    rows = await tx.$queryRawUnsafe<Hit[]>(
      `WITH hits AS (
         SELECT rowid AS id, rank FROM "SearchFts" WHERE "SearchFts" MATCH ? ORDER BY rank, rowid DESC LIMIT ?
       )
       SELECT d."messageId", d."sessionId", d."createdAt", m."text", s."title", -hits.rank AS score
       FROM hits
       JOIN "SearchDoc" d ON d."id" = hits.id
       JOIN "ChatMessage" m ON m."id" = d."messageId"
       JOIN "ChatSession" s ON s."id" = d."sessionId"
       WHERE d."userId" = ? AND s."userId" = ? AND s."temporary" = false
       ORDER BY hits.rank, hits.id DESC`,
      match,
      pool,
      userId,
      userId,
    );
  } else {
    const query = pgQuestionQuery(question);
    if (!query) return [];
    // The ranked documents (the user's own), then their conversation, one key lookup each (OFFSET 0 keeps
    // PostgreSQL from flattening the lookups into a join over a whole table, as it did for recall's pool). The terms
    // each holds are counted on its index entry, so no text is read here.
    rows = await tx.$queryRawUnsafe<Hit[]>(
      `SELECT h."messageId", h."sessionId", h."createdAt", s."title", h.score, h.held
       FROM search_ranked_docs(
         $1::text[]::tsquery[], $2::text[]::tsquery[], $3::tsquery, $4::tsquery, $5, $6::int, $7::float8, $8::int, $9::int
       ) h
       CROSS JOIN LATERAL (
         SELECT t."title" FROM "ChatSession" t
         WHERE t."id" = h."sessionId" AND t."userId" = $5 AND t."temporary" = false OFFSET 0
       ) s
       ORDER BY h.held DESC, h.score DESC, h."id" DESC`,
      question.terms.map(pgQuestionTermQuery),
      question.terms.map(pgQuestionTermExactQuery),
      query,
      pgOwnerLexeme(ownerToken(userId)),
      userId,
      PG_RECENT_DOCS,
      PG_DENSE,
      PG_PROBE_CAP,
      pool,
    );
  }
  const best = Math.max(...rows.map((r) => Number(r.score)), Number.MIN_VALUE);
  return rows
    .map((r) => {
      const terms = r.text === undefined ? null : new Set(indexTerms(r.text));
      const held = terms
        ? question.terms.filter((t) => questionTermMatches(terms, t)).length
        : Number(r.held);
      const share = held / question.terms.length;
      return {
        messageId: r.messageId,
        sessionId: r.sessionId,
        title: r.title,
        createdAt: new Date(r.createdAt),
        // The share of terms decides; the engine's score (scaled below one step of the share) orders within it.
        score:
          share + (share === 1 ? 1 : 0) + Math.max(0, Number(r.score)) / best / (question.terms.length + 1),
      };
    })
    .sort((a, b) => b.score - a.score || b.createdAt.getTime() - a.createdAt.getTime());
}

/**
 * The versions beside each hit of a page: the children of its parent (roots are versions of each other), by seq,
 * in one read (index (sessionId, parentId, seq)). Here rather than lib/db/tree.ts, which is server-only and this
 * module also serves the setup script's indexing.
 */
async function versionsOf(
  hits: { messageId: string; sessionId: string; parentId: string | null }[],
  { tx = db }: TxOption,
): Promise<Map<string, { index: number; count: number }>> {
  if (hits.length === 0) return new Map();
  const children = await tx.chatMessage.findMany({
    where: { OR: hits.map((h) => ({ sessionId: h.sessionId, parentId: h.parentId })) },
    orderBy: { seq: "asc" },
    select: { id: true, sessionId: true, parentId: true },
  });
  const point = (sessionId: string, parentId: string | null) => `${sessionId}/${parentId ?? ""}`;
  const byPoint = new Map<string, string[]>();
  for (const c of children) {
    const key = point(c.sessionId, c.parentId);
    byPoint.set(key, [...(byPoint.get(key) ?? []), c.id]);
  }
  const versions = new Map<string, { index: number; count: number }>();
  for (const h of hits) {
    const ids = byPoint.get(point(h.sessionId, h.parentId)) ?? [];
    if (ids.length > 1) versions.set(h.messageId, { index: ids.indexOf(h.messageId) + 1, count: ids.length });
  }
  return versions;
}

/**
 * One page of GET /api/search: the ranking above, `limit` at a time. The ranking is recomputed per page over a
 * pool that reaches past the page, so pages are stable and bounded by SEARCH_MAX_OFFSET.
 */
export async function searchMessagesForUser(
  {
    userId,
    q,
    cursor,
    limit = SEARCH_PAGE_SIZE,
  }: { userId: string; q: string; cursor?: string | null; limit?: number },
  { tx }: TxOption = {},
): Promise<SearchPage> {
  const offset = decodeOffsetCursor(cursor, SEARCH_MAX_OFFSET);
  const ranked = await rankMessagesForUser(
    { userId, q, pool: Math.max(RANK_POOL, offset + limit + 1) },
    { tx },
  );
  const next = offset + limit;
  // Only the page's messages are read.
  const ranks = ranked.slice(offset, offset + limit);
  const messages = new Map(
    (
      await (tx ?? db).chatMessage.findMany({
        where: { id: { in: ranks.map((r) => r.messageId) } },
        select: { id: true, text: true, role: true, parentId: true },
      })
    ).map((m) => [m.id, m]),
  );
  const page = ranks.flatMap((r) => {
    const m = messages.get(r.messageId);
    return m ? [{ ...r, text: m.text, role: m.role, parentId: m.parentId }] : [];
  });
  const marks = questionMarks(q);
  const versions = await versionsOf(page, { tx });
  return {
    results: page.map((r) => ({
      sessionId: r.sessionId,
      messageId: r.messageId,
      title: r.title,
      snippet: buildSnippet(r.text, marks),
      createdAt: r.createdAt.toISOString(),
      role: r.role === "assistant" ? "assistant" : "user",
      version: versions.get(r.messageId) ?? null,
    })),
    nextCursor: ranked.length > next && next <= SEARCH_MAX_OFFSET ? encodeOffsetCursor(next) : null,
  };
}
