import { env } from "@/lib/env";
import {
  fuse,
  type LexicalCandidate,
  poolOf,
  type QuestionShape,
  rankCandidates,
  type Slot,
  shapeQuestion,
} from "@/lib/search/recall-rank";
import { ftsString, pgOwnerLexeme } from "@/lib/search/terms";
import { databaseKind, db, type Tx } from "./client";
import { embedQuestion, nearestMessages, type QuestionVector } from "./embeddings";
import { conversationToken, legacyStemsLeft, ownerToken, pgConversationLexeme } from "./search";
import { queryRows } from "./sql";
import { walkUp } from "./tree";

// The earlier messages a turn may recall (docs/decisions/026-recall.md, "Ranking"): the question's content terms
// matched on the search index — the conversation's postings (scope conversation) or the user's (scope all) — then
// only what the question may see: the user's own conversations, after each one's clear-memory boundary, on the path
// of the current question (other conversations: their active path), never the question itself or `excludeSeqs`.
// Messages leave the index with their message (foreign-key cascade), so a deleted message is never a candidate.
// No statement reads ChatMessage other than by primary key or by (sessionId, seq).

type Client = typeof db | Tx;

export interface RecallHit {
  messageId: string;
  sessionId: string;
  sessionTitle: string;
  seq: number;
  role: "user" | "assistant";
  createdAt: Date;
  text: string;
  score: number;
  partner?: Omit<RecallHit, "partner" | "score">;
}

export interface RecallArgs {
  userId: string;
  sessionId: string;
  scope: "conversation" | "all";
  /**
   * The conversation's project (null or absent: none). Scope `all` then reaches only the project's conversations
   * (docs/decisions/037-project-files.md).
   */
  projectId?: string | null | undefined;
  question: string;
  /** The seq of the current question. */
  leafSeq: number;
  /**
   * The conversation's clear-memory boundary as the caller read it (0 or absent: none known). With scope
   * `conversation` the index is read from the first document after it, not from the conversation's start.
   */
  startSeq?: number;
  excludeSeqs?: number[];
  limit: number;
  /**
   * The question's embedding, when the caller made it (a turn embeds its question once for messages and file
   * chunks); null: none. Absent: embedded here.
   */
  embedding?: QuestionVector | null;
}

/** At most this many path steps are walked in a branched conversation; older candidates there are left out. */
const MAX_WALK = 4000;
/** How far along the path a hit's partner (its question, or its answer after tool steps) is looked for. */
const PARTNER_REACH = 6;
/** The best candidates whose neighbours are read, so the other speaker's words count in their ranking. */
const RESCORED = 30;
/**
 * Scope `all` in a project: up to this many of its conversations (most recently changed) are matched by their own
 * tokens; a project with more is matched on the user's token and its other conversations are dropped from the rows.
 */
const MAX_PROJECT_CONVERSATIONS = 64;

interface SessionRow {
  id: string;
  title: string;
  memoryStartSeq: number;
  forks: number;
  activeLeafId: string | null;
  activeLeafSeq: number;
  temporary: boolean;
  projectId: string | null;
}

/** Which documents the index is asked for: one conversation's, some conversations', or all of the user's. */
type IndexScope = { conversation: string } | { conversations: string[] } | { owner: string };

interface MessageRow {
  id: string;
  sessionId: string;
  seq: number;
  role: string;
  createdAt: Date;
  text: string;
  status: string;
}

interface Scope {
  session: SessionRow;
  /** The last message of the visible path: the current question here, the active leaf elsewhere. */
  leafSeq: number;
  /** Whether the leaf itself is visible (another conversation's leaf is; the current question is not). */
  leafVisible: boolean;
  /** Seqs of the path in a branched conversation, walked from the leaf (null: one path, seqs tell). */
  path: Set<number> | null;
  excluded: Set<number>;
}

const toDate = (v: unknown) =>
  v instanceof Date ? v : new Date(typeof v === "bigint" || typeof v === "number" ? Number(v) : String(v));

/**
 * The earlier messages most relevant to `question` that the current question may see, best first (at most
 * `limit`), each with its partner on the same path: the question of an answer, the answer of a question.
 */
export async function recallCandidates(args: RecallArgs, opts: { tx?: Tx } = {}): Promise<RecallHit[]> {
  const client: Client = opts.tx ?? db;
  const { userId, sessionId, scope, leafSeq, limit } = args;
  if (limit <= 0) return [];
  // A conversation no longer than the window: every earlier message is already in the context, so nothing can be
  // recalled from it and no statement is needed to know that.
  if (scope === "conversation" && coversEveryEarlierSeq(args.excludeSeqs ?? [], leafSeq)) return [];
  const question = shapeQuestion(args.question, { stemsOnly: !(await legacyStemsLeft({ tx: opts.tx })) });
  const known = new Map<string, SessionRow>();
  /** The messages the index matched, by conversation and seq: a candidate's partner is often one of them. */
  const read = new Map<string, Map<number, MessageRow>>();
  // Scope all inside a project: that project's conversations only (checked on the rows below whatever matched).
  const project = scope === "all" ? (args.projectId ?? null) : null;
  const startSeq = args.startSeq ?? 0;
  const minDoc =
    scope === "conversation" && startSeq > 0 ? await firstDocAfter(client, { sessionId, startSeq }) : 0;
  const lexical =
    question.terms.length === 0
      ? []
      : await lexicalMatches(client, {
          userId,
          token:
            scope === "conversation"
              ? { conversation: sessionId }
              : project
                ? await projectIndexScope(client, { userId, projectId: project })
                : { owner: userId },
          question,
          // With the index read from the boundary on, a word's rarity is counted among the messages after it.
          leafSeq: minDoc > 0 ? leafSeq - startSeq : leafSeq,
          minDoc,
          sessions: known,
          messages: read,
        });
  const embedding = args.embedding === undefined ? await embedQuestion(args.question) : args.embedding;
  const near = await vectorMatches(client, { userId, sessionId, scope, embedding });
  const lexicalIds = new Set(lexical.map((m) => m.messageId));
  const matches = [...lexical, ...near.candidates.filter((c) => !lexicalIds.has(c.messageId))];
  if (matches.length === 0) return [];

  // The conversations of the matches came with them; only those of embedding matches the index did not find are read
  // (owned by the user). Scope conversation: only the conversation itself (its token is its own; another
  // conversation's row would be a damaged one, dropped).
  // The current conversation must be the user's whatever matched (read only when none of its messages did).
  const wanted =
    scope === "conversation" ? [sessionId] : [...new Set([sessionId, ...matches.map((m) => m.sessionId)])];
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const rows = await client.chatSession.findMany({
      where: { id: { in: missing }, userId },
      select: {
        id: true,
        title: true,
        memoryStartSeq: true,
        forks: true,
        activeLeafId: true,
        activeLeafSeq: true,
        temporary: true,
        projectId: true,
      },
    });
    for (const r of rows) known.set(r.id, r);
  }
  if (!known.has(sessionId)) return [];
  // Nothing is recalled from a temporary chat into another conversation, nor from outside the project.
  const sessions = wanted
    .flatMap((id) => known.get(id) ?? [])
    .filter((s) => s.id === sessionId || (!s.temporary && (project === null || s.projectId === project)));
  const scopes = new Map<string, Scope>();
  for (const s of sessions) {
    const here = s.id === sessionId;
    scopes.set(s.id, {
      session: s,
      leafSeq: here ? leafSeq : s.activeLeafSeq,
      leafVisible: !here,
      path: null,
      excluded: new Set(here ? [leafSeq, ...(args.excludeSeqs ?? [])] : []),
    });
  }

  const seen = matches.filter((m) => {
    const sc = scopes.get(m.sessionId);
    return sc !== undefined && m.seq > sc.session.memoryStartSeq && m.seq <= sc.leafSeq;
  });
  // Branched conversations: walk the visible path, as deep as the oldest candidate there (and its partner).
  for (const sc of scopes.values()) {
    if (sc.session.forks === 0) continue;
    const mine = seen.filter((m) => m.sessionId === sc.session.id);
    if (mine.length === 0) continue;
    const oldest = Math.min(...mine.map((m) => m.seq));
    await walkPath(client, sc, Math.max(sc.session.memoryStartSeq, oldest - PARTNER_REACH - 1));
  }
  const visible = seen.filter((m) => {
    const sc = scopes.get(m.sessionId) as Scope;
    return isVisible(sc, m.seq) && (m.role === "user" || m.role === "assistant");
  });
  if (visible.length === 0) return [];

  // A first ranking on the message alone; the best are ranked again with their neighbours' words. The nearest
  // by embedding join them, and the two orders are fused (reciprocal rank fusion).
  const first = rankCandidates(question, visible, new Map());
  const nearest = visible
    .filter((c) => near.distance.has(c.messageId))
    .sort((a, b) => (near.distance.get(a.messageId) as number) - (near.distance.get(b.messageId) as number));
  const top = [...first.slice(0, Math.max(RESCORED, limit))];
  const inTop = new Set(top.map((c) => c.messageId));
  for (const c of nearest.slice(0, Math.max(RESCORED, limit))) {
    if (!inTop.has(c.messageId)) top.push({ ...c, score: 0 });
  }
  const partners = await findPartners(client, top, scopes, read);
  const lexicalOrder = rankCandidates(question, top, new Map([...partners].map(([id, p]) => [id, p.text])));
  const ranked =
    near.distance.size === 0 ? lexicalOrder.slice(0, limit) : fuse(lexicalOrder, nearest).slice(0, limit);

  return ranked.map((c) => {
    const sc = scopes.get(c.sessionId) as Scope;
    const p = partners.get(c.messageId);
    const hit: RecallHit = {
      messageId: c.messageId,
      sessionId: c.sessionId,
      sessionTitle: sc.session.title,
      seq: c.seq,
      role: c.role as RecallHit["role"],
      createdAt: c.createdAt,
      text: c.text,
      score: c.score,
    };
    if (p && !sc.excluded.has(p.seq)) {
      hit.partner = {
        messageId: p.id,
        sessionId: p.sessionId,
        sessionTitle: sc.session.title,
        seq: p.seq,
        role: p.role as RecallHit["role"],
        createdAt: p.createdAt,
        text: p.text,
      };
    }
    return hit;
  });
}

function coversEveryEarlierSeq(seqs: readonly number[], leafSeq: number): boolean {
  if (seqs.length < leafSeq - 1) return false;
  const held = new Set(seqs);
  for (let seq = 1; seq < leafSeq; seq++) if (!held.has(seq)) return false;
  return true;
}

/** How many nearest messages by embedding join the lexical candidates. */
const VECTOR_POOL = 60;

/**
 * The messages nearest to the question by embedding (none without one: no EMBEDDINGS_MODEL, no vector store, or
 * the embeddings server failed), read by primary key.
 */
async function vectorMatches(
  client: Client,
  {
    userId,
    sessionId,
    scope,
    embedding,
  }: { userId: string; sessionId: string; scope: RecallArgs["scope"]; embedding: QuestionVector | null },
): Promise<{ candidates: LexicalCandidate[]; distance: Map<string, number> }> {
  const none = { candidates: [], distance: new Map<string, number>() };
  if (!embedding) return none;
  const hits = await nearestMessages(
    {
      userId,
      ...(scope === "conversation" ? { sessionId } : {}),
      model: embedding.model,
      vector: embedding.vector,
      limit: VECTOR_POOL,
    },
    { tx: client as Tx },
  );
  if (hits.length === 0) return none;
  const rows = await client.chatMessage.findMany({
    where: { id: { in: hits.map((h) => h.messageId) }, status: { not: "streaming" } },
    select: { id: true, sessionId: true, seq: true, role: true, createdAt: true, text: true },
  });
  return {
    candidates: rows.map((r) => ({
      messageId: r.id,
      sessionId: r.sessionId,
      seq: r.seq,
      role: String(r.role),
      createdAt: r.createdAt,
      text: r.text,
      engine: 0,
    })),
    distance: new Map(hits.map((h) => [h.messageId, h.distance])),
  };
}

/**
 * Whether a message at `seq` is on the visible path of its conversation and after its boundary (the current question
 * is not), and, unless `anyExcluded`, not one of the excluded seqs.
 */
function isVisible(sc: Scope, seq: number, anyExcluded = false): boolean {
  if (seq <= sc.session.memoryStartSeq || (!anyExcluded && sc.excluded.has(seq))) return false;
  if (seq > sc.leafSeq || (seq === sc.leafSeq && !sc.leafVisible)) return false;
  if (sc.path === null) return true;
  return sc.path.has(seq);
}

/**
 * The index's matches of the question's terms among one conversation's documents or one user's (the token is in
 * the match, so the engine intersects postings), ranked by the engine, with their message read by primary key.
 */
async function lexicalMatches(
  client: Client,
  {
    userId,
    token,
    question,
    leafSeq,
    minDoc,
    sessions,
    messages,
  }: {
    userId: string;
    token: IndexScope;
    question: QuestionShape;
    /** The current question's seq: about how many messages the conversation holds (for term rarity). */
    leafSeq: number;
    /** The first document the index is read from (`firstDocAfter`; 0: the scope's first). */
    minDoc: number;
    /** Filled with the conversations of the matches (owned by the user: checked in the statement). */
    sessions: Map<string, SessionRow>;
    /** Filled with the matched messages, as `readSeqs` reads them. */
    messages: Map<string, Map<number, MessageRow>>;
  },
): Promise<LexicalCandidate[]> {
  const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";
  const pool = sqlite
    ? await sqliteSlotPool(
        client,
        "conversation" in token
          ? `conv : ${ftsString(conversationToken(token.conversation))}`
          : "conversations" in token
            ? `conv : (${token.conversations.map((id) => ftsString(conversationToken(id))).join(" OR ")})`
            : `owner : ${ftsString(ownerToken(token.owner))}`,
        question.slots,
        leafSeq,
        minDoc,
      )
    : await pgSlotPool(client, { userId, token, slots: question.slots, leafSeq, minDoc });
  if (pool.size === 0) return [];
  const ids = [...pool.keys()];
  // Documents, then their message, then its conversation, one key lookup each: with a hundred ids either engine
  // may otherwise start from the user's conversations and read every message of them (SQLite reorders joins unless
  // they are CROSS JOINs; PostgreSQL chose a merge join over all of ChatMessage when its statistics were stale, and
  // OFFSET 0 keeps it from flattening the lateral lookups back into a join). On SQLite the ids are one JSON
  // parameter, so the statement is prepared once per connection (written into the text, each turn's was new); on
  // PostgreSQL they are integers the index returned, written into the statement.
  // SQLite hands the rows back as one JSON value: Prisma converts every row and value of a raw result, which cost
  // more than the statement itself for a hundred rows.
  const rows = sqlite
    ? rowsOf(
        await queryRows<{ list: string | null }>(
          client,
          `SELECT json_group_array(json_array(d."id", ${MESSAGE_COLUMNS}, ${SESSION_COLUMNS})) AS list
           FROM json_each(?) j
           CROSS JOIN "SearchDoc" d ON d."id" = j."value"
           CROSS JOIN "ChatMessage" m ON m."id" = d."messageId"
           CROSS JOIN "ChatSession" s ON s."id" = m."sessionId"
           WHERE d."userId" = ? AND s."userId" = ? AND m."status" <> 'streaming'`,
          [JSON.stringify(ids), userId, userId],
        ),
      )
    : await client.$queryRawUnsafe<Row[]>(
        `SELECT d."id" AS doc, ${MESSAGE_COLUMNS}, ${SESSION_COLUMNS}
         FROM "SearchDoc" d
         CROSS JOIN LATERAL (
           SELECT c."id", c."sessionId", c."seq", c."role", c."createdAt", c."text", c."parts", c."status" FROM "ChatMessage" c
           WHERE c."id" = d."messageId" AND c."status" <> 'streaming' OFFSET 0
         ) m
         CROSS JOIN LATERAL (
           SELECT * FROM "ChatSession" t WHERE t."id" = m."sessionId" AND t."userId" = $2 OFFSET 0
         ) s
         WHERE d."id" IN (${ids.join(", ")}) AND d."userId" = $1`,
        userId,
        userId,
      );
  for (const r of rows) {
    sessions.set(r.sessionId, {
      id: r.sessionId,
      title: r.title,
      memoryStartSeq: Number(r.memoryStartSeq),
      forks: Number(r.forks),
      activeLeafId: r.activeLeafId,
      activeLeafSeq: Number(r.activeLeafSeq),
      temporary: Boolean(Number(r.temporary)),
      projectId: r.projectId,
    });
  }
  for (const r of rows) {
    const row = messageRow({ ...r, seq: Number(r.seq), createdAt: toDate(r.createdAt) });
    const bySeq = messages.get(row.sessionId) ?? new Map<number, MessageRow>();
    messages.set(row.sessionId, bySeq.set(row.seq, row));
  }
  return rows.map((r) => ({
    messageId: r.id,
    sessionId: r.sessionId,
    seq: Number(r.seq),
    role: String(r.role),
    createdAt: toDate(r.createdAt),
    text: r.text,
    engine: pool.get(Number(r.doc)) ?? 0,
  }));
}

/** Index rows read across the question's slots, each slot's share bounded below and above. */
const SLOT_ROWS = 2400;
const MIN_SLOT_ROWS = 64;
const MAX_SLOT_ROWS = 400;
/** PostgreSQL: how many of the scope's newest (and, when it holds more, earliest) documents are matched directly. */
const PG_RECENT_DOCS = 1000;
/** PostgreSQL: a slot matching at least this share of the scope's newest documents is read there, not on the index. */
const PG_DENSE = 0.05;

/** How many of a slot's matches are read: its earliest on SQLite; on PostgreSQL twice this is a sparse slot's share. */
function slotHalf(slots: number): number {
  return Math.ceil(Math.min(MAX_SLOT_ROWS, Math.max(MIN_SLOT_ROWS, Math.floor(SLOT_ROWS / slots))) / 2);
}

/**
 * SQLite: the POOL best documents by the question's slots, each with its score. Every slot reads only its earliest
 * matches in the scope (FTS5 walks a match in rowid order and stops at the LIMIT; `ORDER BY rank` would score every
 * match, and bm25's term statistics read each term's whole doclist, so its cost grew with the index): a fact is
 * often stated early and its later mentions are the distractors. A slot with fewer matches has them all. The
 * newest end of a slot that fills up is not read (2026-12-06): on bench:recall it found nothing more at 560
 * messages a conversation and ranked worse at 2 400, and the descending walk cost more than the ascending one.
 */
async function sqliteSlotPool(
  client: Client,
  scope: string,
  slots: readonly Slot[],
  leafSeq: number,
  minDoc: number,
): Promise<Map<number, number>> {
  if (slots.length === 0) return new Map();
  const take = slotHalf(slots.length);
  // The slot numbers are parameters too: the statement's text depends only on how many slots it reads, so the
  // connection's statement cache serves it turn after turn. One row per slot, its ids joined by commas: a thousand
  // rows of two integers cost the driver and Prisma more than the index walks that found them.
  const rows = await queryRows<{ k: number | bigint; ids: string | null }>(
    client,
    slots
      .map(
        () =>
          `SELECT ? AS k, (SELECT group_concat(id) FROM (SELECT rowid AS id FROM "SearchFts" WHERE "SearchFts" MATCH ? AND rowid >= ? ORDER BY rowid LIMIT ${take})) AS ids`,
      )
      .join(" UNION ALL "),
    slots.flatMap((slot, k) => [k, `${scope} AND body : (${slot.fts})`, minDoc]),
  );
  const bySlot = slots.map(() => new Set<number>());
  for (const r of rows) {
    const ids = bySlot[Number(r.k)];
    for (const id of r.ids?.split(",") ?? []) if (Number.isSafeInteger(Number(id))) ids?.add(Number(id));
  }
  // A slot's rarity is exact when it did not fill up; otherwise it is taken as half the conversation.
  const n = Math.max(leafSeq, 4 * take);
  return poolOf(
    slots,
    bySlot.map((ids) => ({ ids, df: ids.size >= take ? n / 2 : ids.size })),
    n,
  );
}

/**
 * PostgreSQL: the same pool. The GIN index returns a slot's matches as a bitmap, in no order, at a cost that grows
 * with how many there are, so `recall_slot_docs` (one statement) first matches each slot on the scope's newest
 * documents, read in key order. A scope that holds fewer documents has every match of every slot. Otherwise a slot
 * dense among the newest (common in the scope) takes its matches there and among the scope's earliest documents,
 * and its rarity is estimated from its density; every other slot takes at most its share of its matches from the
 * GIN index, read in table order (about the earliest first): a slot with fewer matches than its share has them all.
 */
async function pgSlotPool(
  client: Client,
  {
    userId,
    token,
    slots,
    leafSeq,
    minDoc,
  }: {
    userId: string;
    token: IndexScope;
    slots: readonly Slot[];
    leafSeq: number;
    minDoc: number;
  },
): Promise<Map<number, number>> {
  if (slots.length === 0) return new Map();
  const half = slotHalf(slots.length);
  const conversation = "conversation" in token;
  const rows = await client.$queryRawUnsafe<{ k: number; src: number; ids: (number | bigint)[] }[]>(
    `SELECT k, src, ids FROM recall_slot_docs($1::text[]::tsquery[], $2, $3, $4::tsquery, $5::int, $6::float8, $7::int, $8::int)`,
    slots.map((slot) => slot.pg),
    conversation,
    conversation ? token.conversation : userId,
    conversation
      ? pgConversationLexeme(token.conversation)
      : "conversations" in token
        ? token.conversations.map(pgConversationLexeme).join(" | ")
        : pgOwnerLexeme(ownerToken(token.owner)),
    PG_RECENT_DOCS,
    PG_DENSE,
    2 * half,
    minDoc,
  );
  const found = slots.map(() => ({ ids: new Set<number>(), newest: 0, index: 0 }));
  let seen = 0;
  for (const r of rows) {
    const k = Number(r.k);
    if (k < 0) {
      seen = Number(r.ids[0] ?? 0);
      continue;
    }
    const slot = found[k];
    if (!slot) continue;
    for (const id of r.ids) slot.ids.add(Number(id));
    if (Number(r.src) === 0) slot.newest = r.ids.length;
    if (Number(r.src) === 2) slot.index = r.ids.length;
  }
  const n = Math.max(leafSeq, seen);
  return poolOf(
    slots,
    found.map(({ ids, newest, index }) => {
      const density = seen > 0 ? newest / seen : 0;
      // Every match was seen when the scope fit among the newest, or the index returned less than the share.
      const all = seen < PG_RECENT_DOCS || (density < PG_DENSE && index < 2 * half);
      return { ids, df: all ? ids.size : Math.max(2 * half, density * n) };
    }),
    n,
  );
}

/** How many messages after a clear-memory boundary are looked at for the first document after it. */
const BOUNDARY_REACH = 32;

/**
 * The first index document of a conversation after its clear-memory boundary: the lowest of the documents of the
 * BOUNDARY_REACH messages after it (0: none). Every message after the boundary was written after the clear
 * (clearing sets it to the conversation's last seq), and a conversation's turns are indexed one after the other as
 * they commit, so their documents come later still; one turn's question and answer are indexed by one statement,
 * in no set order, hence the lowest of several. A message re-indexed later (a retried answer) only gets a higher
 * document. Read by the (sessionId, seq) key and the document's message key.
 */
async function firstDocAfter(
  client: Client,
  { sessionId, startSeq }: { sessionId: string; startSeq: number },
): Promise<number> {
  const [row] = await queryRows<{ id: number | bigint | null }>(
    client,
    {
      sqlite: `SELECT min(d."id") AS id FROM "ChatMessage" m CROSS JOIN "SearchDoc" d ON d."messageId" = m."id"
               WHERE m."sessionId" = ? AND m."seq" > ? AND m."seq" <= ?`,
      postgresql: `SELECT min(d."id") AS id FROM "ChatMessage" m JOIN "SearchDoc" d ON d."messageId" = m."id"
                   WHERE m."sessionId" = $1 AND m."seq" > $2 AND m."seq" <= $3`,
    },
    [sessionId, startSeq, startSeq + BOUNDARY_REACH],
  );
  return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
}

/** The message columns each match carries: what ranking reads, and what `readSeqs` would read for a partner. */
const MESSAGE_COLUMNS = `m."id", m."sessionId", m."seq", m."role", m."createdAt", m."text", m."parts", m."status"`;

/** The conversation columns each match carries, so no separate read of the conversations is needed. */
const SESSION_COLUMNS = `s."title", s."memoryStartSeq", s."forks", s."activeLeafId", s."activeLeafSeq", s."temporary", s."projectId"`;

/** A matched document with its message and conversation, as the pool's rows statement returns it. */
type Row = {
  doc: number | bigint;
  id: string;
  sessionId: string;
  seq: number | bigint;
  role: string;
  createdAt: unknown;
  text: string;
  parts: unknown;
  status: string;
  title: string;
  memoryStartSeq: number | bigint;
  forks: number | bigint;
  activeLeafId: string | null;
  activeLeafSeq: number | bigint;
  temporary: boolean | number | bigint;
  projectId: string | null;
};

/** The keys of a Row in the order of the SQLite statement's JSON arrays: the document, then the columns above. */
const ROW_KEYS = ["doc", ...`${MESSAGE_COLUMNS}, ${SESSION_COLUMNS}`.split(", ").map((c) => c.slice(3, -1))];

/** SQLite's rows, one JSON array of arrays (values in ROW_KEYS order), as objects. */
function rowsOf(result: { list: string | null }[]): Row[] {
  const list = JSON.parse(result[0]?.list ?? "[]") as unknown[][];
  return list.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < ROW_KEYS.length; i++) row[ROW_KEYS[i] as string] = values[i];
    return row as Row;
  });
}

/**
 * The index scope of a project's conversations: their own tokens while there are at most MAX_PROJECT_CONVERSATIONS
 * (read by the (projectId, updatedAt) index), else the user's token (the rows are filtered by project either way).
 */
async function projectIndexScope(
  client: Client,
  { userId, projectId }: { userId: string; projectId: string },
): Promise<IndexScope> {
  const rows = await client.chatSession.findMany({
    where: { projectId, userId },
    orderBy: { updatedAt: "desc" },
    take: MAX_PROJECT_CONVERSATIONS + 1,
    select: { id: true },
  });
  if (rows.length === 0 || rows.length > MAX_PROJECT_CONVERSATIONS) return { owner: userId };
  return { conversations: rows.map((r) => r.id) };
}

/**
 * A branched conversation's visible path above `afterSeq`: parent links walked up from its leaf (the current
 * question, or the active leaf) by the tree's one walk (lib/db/tree.ts `walkUp`: a primary-key lookup per step, a
 * falling seq ends it on looping links), at most MAX_WALK steps.
 */
async function walkPath(client: Client, sc: Scope, afterSeq: number): Promise<void> {
  const leaf =
    sc.leafVisible && sc.session.activeLeafId
      ? { id: sc.session.activeLeafId }
      : await client.chatMessage.findUnique({
          where: { sessionId_seq: { sessionId: sc.session.id, seq: sc.leafSeq } },
          select: { id: true },
        });
  sc.path = new Set();
  if (!leaf) return;
  const rows = await walkUp(
    { sessionId: sc.session.id, fromId: leaf.id, take: MAX_WALK, afterSeq },
    { tx: client },
  );
  for (const r of rows) sc.path.add(Number(r.seq));
}

/** The seqs `from`..`to` steps away from `seq` along a conversation's visible path (negative: towards the root). */
function pathSteps(sc: Scope, seq: number, from: number, to: number): number[] {
  if (sc.path === null) {
    const out: number[] = [];
    for (let k = from; k <= to; k++) out.push(seq + k);
    return out.filter((x) => x > 0);
  }
  const ordered = [...sc.path].sort((a, b) => a - b);
  const at = ordered.indexOf(seq);
  if (at < 0) return [];
  const out: number[] = [];
  for (let k = from; k <= to; k++) {
    const x = ordered[at + k];
    if (x !== undefined) out.push(x);
  }
  return out;
}

/** How a raw statement hands back a message's seq and date (SQLite: integers and milliseconds or text). */
type RawKeys = { seq: number | bigint; createdAt: unknown; parts: unknown };

/** Messages of each conversation by seq (the (sessionId, seq) key), only the visible ones. */
async function readSeqs(
  client: Client,
  wanted: Map<string, Set<number>>,
  scopes: Map<string, Scope>,
  into: Map<string, Map<number, MessageRow>>,
): Promise<void> {
  for (const [sessionId, seqs] of wanted) {
    const known = into.get(sessionId) ?? new Map<number, MessageRow>();
    into.set(sessionId, known);
    const sc = scopes.get(sessionId) as Scope;
    const missing = [...seqs].filter((x) => !known.has(x) && isVisible(sc, x, true));
    if (missing.length === 0) continue;
    // The seqs are one parameter (a JSON array on SQLite): the statement's text is the same whatever their number,
    // so the connection's statement cache serves it (an ORM `in` list is a new statement for each length).
    const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";
    const columns = `c."id", c."sessionId", c."seq", c."role", c."createdAt", c."text", c."status", c."parts"`;
    const rows = await queryRows<Omit<MessageRow, "seq" | "createdAt"> & RawKeys>(
      client,
      {
        sqlite: `SELECT ${columns} FROM "ChatMessage" c WHERE c."sessionId" = ? AND c."seq" IN (SELECT j."value" FROM json_each(?) j)`,
        postgresql: `SELECT ${columns} FROM "ChatMessage" c WHERE c."sessionId" = $1 AND c."seq" = ANY($2::int[])`,
      },
      [sessionId, sqlite ? JSON.stringify(missing) : missing],
    );
    for (const r of rows) {
      const seq = Number(r.seq);
      known.set(seq, messageRow({ ...r, seq, createdAt: toDate(r.createdAt) }));
    }
  }
}

/** A message as partner finding sees it: an assistant message that calls tools is a tool step. */
function messageRow(r: MessageRow & { parts: unknown }): MessageRow {
  const parts = typeof r.parts === "string" ? (JSON.parse(r.parts) as unknown) : r.parts;
  const toolStep = typeof parts === "object" && parts !== null && "toolCalls" in parts;
  return {
    id: r.id,
    sessionId: r.sessionId,
    seq: r.seq,
    role: toolStep ? "tool" : String(r.role),
    createdAt: r.createdAt,
    text: r.text,
    status: String(r.status),
  };
}

/**
 * Each candidate's partner on its path: for an answer, the question before it; for a question, its answer (past any
 * tool steps). Read by (sessionId, seq): first the adjacent message of each — usually the partner — then, for those
 * still without one, up to PARTNER_REACH steps.
 */
async function findPartners(
  client: Client,
  candidates: LexicalCandidate[],
  scopes: Map<string, Scope>,
  /** Messages read already (the index's matches): those on a visible path are not read again. */
  read: Map<string, Map<number, MessageRow>>,
): Promise<Map<string, MessageRow>> {
  const rows = new Map<string, Map<number, MessageRow>>();
  for (const [sessionId, bySeq] of read) {
    const sc = scopes.get(sessionId);
    if (!sc) continue;
    rows.set(sessionId, new Map([...bySeq].filter(([seq]) => isVisible(sc, seq, true))));
  }
  const partners = new Map<string, MessageRow>();
  let open = candidates;
  for (const [from, to] of [
    [1, 1],
    [2, PARTNER_REACH],
  ] as const) {
    const wanted = new Map<string, Set<number>>();
    for (const c of open) {
      const sc = scopes.get(c.sessionId) as Scope;
      const steps = c.role === "user" ? pathSteps(sc, c.seq, from, to) : pathSteps(sc, c.seq, -to, -from);
      const set = wanted.get(c.sessionId) ?? new Set<number>();
      for (const x of steps) set.add(x);
      wanted.set(c.sessionId, set);
    }
    await readSeqs(client, wanted, scopes, rows);
    open = open.filter((c) => {
      const sc = scopes.get(c.sessionId) as Scope;
      const around = rows.get(c.sessionId) ?? new Map<number, MessageRow>();
      const found = partnerOf(c, around, sc, to);
      if (found === undefined) return true;
      if (found) partners.set(c.messageId, found);
      return false;
    });
    if (open.length === 0) break;
  }
  return partners;
}

/**
 * The other half of a candidate's exchange among the messages read so far, `reach` steps along its path: for an
 * answer, the nearest question before it; for a question, the first answer text after it before the next question
 * (tool steps skipped). Null: there is none; undefined: not decided within `reach`.
 */
function partnerOf(
  c: LexicalCandidate,
  around: Map<number, MessageRow>,
  sc: Scope,
  reach: number,
): MessageRow | null | undefined {
  const steps =
    c.role === "user" ? pathSteps(sc, c.seq, 1, reach) : pathSteps(sc, c.seq, -reach, -1).reverse();
  for (const x of steps) {
    const m = around.get(x);
    if (!m) return null;
    if (c.role === "assistant") {
      if (m.role === "user") return m;
      if (m.role === "assistant") return null;
    } else {
      if (m.role === "user") return null;
      if (m.role === "assistant" && m.status !== "streaming" && m.text.trim() !== "") return m;
    }
  }
  return steps.length < reach ? null : undefined;
}
