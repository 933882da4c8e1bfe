import "server-only";
import { Prisma } from "@/lib/generated/sqlite/client";
import { db, type Tx, type TxOption } from "./client";
import { execute } from "./sql";

// The message tree (docs/decisions/019-message-tree.md). Each message points at the previous message on
// its path (`parentId`, null for a root); a conversation's active leaf names the branch the user is on. Paths are
// read by walking parent links upward from a message — one indexed lookup per row, bounded by `take` — never by
// reading the conversation.

/** A message's place in the tree. */
export interface TreeNode {
  id: string;
  seq: number;
  parentId: string | null;
  role: string;
}

interface Walk {
  sessionId: string;
  fromId: string;
  take: number;
  afterSeq?: number;
}

/**
 * The one path walk: the message `fromId` and up to `take - 1` ancestors, stopping before any message with seq <=
 * `afterSeq`, each step a primary-key lookup; `columns` are the ChatMessage columns returned, newest first.
 * `+"seq"` and `"sessionId" || ''` keep the planner from answering a step with the session's (sessionId, seq) index —
 * a scan of the whole conversation per step — instead of the parent's key: SQLite would for the seq range, and
 * PostgreSQL does for the session alone when its statistics predate the conversation's growth (they think it
 * holds a row or two). Both read them as the same comparisons.
 * A parent is always older than its child, so requiring a falling seq ends the walk on looping (damaged) links.
 */
function walkPath<Row>(
  client: Tx,
  columns: readonly string[],
  { sessionId, fromId, take, afterSeq = 0 }: Walk,
): Promise<Row[]> {
  const list = (prefix: string) => Prisma.raw(columns.map((c) => `${prefix}"${c}"`).join(", "));
  return client.$queryRaw<Row[]>`
    WITH RECURSIVE path ("parentId", ${list("")}, "depth") AS (
      SELECT "parentId", ${list("")}, 1 FROM "ChatMessage"
      WHERE "id" = ${fromId} AND "sessionId" || '' = ${sessionId} AND +"seq" > ${afterSeq}
      UNION ALL
      SELECT m."parentId", ${list("m.")}, path."depth" + 1
      FROM "ChatMessage" AS m JOIN path ON m."id" = path."parentId"
      WHERE m."sessionId" || '' = ${sessionId} AND +m."seq" > ${afterSeq} AND +m."seq" < path."seq" AND path."depth" < ${take}
    )
    SELECT "parentId", ${list("")} FROM path ORDER BY "seq" DESC`;
}

/** The path ending at `fromId` as tree nodes, newest first (see walkPath). */
export async function walkUp(walk: Walk, { tx = db }: TxOption = {}): Promise<TreeNode[]> {
  if (walk.take <= 0) return [];
  const rows = await walkPath<{ id: string; seq: number | bigint; parentId: string | null; role: string }>(
    tx,
    ["id", "seq", "role"],
    walk,
  );
  return rows.map((r) => ({ id: r.id, seq: Number(r.seq), parentId: r.parentId, role: String(r.role) }));
}

/**
 * The newest leaf at or below a message: from it, the newest child at every step (a leaf is the newest message of
 * its branch, so this is the version the user saw last there). One recursive statement; its cost is the depth
 * below the message, nothing when it is a leaf already. Seqs rise at every step, so looping links end it too.
 */
export async function newestLeafUnder(
  { sessionId, messageId }: { sessionId: string; messageId: string },
  { tx = db }: TxOption = {},
): Promise<{ id: string; seq: number } | null> {
  const rows = await tx.$queryRaw<{ id: string; seq: number | bigint }[]>`
    WITH RECURSIVE down ("id", "seq") AS (
      SELECT "id", "seq" FROM "ChatMessage" WHERE "id" = ${messageId} AND "sessionId" = ${sessionId}
      UNION ALL
      SELECT c."id", c."seq" FROM down JOIN "ChatMessage" AS c
        ON c."sessionId" = ${sessionId} AND c."parentId" = down."id"
      WHERE c."seq" > down."seq" AND c."seq" = (
        SELECT MAX(n."seq") FROM "ChatMessage" AS n WHERE n."sessionId" = ${sessionId} AND n."parentId" = down."id"
      )
    )
    SELECT "id", "seq" FROM down ORDER BY "seq" DESC LIMIT 1`;
  const [row] = rows;
  return row ? { id: row.id, seq: Number(row.seq) } : null;
}

/**
 * The newest `take` messages of the path ending at `leafId` after `afterSeq`, oldest first.
 * One recursive statement reading `take` rows at most, whatever the size of the tree.
 */
export async function getPathTail(
  {
    sessionId,
    leafId,
    take,
    afterSeq = 0,
  }: { sessionId: string; leafId: string; take: number; afterSeq?: number },
  { tx = db }: TxOption = {},
): Promise<HistoryRow[]> {
  if (take <= 0) return [];
  const rows = await walkPath<{
    id: string;
    seq: number | bigint;
    role: string;
    text: string;
    parts: unknown;
    toolCallId: string | null;
    status: string;
  }>(tx, ["id", "seq", "role", "text", "parts", "toolCallId", "status"], {
    sessionId,
    fromId: leafId,
    take,
    afterSeq,
  });
  return rows.reverse().map((r) => ({
    seq: Number(r.seq),
    role: String(r.role) as HistoryRow["role"],
    text: r.text,
    parts: typeof r.parts === "string" ? (JSON.parse(r.parts) as unknown) : r.parts,
    toolCallId: r.toolCallId,
    status: String(r.status),
  }));
}

/** A history message as stored, for memory to read (lib/chat/items.ts makes the items). */
export interface HistoryRow {
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  parts: unknown;
  toolCallId: string | null;
  status: string;
}

export interface Siblings {
  /** 0-based position among the versions, by seq. */
  index: number;
  count: number;
  ids: string[];
}

/**
 * The versions of each message: the children of its parent (roots are versions of each other), by seq. One read
 * of the children of the page's parents (index (sessionId, parentId, seq)).
 */
export async function siblingsOf(
  { sessionId, messages }: { sessionId: string; messages: { id: string; parentId: string | null }[] },
  { tx = db }: TxOption = {},
): Promise<Map<string, Siblings>> {
  const parents = [...new Set(messages.flatMap((m) => (m.parentId === null ? [] : [m.parentId])))];
  const hasRoot = messages.some((m) => m.parentId === null);
  const or = [
    ...(parents.length ? [{ parentId: { in: parents } }] : []),
    ...(hasRoot ? [{ parentId: null }] : []),
  ];
  const children = or.length
    ? await tx.chatMessage.findMany({
        where: { sessionId, OR: or },
        orderBy: { seq: "asc" },
        select: { id: true, parentId: true },
      })
    : [];
  const byParent = new Map<string | null, string[]>();
  for (const c of children) {
    const list = byParent.get(c.parentId);
    if (list) list.push(c.id);
    else byParent.set(c.parentId, [c.id]);
  }
  const result = new Map<string, Siblings>();
  for (const m of messages) {
    const ids = byParent.get(m.parentId) ?? [m.id];
    result.set(m.id, { index: Math.max(0, ids.indexOf(m.id)), count: ids.length, ids });
  }
  return result;
}

/** One message of a session as a tree node, or null. */
export async function getNode(
  { sessionId, messageId }: { sessionId: string; messageId: string },
  { tx = db }: TxOption = {},
): Promise<(TreeNode & { status: string; parts: unknown }) | null> {
  return tx.chatMessage.findFirst({
    where: { id: messageId, sessionId },
    select: { id: true, seq: true, parentId: true, role: true, status: true, parts: true },
  });
}

/** Makes a message the conversation's active leaf (one UPDATE, nothing read back). */
export async function setActiveLeaf(
  { sessionId, leaf }: { sessionId: string; leaf: { id: string; seq: number } },
  { tx = db }: TxOption = {},
) {
  // Written out (sql.ts): every turn moves it.
  await execute(tx, `UPDATE "ChatSession" SET "activeLeafId" = ?, "activeLeafSeq" = ? WHERE "id" = ?`, [
    leaf.id,
    leaf.seq,
    sessionId,
  ]);
}
