import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getSessionReviewPage } from "@/lib/db/admin-review";
import { databaseKind, db } from "@/lib/db/client";
import { loggingClient } from "@/lib/db/test-rows";
import { env } from "@/lib/env";
import { messageWindow } from "@/lib/memory";
import { getSessionReview } from "./session-review";

// The admin's session review shows every branch of a conversation, each message marked with its place in
// the message tree. Runs on SQLite and on PostgreSQL; every test makes its own rows.

const kind = databaseKind(env.DATABASE_URL);
const config = { policy: messageWindow(4), tailRows: 10 };

afterAll(async () => {
  await db.$disconnect();
});

type Spec = { parent: number | null; role: "user" | "assistant" };

/**
 * A conversation written directly: message `i` (seq i + 1) has the parent `specs[i].parent` (a seq, null: a root).
 * `leaf` is the active leaf's seq. Returns the session id and the message ids by seq.
 */
async function conversation(specs: Spec[], leaf: number) {
  const user = await db.user.create({
    data: { email: `tree-${randomUUID()}@example.test`, name: "Tree", passwordHash: "x" },
  });
  const ids = specs.map(() => `m${randomUUID().replaceAll("-", "")}`);
  const idOf = (seq: number) => ids[seq - 1] as string;
  const session = await db.chatSession.create({
    data: {
      userId: user.id,
      title: "Branched",
      lastSeq: specs.length,
      activeLeafId: idOf(leaf),
      activeLeafSeq: leaf,
    },
  });
  const rows = specs.map((s, i) => ({
    id: ids[i] as string,
    sessionId: session.id,
    seq: i + 1,
    parentId: s.parent === null ? null : idOf(s.parent),
    role: s.role,
    text: `message ${i + 1}`,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db.chatMessage.createMany({ data: rows.slice(i, i + 500) });
  return { sessionId: session.id, idOf };
}

// 1 Q1 ─ 2 A1 ─┬─ 3 Q2 ─┬─ 4 A2 (first answer)
//              │        └─ 5 A2, regenerated ─ 8 Q3 ─ 9 A3   ← active leaf
//              └─ 6 Q2, edited ─ 7 A2'
// 10 Q1, edited (a second root) ─ 11 A1'
const BRANCHED: Spec[] = [
  { parent: null, role: "user" },
  { parent: 1, role: "assistant" },
  { parent: 2, role: "user" },
  { parent: 3, role: "assistant" },
  { parent: 3, role: "assistant" },
  { parent: 2, role: "user" },
  { parent: 6, role: "assistant" },
  { parent: 5, role: "user" },
  { parent: 8, role: "assistant" },
  { parent: null, role: "user" },
  { parent: 10, role: "assistant" },
];
const ACTIVE_PATH = [1, 2, 3, 5, 8, 9];

type Marked = Awaited<ReturnType<typeof getSessionReviewPage>>["messages"][number];
const marks = (messages: Marked[]) =>
  messages.map((m) => ({
    seq: m.seq,
    onPath: m.tree.onPath,
    leaf: m.tree.activeLeaf,
    parentSeq: m.tree.parentSeq,
    children: m.tree.children,
    siblings: m.tree.siblings,
  }));

const EXPECTED = [
  { seq: 1, onPath: true, leaf: false, parentSeq: null, children: 1, siblings: 2 },
  { seq: 2, onPath: true, leaf: false, parentSeq: 1, children: 2, siblings: 1 },
  { seq: 3, onPath: true, leaf: false, parentSeq: 2, children: 2, siblings: 2 },
  { seq: 4, onPath: false, leaf: false, parentSeq: 3, children: 0, siblings: 2 },
  { seq: 5, onPath: true, leaf: false, parentSeq: 3, children: 1, siblings: 2 },
  { seq: 6, onPath: false, leaf: false, parentSeq: 2, children: 1, siblings: 2 },
  { seq: 7, onPath: false, leaf: false, parentSeq: 6, children: 0, siblings: 1 },
  { seq: 8, onPath: true, leaf: false, parentSeq: 5, children: 1, siblings: 1 },
  { seq: 9, onPath: true, leaf: true, parentSeq: 8, children: 0, siblings: 1 },
  { seq: 10, onPath: false, leaf: false, parentSeq: null, children: 1, siblings: 2 },
  { seq: 11, onPath: false, leaf: false, parentSeq: 10, children: 0, siblings: 1 },
];

describe(`admin session review: the message tree (${kind})`, () => {
  it("shows every branch in seq order, marking the active path, parents and branch points", async () => {
    const { sessionId, idOf } = await conversation(BRANCHED, 9);
    const review = await getSessionReview({ sessionId, limit: 50, config });
    expect(review.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(marks(review.messages)).toEqual(EXPECTED);
    expect(review.messages.filter((m) => m.tree.onPath).map((m) => m.seq)).toEqual(ACTIVE_PATH);
    expect(review.messages.find((m) => m.seq === 6)?.tree.parentId).toBe(idOf(2));
    expect(review.session.activeLeaf).toEqual({ id: idOf(9), seq: 9 });
    expect(review.session.messageCount).toBe(11);
    expect(review.hasMore).toBe(false);
    expect(review.pathNext).toBeNull();
  });

  it("pages back carrying the path along: every page marks the same as the whole", async () => {
    const { sessionId, idOf } = await conversation(BRANCHED, 9);
    const pages: Marked[][] = [];
    let beforeSeq: number | undefined;
    let pathFrom: string | null | undefined;
    const pathNexts: (string | null)[] = [];
    do {
      const page = await getSessionReviewPage({ sessionId, beforeSeq, limit: 3, pathFrom });
      pages.unshift(page.messages);
      pathNexts.push(page.pathNext);
      beforeSeq = page.hasMore ? page.messages[0]?.seq : undefined;
      pathFrom = page.pathNext;
    } while (beforeSeq !== undefined);
    expect(pages.map((p) => p.map((m) => m.seq))).toEqual([
      [1, 2],
      [3, 4, 5],
      [6, 7, 8],
      [9, 10, 11],
    ]);
    expect(marks(pages.flat())).toEqual(EXPECTED);
    // Where the walk stopped below each page: the path message just older than it, then the root's end.
    expect(pathNexts).toEqual([idOf(8), idOf(5), idOf(2), null]);

    // A deep page without `pathFrom` walks from the active leaf and marks the same.
    const deep = await getSessionReviewPage({ sessionId, beforeSeq: 6, limit: 3 });
    expect(marks(deep.messages)).toEqual(EXPECTED.slice(2, 5));
    // `null`: the path ended on a newer page — nothing of this page is on it.
    const ended = await getSessionReviewPage({ sessionId, beforeSeq: 6, limit: 3, pathFrom: null });
    expect(ended.messages.map((m) => m.tree.onPath)).toEqual([false, false, false]);
  });

  it("follows the active leaf wherever it is: on an old branch, the newest messages are all off the path", async () => {
    const { sessionId, idOf } = await conversation(BRANCHED, 7);
    const newest = await getSessionReviewPage({ sessionId, limit: 3 });
    expect(newest.messages.map((m) => [m.seq, m.tree.onPath])).toEqual([
      [9, false],
      [10, false],
      [11, false],
    ]);
    expect(newest.pathNext).toBe(idOf(7)); // the leaf itself is older than the page
    const next = await getSessionReviewPage({ sessionId, beforeSeq: 9, limit: 3, pathFrom: newest.pathNext });
    expect(next.messages.map((m) => [m.seq, m.tree.onPath, m.tree.activeLeaf])).toEqual([
      [6, true, false],
      [7, true, true],
      [8, false, false],
    ]);
  });

  it("an empty conversation: no messages, no path", async () => {
    const user = await db.user.create({
      data: { email: `tree-${randomUUID()}@example.test`, name: "Empty", passwordHash: "x" },
    });
    const session = await db.chatSession.create({ data: { userId: user.id, title: "Empty" } });
    const review = await getSessionReview({ sessionId: session.id, limit: 10, config });
    expect(review.messages).toEqual([]);
    expect(review.session.activeLeaf).toBeNull();
    expect(review.pathNext).toBeNull();
  });
});

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PgPlanNode[];
}
const flatten = (node: PgPlanNode): PgPlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/**
 * How one logged statement reads ChatMessage. SQLite: whether every access is an index search (never a scan of
 * the table). PostgreSQL: the rows its ChatMessage scans produced and discarded, as EXPLAIN ANALYZE counts them.
 */
async function messageReads(
  client: ReturnType<typeof loggingClient>["client"],
  { query, params }: { query: string; params: unknown[] },
) {
  if (kind === "sqlite") {
    const plan = await client.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${query}`, ...params);
    return { details: plan.map((p) => p.detail), rows: 0 };
  }
  // A test database is small enough that PostgreSQL would rather read the whole table than search an index;
  // the question here is what a page costs once the table is large, so sequential scans are off for the plan.
  const [row] = await client.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    return tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
      ...params,
    );
  });
  const raw = row?.["QUERY PLAN"];
  const [top] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PgPlanNode }[];
  const scans = flatten(top?.Plan as PgPlanNode).filter((n) => n["Relation Name"] === "ChatMessage");
  const rows = scans.reduce(
    (sum, n) =>
      sum +
      (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1) +
      (n["Rows Removed by Filter"] ?? 0) +
      (n["Rows Removed by Index Recheck"] ?? 0),
    0,
  );
  return { details: scans.map((n) => `${n["Node Type"]} ${n["Index Name"] ?? ""}`), rows };
}

describe(`admin session review: the cost of a page (${kind})`, () => {
  it("a page of a long branched conversation reads its rows, not the conversation", async () => {
    // 3000 messages: a path of 2880 with a dead branch (a replaced version) beside every 24th path message.
    const specs: Spec[] = [];
    const path: number[] = [];
    let last: number | null = null;
    while (specs.length < 3000) {
      const parent: number | null = last;
      specs.push({ parent, role: specs.length % 2 === 0 ? "user" : "assistant" });
      last = specs.length;
      path.push(last);
      if (path.length % 24 === 0) specs.push({ parent, role: "assistant" });
    }
    const leaf = path.at(-1) as number;
    const { sessionId, idOf } = await conversation(specs, leaf);
    if (kind === "postgresql") await db.$executeRawUnsafe(`ANALYZE "ChatMessage"`);

    const limit = 50;
    const beforeSeq = 1500;
    // The path message just older than the previous (newer) page: what the console passes as `pathFrom`.
    const pathFrom = idOf(path.filter((s) => s < beforeSeq).at(-1) as number);
    const { client, statements } = loggingClient(env.DATABASE_URL);
    try {
      const deep = await getSessionReviewPage({ sessionId, beforeSeq, limit, pathFrom }, { tx: client });
      expect(deep.messages).toHaveLength(limit);
      const seqs = deep.messages.map((m) => m.seq);
      const inPage = new Set(seqs);
      const pathInPage = path.filter((s) => inPage.has(s));
      expect(deep.messages.filter((m) => m.tree.onPath).map((m) => m.seq)).toEqual(pathInPage);
      expect(deep.messages.filter((m) => m.tree.children > 1).length).toBeGreaterThan(0);
      expect(deep.pathNext).toBe(idOf(path.filter((s) => s < (seqs[0] as number)).at(-1) as number));

      // Statements: session and its owner, page, snapshot, children counts, path walk, parents older than the page
      // (no root on this page: no count of roots).
      expect(statements).toHaveLength(7);
      const messageStatements = statements.filter((st) => /ChatMessage/.test(st.query));
      expect(messageStatements).toHaveLength(4); // page, children counts, path walk, older parents

      // The walk reads the path rows inside the page and the first one below it.
      const walk = statements.find((s) => /WITH RECURSIVE/i.test(s.query));
      if (!walk) throw new Error("no path walk");
      const walked = await client.$queryRawUnsafe<unknown[]>(walk.query, ...walk.params);
      expect(walked).toHaveLength(pathInPage.length + 1);

      for (const s of messageStatements) {
        const { details, rows } = await messageReads(client, s);
        if (kind === "sqlite") {
          // Every read of the table is an index search (SCAN only of the walk's own work table).
          expect(
            details.some(
              (d) => /^SEARCH .*ChatMessage.* USING (COVERING )?INDEX/.test(d) || /^SEARCH m USING/.test(d),
            ),
            s.query,
          ).toBe(true);
          for (const d of details) expect(d, s.query).not.toMatch(/^SCAN (main\.)?ChatMessage|^SCAN m\b/);
        } else {
          // The page, its children and the path walk: a few rows per page message, never the conversation.
          expect(rows, s.query).toBeLessThanOrEqual(2 * limit + 2);
          for (const d of details) expect(d, s.query).toMatch(/^(Index|Index Only|Bitmap Heap) Scan/);
        }
      }

      // Without `pathFrom` a deep page walks from the active leaf: one statement still, its rows the path's length
      // from the leaf down to the page (the documented cost of a direct API call).
      statements.length = 0;
      const fromLeaf = await getSessionReviewPage({ sessionId, beforeSeq, limit }, { tx: client });
      expect(marks(fromLeaf.messages)).toEqual(marks(deep.messages));
      const walks = statements.filter((s) => /WITH RECURSIVE/i.test(s.query));
      expect(walks).toHaveLength(1);
      const [fromLeafWalk] = walks;
      if (!fromLeafWalk) throw new Error("no path walk");
      const walkedFromLeaf = await client.$queryRawUnsafe<unknown[]>(
        fromLeafWalk.query,
        ...fromLeafWalk.params,
      );
      expect(walkedFromLeaf).toHaveLength(path.filter((s) => s >= (seqs[0] as number)).length + 1);
    } finally {
      await client.$disconnect();
    }
  });
});
