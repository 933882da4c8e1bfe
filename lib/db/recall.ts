import { env } from "@/lib/env";
import {
  type LexicalCandidate,
  type QuestionShape,
  rankCandidates,
  shapeQuestion,
} from "@/lib/search/recall-rank";
import { ftsString, pgOwnerLexeme } from "@/lib/search/terms";
import { databaseKind, db, type Tx } from "./client";
import { conversationToken, ownerToken, pgConversationLexeme } from "./search";

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
  question: string;
  /** The seq of the current question. */
  leafSeq: number;
  excludeSeqs?: number[];
  limit: number;
}

/** Index matches ranked by the engine, before the checks below; what they drop is not replaced. */
const POOL = 200;
/** At most this many path steps are walked in a branched conversation; older candidates there are left out. */
const MAX_WALK = 4000;
/** How far along the path a hit's partner (its question, or its answer after tool steps) is looked for. */
const PARTNER_REACH = 6;
/** The best candidates whose neighbours are read, so the other speaker's words count in their ranking. */
const RESCORED = 60;

interface SessionRow {
  id: string;
  title: string;
  memoryStartSeq: number;
  forks: number;
  activeLeafId: string | null;
  activeLeafSeq: number;
}

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
  v instanceof Date ? v : new Date(typeof v === "bigint" ? Number(v) : String(v));

/**
 * The earlier messages most relevant to `question` that the current question may see, best first (at most
 * `limit`), each with its partner on the same path: the question of an answer, the answer of a question.
 */
export async function recallCandidates(args: RecallArgs, opts: { tx?: Tx } = {}): Promise<RecallHit[]> {
  const client: Client = opts.tx ?? db;
  const { userId, sessionId, scope, leafSeq, limit } = args;
  if (limit <= 0) return [];
  const question = shapeQuestion(args.question);
  if (question.terms.length === 0) return [];
  const matches = await lexicalMatches(client, {
    userId,
    token: scope === "conversation" ? { conversation: sessionId } : { owner: userId },
    question,
  });
  if (matches.length === 0) return [];

  // The current conversation is always read (its boundary and path decide), even when nothing in it matched: a
  // question is only indexed when its turn commits, so a new conversation has no match of its own yet.
  const sessionIds = [...new Set([sessionId, ...matches.map((m) => m.sessionId)])];
  if (scope === "conversation" && (sessionIds.length !== 1 || sessionIds[0] !== sessionId)) {
    // The conversation token is the conversation's own: anything else is a damaged index row, never shown.
    sessionIds.splice(0, sessionIds.length, sessionId);
  }
  const sessions = await client.chatSession.findMany({
    where: { id: { in: sessionIds }, userId },
    select: {
      id: true,
      title: true,
      memoryStartSeq: true,
      forks: true,
      activeLeafId: true,
      activeLeafSeq: true,
    },
  });
  const current = sessions.find((s) => s.id === sessionId);
  if (!current) return [];
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

  // A first ranking on the message alone; the best are ranked again with their neighbours' words.
  const first = rankCandidates(question, visible, new Map());
  const top = first.slice(0, Math.max(RESCORED, limit));
  const neighbours = await readNeighbours(client, top, scopes);
  const partners = new Map<string, MessageRow>();
  for (const c of top) {
    const p = partnerOf(c, neighbours.get(c.sessionId) ?? new Map(), scopes.get(c.sessionId) as Scope);
    if (p) partners.set(c.messageId, p);
  }
  const ranked = rankCandidates(question, top, new Map([...partners].map(([id, p]) => [id, p.text]))).slice(
    0,
    limit,
  );

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
  }: { userId: string; token: { conversation: string } | { owner: string }; question: QuestionShape },
): Promise<LexicalCandidate[]> {
  type Row = {
    id: string;
    sessionId: string;
    seq: number | bigint;
    role: string;
    createdAt: unknown;
    text: string;
    score: number | string;
  };
  let rows: Row[];
  if (databaseKind(env.DATABASE_URL) === "sqlite") {
    const scope =
      "conversation" in token
        ? `conv : ${ftsString(conversationToken(token.conversation))}`
        : `owner : ${ftsString(ownerToken(token.owner))}`;
    rows = await client.$queryRawUnsafe<Row[]>(
      `WITH hits AS (
         SELECT rowid AS id, rank FROM "SearchFts" WHERE "SearchFts" MATCH ? ORDER BY rank, rowid DESC LIMIT ?
       )
       SELECT m."id", m."sessionId", m."seq", m."role", m."createdAt", m."text", -hits.rank AS score
       FROM hits
       JOIN "SearchDoc" d ON d."id" = hits.id
       JOIN "ChatMessage" m ON m."id" = d."messageId"
       WHERE d."userId" = ? AND m."status" <> 'streaming'`,
      `${scope} AND body : (${question.fts})`,
      POOL,
      userId,
    );
  } else {
    const lexeme =
      "conversation" in token
        ? pgConversationLexeme(token.conversation)
        : pgOwnerLexeme(ownerToken(token.owner));
    rows = await client.$queryRawUnsafe<Row[]>(
      `WITH hits AS (
         SELECT d."id", d."messageId", ts_rank_cd(d."terms", $1::tsquery, 1) AS score
         FROM "SearchDoc" d
         WHERE d."terms" @@ ($2::tsquery && ($1::tsquery)) AND d."userId" = $3
         ORDER BY score DESC, d."id" DESC LIMIT $4
       )
       SELECT m."id", m."sessionId", m."seq", m."role", m."createdAt", m."text", hits.score
       FROM hits JOIN "ChatMessage" m ON m."id" = hits."messageId"
       WHERE m."status" <> 'streaming'`,
      question.pg,
      lexeme,
      userId,
      POOL,
    );
  }
  return rows.map((r) => ({
    messageId: r.id,
    sessionId: r.sessionId,
    seq: Number(r.seq),
    role: String(r.role),
    createdAt: toDate(r.createdAt),
    text: r.text,
    engine: Number(r.score),
  }));
}

/**
 * A branched conversation's visible path above `afterSeq`: parent links walked up from its leaf (the current
 * question, or the active leaf), one primary-key lookup per step, at most MAX_WALK steps. `+m."seq"` keeps SQLite
 * on the parent's key (see lib/db/tree.ts); a falling seq ends the walk on looping links.
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
  const rows = await client.$queryRawUnsafe<{ seq: number | bigint }[]>(
    databaseKind(env.DATABASE_URL) === "sqlite"
      ? `WITH RECURSIVE path ("parentId", "seq", "depth") AS (
           SELECT "parentId", "seq", 1 FROM "ChatMessage" WHERE "id" = ? AND "sessionId" = ? AND "seq" > ?
           UNION ALL
           SELECT m."parentId", m."seq", path."depth" + 1 FROM "ChatMessage" AS m JOIN path ON m."id" = path."parentId"
           WHERE m."sessionId" = ? AND +m."seq" > ? AND +m."seq" < path."seq" AND path."depth" < ?
         )
         SELECT "seq" FROM path`
      : `WITH RECURSIVE path ("parentId", "seq", "depth") AS (
           SELECT "parentId", "seq", 1 FROM "ChatMessage" WHERE "id" = $1 AND "sessionId" = $2 AND "seq" > $3
           UNION ALL
           SELECT m."parentId", m."seq", path."depth" + 1 FROM "ChatMessage" AS m JOIN path ON m."id" = path."parentId"
           WHERE m."sessionId" = $4 AND m."seq" > $5 AND m."seq" < path."seq" AND path."depth" < $6
         )
         SELECT "seq" FROM path`,
    leaf.id,
    sc.session.id,
    afterSeq,
    sc.session.id,
    afterSeq,
    MAX_WALK,
  );
  for (const r of rows) sc.path.add(Number(r.seq));
}

/**
 * The messages around each candidate on its path (PARTNER_REACH either side), per conversation, read by
 * (sessionId, seq). In a one-path conversation the neighbours by seq are the path's; in a branched one only the
 * walked path's seqs are read.
 */
async function readNeighbours(
  client: Client,
  candidates: LexicalCandidate[],
  scopes: Map<string, Scope>,
): Promise<Map<string, Map<number, MessageRow>>> {
  const wanted = new Map<string, Set<number>>();
  for (const c of candidates) {
    const sc = scopes.get(c.sessionId) as Scope;
    const set = wanted.get(c.sessionId) ?? new Set<number>();
    if (sc.path === null) {
      for (let s = c.seq - PARTNER_REACH; s <= c.seq + PARTNER_REACH; s++) if (s !== c.seq) set.add(s);
    } else {
      const ordered = [...sc.path].sort((a, b) => a - b);
      const at = ordered.indexOf(c.seq);
      for (const s of ordered.slice(Math.max(0, at - PARTNER_REACH), at + PARTNER_REACH + 1)) {
        if (s !== c.seq) set.add(s);
      }
    }
    wanted.set(c.sessionId, set);
  }
  const out = new Map<string, Map<number, MessageRow>>();
  for (const [sessionId, seqs] of wanted) {
    const visible = [...seqs].filter((s) => isVisible(scopes.get(sessionId) as Scope, s, true));
    if (visible.length === 0) continue;
    const rows = await client.chatMessage.findMany({
      where: { sessionId, seq: { in: visible } },
      select: { id: true, sessionId: true, seq: true, role: true, createdAt: true, text: true, status: true },
    });
    out.set(
      sessionId,
      new Map(rows.map((r) => [r.seq, { ...r, role: String(r.role), status: String(r.status) }])),
    );
  }
  return out;
}

/**
 * The other half of a candidate's exchange on its path: for an answer, the nearest question before it; for a
 * question, its final answer (the last assistant text before the next question, past any tool steps).
 */
function partnerOf(c: LexicalCandidate, around: Map<number, MessageRow>, sc: Scope): MessageRow | null {
  if (c.role === "assistant") {
    for (let s = c.seq - 1; s >= c.seq - PARTNER_REACH; s--) {
      const m = around.get(s);
      if (m && isVisible(sc, s, true) && m.role === "user") return m;
    }
    return null;
  }
  let answer: MessageRow | null = null;
  for (let s = c.seq + 1; s <= c.seq + PARTNER_REACH; s++) {
    const m = around.get(s);
    if (!m || !isVisible(sc, s, true)) continue;
    if (m.role === "user") break;
    if (m.role === "assistant" && m.status !== "streaming" && m.text.trim() !== "") answer = m;
  }
  return answer;
}
