import "server-only";
import { AppError } from "@/lib/errors";
import { type AdminMessage, type AdminSession, adminSessionSelect } from "./admin";
import { db, type Tx, type TxOption } from "./client";
import { keysetPage } from "./cursor";
import { readParts } from "./parts";
import { messageSelect } from "./sessions";

// The admin's session review: one page of EVERY message of a conversation — all branches, in seq
// order — each marked with where it sits in the message tree, beside the raw pieces of the memory. Admin only:
// callers must have checked the ADMIN role; nothing here filters by owner (docs/decisions/004-admin-console.md).
//
// Cost of a page of `limit` rows, whatever its depth — at most 8 statements, each an index search:
//   1. the session row (title, lease, memory settings, active leaf), and its owner by primary key;
//   2. the page: `limit + 1` rows by the (sessionId, seq) unique index;
//   3. the memory snapshot row;
//   4. one grouped count over (sessionId, parentId) for the page's ids and the page's parents' ids — the children
//      of each page message (branch points) and the siblings of each (versions); index ChatMessage(sessionId,
//      parentId, seq), reading only the index entries of those children;
//   5. (only when the page holds a root) the number of roots of the conversation, same index;
//   6. the active path within the page: a recursive walk up the parent links by primary key, from `pathFrom`
//      (or the active leaf), stopping at the first message older than the page. It reads the path rows inside the
//      page plus one. The page answers with `pathNext` (where the walk stopped), which the next older page passes
//      back as `pathFrom`, so paging back through a conversation reads each path row once. Without `pathFrom`
//      a deep page walks from the active leaf: it also reads every path message newer than the page (the path's
//      length from the leaf down to the page — only a direct API call does that; the console always passes it).
//   (+1 when parents of page messages lie before the page: their seqs, by primary key, at most `limit` rows.)

const notFound = () =>
  new AppError("not_found", "This conversation does not exist (it may have been deleted).");

/** Where one message sits in the conversation's tree, as far as the admin review shows it. */
export interface TreeMark {
  /** On the path from the root to the session's active leaf: what the user sees and what memory follows. */
  onPath: boolean;
  /** The session's active leaf (the last message of the branch the user is on). */
  activeLeaf: boolean;
  parentId: string | null;
  /** The parent's seq (null: a root, or a parent that no longer exists). */
  parentSeq: number | null;
  /** Messages whose parent this is; more than one makes it a branch point ("3 versions follow"). */
  children: number;
  /** Messages with the same parent (for roots: every root), itself included: its versions. */
  siblings: number;
}

export type AdminTreeMessage = AdminMessage & { tree: TreeMark };

const reviewSessionSelect = {
  ...adminSessionSelect,
  memorySettings: true,
  memoryStartSeq: true,
  activeLeafId: true,
  activeLeafSeq: true,
} as const;

/**
 * One page of a session's history — every branch, newest page first, ascending within the page — with each
 * message's place in the tree, the stored snapshot row and the session's memory settings and start boundary.
 * `beforeSeq` pages back; `pathFrom` is the previous page's `pathNext` (undefined: start at the active leaf; null:
 * the active path ended on a newer page). A test passes its own client as `tx` to count the statements.
 */
export async function getSessionReviewPage(
  {
    sessionId,
    beforeSeq,
    limit,
    pathFrom,
  }: {
    sessionId: string;
    beforeSeq?: number;
    limit: number;
    pathFrom?: string | null;
  },
  { tx: client = db }: TxOption = {},
) {
  const [row, rows, snapshot] = await Promise.all([
    client.chatSession.findUnique({ where: { id: sessionId }, select: reviewSessionSelect }),
    client.chatMessage.findMany({
      where: { sessionId, ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}) },
      orderBy: { seq: "desc" },
      take: limit + 1,
      select: { ...messageSelect, parentId: true },
    }),
    client.memorySnapshot.findUnique({
      where: { sessionId },
      select: { items: true, policy: true, throughSeq: true, version: true, updatedAt: true },
    }),
  ]);
  if (!row) throw notFound();
  const turnInProgress = row.leaseUntil !== null && row.leaseUntil > new Date();
  const session: AdminSession & {
    turnInProgress: boolean;
    activeLeaf: { id: string; seq: number } | null;
  } = {
    id: row.id,
    title: row.title,
    owner: row.user,
    messageCount: row.lastSeq,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    /** A turn holds the session's lease right now (an answer is being written). */
    turnInProgress,
    /** The last message of the branch the user is on (null: no messages). */
    activeLeaf: row.activeLeafId === null ? null : { id: row.activeLeafId, seq: row.activeLeafSeq },
  };
  const { page: newestFirst, nextCursor } = keysetPage({ rows, limit, cursorOf: (m) => m.seq });
  const page = newestFirst.reverse();

  const start = pathFrom === undefined ? row.activeLeafId : pathFrom;
  const tree = await treeOfPage(client, { sessionId, page, pathStart: start });

  const messages: AdminTreeMessage[] = page.map((m) => {
    const { toolCalls, imageUrls } = readParts(m.parts);
    return {
      id: m.id,
      seq: m.seq,
      role: m.role,
      text: m.text,
      // An answer stays `streaming` in storage until its turn commits; once the lease has run out nobody is
      // writing it any more, so it reads `interrupted` (as lib/db/sessions.ts shows it to its owner).
      status: m.status === "streaming" && !turnInProgress ? "interrupted" : m.status,
      model: m.model,
      promptTokens: m.promptTokens,
      completionTokens: m.completionTokens,
      toolCallId: m.toolCallId,
      toolCalls,
      imageUrls,
      createdAt: m.createdAt,
      tree: {
        onPath: tree.onPath.has(m.id),
        activeLeaf: m.id === row.activeLeafId,
        parentId: m.parentId,
        parentSeq: m.parentId === null ? null : (tree.seqOf.get(m.parentId) ?? null),
        children: tree.childCount.get(m.id) ?? 0,
        siblings: m.parentId === null ? tree.roots : (tree.childCount.get(m.parentId) ?? 1),
      },
    };
  });
  return {
    session,
    messages,
    hasMore: nextCursor !== null,
    /** Where the active path continues below this page: the next older page's `pathFrom` (null: it ended). */
    pathNext: tree.pathNext,
    snapshot,
    memorySettings: row.memorySettings,
    memoryStartSeq: row.memoryStartSeq,
  };
}

/** Children counts, parents' seqs and the active path for the messages of one page (see the cost note above). */
async function treeOfPage(
  client: Tx,
  {
    sessionId,
    page,
    pathStart,
  }: {
    sessionId: string;
    page: { id: string; seq: number; parentId: string | null }[];
    pathStart: string | null;
  },
) {
  const seqOf = new Map(page.map((m) => [m.id, m.seq]));
  const first = page[0];
  if (!first)
    return { onPath: new Set<string>(), seqOf, childCount: new Map(), roots: 0, pathNext: pathStart };
  const minSeq = first.seq;
  const parents = [...new Set(page.flatMap((m) => (m.parentId === null ? [] : [m.parentId])))];
  const outside = parents.filter((id) => !seqOf.has(id));
  const hasRoot = page.some((m) => m.parentId === null);

  const [groups, roots, outsideRows, path] = await Promise.all([
    client.chatMessage.groupBy({
      by: ["parentId"],
      where: { sessionId, parentId: { in: [...new Set([...seqOf.keys(), ...parents])] } },
      _count: { _all: true },
    }),
    hasRoot ? client.chatMessage.count({ where: { sessionId, parentId: null } }) : Promise.resolve(0),
    outside.length > 0
      ? client.chatMessage.findMany({
          where: { sessionId, id: { in: outside } },
          select: { id: true, seq: true },
        })
      : Promise.resolve([]),
    pathStart === null
      ? Promise.resolve([])
      : activePathFrom(client, { sessionId, start: pathStart, minSeq }),
  ]);
  for (const r of outsideRows) seqOf.set(r.id, r.seq);
  const childCount = new Map<string, number>();
  for (const g of groups) if (g.parentId !== null) childCount.set(g.parentId, g._count._all);

  // The walk returns the path rows inside the page, then (unless it reached the root) the first one older.
  const onPath = new Set<string>();
  let pathNext: string | null = null;
  for (const step of path) {
    if (step.seq >= minSeq) onPath.add(step.id);
    else pathNext = step.id;
  }
  return { onPath, seqOf, childCount, roots, pathNext };
}

/**
 * The path from `start` up its parents while they are no older than `minSeq`, plus the first one that is: one
 * recursive statement, each step a primary-key lookup (the session and seq are written so that no other index can
 * answer it; see lib/db/tree.ts). Seqs fall strictly along a path (a child is always newer
 * than its parent), so the walk ends even on damaged links.
 */
async function activePathFrom(
  client: Tx,
  { sessionId, start, minSeq }: { sessionId: string; start: string; minSeq: number },
) {
  const rows = await client.$queryRaw<{ id: string; seq: number | bigint }[]>`
    WITH RECURSIVE path ("id", "parentId", "seq") AS (
      SELECT m."id", m."parentId", m."seq" FROM "ChatMessage" m
      WHERE m."sessionId" || '' = ${sessionId} AND m."id" = ${start}
      UNION ALL
      SELECT m."id", m."parentId", m."seq" FROM "ChatMessage" m JOIN path p ON m."id" = p."parentId"
      WHERE p."seq" >= ${minSeq} AND m."sessionId" || '' = ${sessionId} AND +m."seq" < p."seq"
    )
    SELECT "id", "seq" FROM path`;
  return rows.map((r) => ({ id: r.id, seq: Number(r.seq) }));
}
