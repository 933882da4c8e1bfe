import { afterAll, describe, expect, it } from "vitest";
import { databaseKind, db } from "@/lib/db/client";
import { searchMessagesForUser } from "@/lib/db/search";
import { getActivePathPage, unsafeDeleteSessionById } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/sqlite/client";
import { tailRowsFor } from "@/lib/memory";
import { explainStatements, instrumentDriverAdapters, record } from "../../scripts/bench/instrument";
import { switchBranch } from "./branches";
import type { TurnInput } from "./schemas";
import {
  answerIdOf,
  answerOf,
  contextOf,
  createUserWithSession,
  drain,
  rowsForSession,
} from "./test-helpers";
import { startTurn } from "./turn";

// Versions are branches of a message tree, and memory follows the branch the user is on. Real database
// (SQLite or PostgreSQL, per project), real offline model; rows are counted at the driver.

instrumentDriverAdapters();

afterAll(async () => {
  await db.$disconnect();
});

function metaOf(events: Awaited<ReturnType<typeof drain>>) {
  const meta = events.find((e) => e.type === "meta");
  if (meta?.type !== "meta") throw new Error("no meta event");
  return meta;
}

const send = async (sessionId: string, userId: string, input: TurnInput) =>
  drain(await startTurn({ sessionId, userId, input }));

const window = env.MEMORY_MAX_MESSAGES;
const tailRows = tailRowsFor({ enabled: true, maxMessages: window });

async function activePath(sessionId: string) {
  const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
  return getActivePathPage({ sessionId, leafId: session.activeLeafId, limit: 500 });
}

describe("message tree", () => {
  it("an edit of the first question starts a branch whose memory has none of the old one; switching back restores it", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const first = await send(sessionId, userId, { content: "Hi, my name is Ada." });
    const second = await send(sessionId, userId, { content: "What is my name?" });
    expect(answerOf(second)).toContain("Ada");
    const oldAnswerId = answerIdOf(second);

    // Edit the first question: a new root beside it.
    const edited = await send(sessionId, userId, { content: "Hi, my name is Grace.", parentId: null });
    const editMeta = metaOf(edited);
    expect(editMeta.userMessage.parentId).toBeNull();
    expect(editMeta.assistantMessage.parentId).toBe(editMeta.userMessage.id);

    const next = await send(sessionId, userId, { content: "What is my name?" });
    expect(answerOf(next)).toContain("Grace");
    expect(answerOf(next)).not.toContain("Ada");
    const context = await contextOf(db, answerIdOf(next));
    const newBranchSeqs = [editMeta.userMessage.seq, editMeta.assistantMessage.seq];
    expect(context.entries.filter((e) => e.source === "history").map((e) => e.seq)).toEqual(newBranchSeqs);

    // The path shows the new version, with its sibling.
    const path = await activePath(sessionId);
    expect(path.messages.map((m) => m.text)).toEqual([
      "Hi, my name is Grace.",
      expect.stringContaining("Grace"),
      "What is my name?",
      expect.stringContaining("Grace"),
    ]);
    expect(path.messages[0]?.siblings).toEqual({
      index: 1,
      count: 2,
      ids: [metaOf(first).userMessage.id, editMeta.userMessage.id],
    });

    // Back to the old version: its answer and its memory return.
    await switchBranch({ sessionId, userId, messageId: oldAnswerId });
    const back = await activePath(sessionId);
    expect(back.messages.map((m) => m.id).at(-1)).toBe(oldAnswerId);
    expect(back.messages[0]?.siblings).toMatchObject({ index: 0, count: 2 });
    const snap = await db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    expect((snap.items as { text: string }[]).map((i) => i.text).join(" ")).toContain("Ada");
    expect(snap.throughSeq).toBe(back.messages.at(-1)?.seq);
    const again = await send(sessionId, userId, { content: "Say my name again: what is my name?" });
    expect(answerOf(again)).toContain("Ada");
  });

  it("regenerate adds a version beside the answer; each version's context is its own", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    await send(sessionId, userId, {
      content: "Memory check: remember the phrase 松石-88 and reply only 'noted'",
    });
    const asked = await send(sessionId, userId, { content: "What was the phrase?" });
    const firstVersion = answerIdOf(asked);
    const regenerated = await send(sessionId, userId, { regenerate: firstVersion });
    const secondVersion = answerIdOf(regenerated);
    expect(answerOf(regenerated)).toContain("松石-88");

    const path = await activePath(sessionId);
    expect(path.messages.at(-1)).toMatchObject({ id: secondVersion, siblings: { index: 1, count: 2 } });
    expect(path.messages.at(-1)?.siblings?.ids).toEqual([firstVersion, secondVersion]);
    expect(path.messages.filter((m) => m.role === "user")).toHaveLength(2);

    const [a, b] = await Promise.all([contextOf(db, firstVersion), contextOf(db, secondVersion)]);
    const shape = (c: typeof a) => c.entries.map((e) => [e.source, e.seq ?? null]);
    // Both versions were sent the same path: two history messages and the question — never the other version.
    expect(shape(a)).toEqual([
      ["system", null],
      ["history", 1],
      ["history", 2],
      ["current", 3],
    ]);
    expect(shape(b)).toEqual(shape(a));

    // Search finds the first question once and both answer versions (each indexed by its own commit).
    const found = await searchMessagesForUser({ userId, q: "松石" });
    const ids = found.results.map((r) => r.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([firstVersion, secondVersion]));
    expect(found.results.filter((r) => r.sessionId === sessionId)).toHaveLength(3);
    // Each result says who said it and, for the two answer versions, which version it is.
    const byId = new Map(found.results.map((r) => [r.messageId, r]));
    expect(byId.get(firstVersion)).toMatchObject({ role: "assistant", version: { index: 1, count: 2 } });
    expect(byId.get(secondVersion)).toMatchObject({ role: "assistant", version: { index: 2, count: 2 } });
    expect(found.results.find((r) => r.role === "user" && r.sessionId === sessionId)?.version).toBeNull();

    // A follow-up continues from the version on screen.
    const follow = await send(sessionId, userId, { content: "Thanks" });
    const followContext = await contextOf(db, answerIdOf(follow));
    const seqs = followContext.entries.map((e) => e.seq).filter((s) => s !== undefined);
    const firstSeq = path.messages.find((m) => m.id === firstVersion)?.seq;
    expect(seqs).not.toContain(firstSeq);
    expect(seqs).toContain(path.messages.at(-1)?.seq);
  });

  it("refuses a parent that is not an answer of this conversation, and a switch while an answer streams", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const turn = await send(sessionId, userId, { content: "hello" });
    const questionId = metaOf(turn).userMessage.id;
    await expect(send(sessionId, userId, { content: "x", parentId: questionId })).rejects.toMatchObject({
      code: "validation_failed",
    });
    await expect(send(sessionId, userId, { content: "x", parentId: "nope" })).rejects.toMatchObject({
      code: "not_found",
    });
    // Nothing was written by the refused turns.
    expect((await rowsForSession(db, sessionId)).ChatMessage).toBe(2);

    await db.chatSession.update({
      where: { id: sessionId },
      data: { leaseId: "someone", leaseUntil: new Date(Date.now() + 60_000) },
    });
    await expect(switchBranch({ sessionId, userId, messageId: answerIdOf(turn) })).rejects.toMatchObject({
      code: "turn_in_progress",
    });
  });

  it("on a 100 000-message tree a turn reads O(window) rows and a branch switch at most 2 × window + 2 history rows", async () => {
    const { userId, sessionId } = await createUserWithSession(db);
    const total = 100_000;
    const forkAt = 50_000; // an answer in the middle: a second branch grows from it
    const id = (seq: number) => `${sessionId}-${seq}`;
    // Seeded in SQL (a createMany of 100 000 rows takes ~40 s through the client on SQLite): seqs 1..total-10
    // form the main path; the last 10 form a branch under the answer at forkAt.
    const branchStart = total - 10 + 1;
    const pg = databaseKind(env.DATABASE_URL) !== "sqlite";
    const numbers = pg
      ? Prisma.sql`SELECT generate_series(1, ${total}::int) AS seq`
      : Prisma.sql`WITH RECURSIVE n(seq) AS (SELECT 1 UNION ALL SELECT seq + 1 FROM n WHERE seq < ${total}) SELECT seq FROM n`;
    const role = (r: string) => (pg ? Prisma.sql`CAST(${r} AS "MessageRole")` : Prisma.sql`${r}`);
    const idOf = (seq: Prisma.Sql) => Prisma.sql`${sessionId} || '-' || ${seq}`;
    if (pg) {
      // PostgreSQL's statistics are taken before this conversation grows, as they are for any conversation that
      // grew since autovacuum's last ANALYZE: they know other conversations, and the planner believes this one
      // holds a row or two.
      const other = await createUserWithSession(db);
      await db.$executeRaw`
        INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "role", "text")
        SELECT ${other.sessionId} || '-' || n, ${other.sessionId}, n, CAST('user' AS "MessageRole"), 'other'
        FROM generate_series(1, 200) AS n`;
      await db.$executeRaw`ANALYZE "ChatMessage"`;
    }
    await db.$executeRaw`
      INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "parentId", "role", "text")
      SELECT ${idOf(Prisma.sql`n.seq`)}, ${sessionId}, n.seq,
        CASE WHEN n.seq = 1 THEN NULL
             WHEN n.seq = ${branchStart} THEN ${id(forkAt)}
             ELSE ${idOf(Prisma.sql`(n.seq - 1)`)} END,
        CASE WHEN n.seq % 2 = 1 THEN ${role("user")} ELSE ${role("assistant")} END,
        'message ' || n.seq
      FROM (${numbers}) AS n`;
    const mainLeaf = id(total - 10);
    await db.chatSession.update({
      where: { id: sessionId },
      data: { lastSeq: total, activeLeafId: mainLeaf, activeLeafSeq: total - 10 },
    });

    // Switch to the short branch: the snapshot is rebuilt from a walk up that path.
    const switched = await record(() => switchBranch({ sessionId, userId, messageId: id(total) }));
    const historyRows = switched.statements.filter((s) => /WITH RECURSIVE path/.test(s.sql));
    expect(historyRows).toHaveLength(1);
    expect(historyRows[0]?.rows).toBe(tailRows);
    const otherRows = switched.statements.filter(
      (s) => !/WITH RECURSIVE path/.test(s.sql) && s.kind === "query",
    );
    expect(otherRows.reduce((n, s) => n + s.rows, 0)).toBeLessThanOrEqual(4);
    const snap = await db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const seqs = (snap.items as { seq: number }[]).map((i) => i.seq);
    expect(seqs.length).toBeGreaterThan(0);
    expect(Math.max(...seqs)).toBe(total);
    // The branch's memory reaches back across the fork into the shared path, never into the main path's tail.
    expect(seqs.every((s) => s > total - 10 || s <= forkAt)).toBe(true);

    // A turn on the branch: the snapshot is this leaf's, so no history row is read at all.
    const turn = await record(() => send(sessionId, userId, { content: "next on the branch" }));
    const read = turn.statements.filter((s) => s.kind === "query").reduce((n, s) => n + s.rows, 0);
    // A handful of single rows (lease, snapshot, long-term memory state, the conversation's project, the search
    // index's RETURNING), whatever the size of the tree.
    expect(read).toBeLessThanOrEqual(13);

    // An edit deep in the main path (no snapshot for it): one walk bounded by the window.
    const edit = await record(() => send(sessionId, userId, { content: "an edit", parentId: id(20_000) }));
    const walks = edit.statements.filter((s) => /WITH RECURSIVE path/.test(s.sql));
    expect(walks).toHaveLength(1);
    expect(walks[0]?.rows).toBe(tailRows);
    const editRead = edit.statements.filter((s) => s.kind === "query").reduce((n, s) => n + s.rows, 0);
    expect(editRead).toBeLessThanOrEqual(tailRows + 13);

    // Every statement of the switch and the turns is an index search, never a scan of the messages.
    const dialect = databaseKind(env.DATABASE_URL) === "sqlite" ? "sqlite" : "postgresql";
    const plans = await explainStatements(dialect, [...switched.statements, ...edit.statements]);
    const scans = plans.flatMap((p) => p.steps.filter((s) => s.fullScan && s.table === "ChatMessage"));
    expect(scans).toEqual([]);
    // Each step of a walk finds the parent by primary key, never by a range of the conversation's seqs.
    const walkPlans = plans.filter((p) => /WITH RECURSIVE path/.test(p.sql)).flatMap((p) => p.steps);
    expect(walkPlans.length).toBeGreaterThan(0);
    if (dialect === "sqlite") {
      expect(walkPlans.filter((s) => /seq>/.test(s.detail))).toEqual([]);
      expect(walkPlans.some((s) => /\(id=\?\)/.test(s.detail))).toBe(true);
    } else {
      expect(walkPlans.some((s) => /ChatMessage_pkey/.test(s.detail))).toBe(true);
    }

    const receipt = await unsafeDeleteSessionById({ sessionId, actorId: null });
    expect(receipt.deleted.ChatMessage).toBe(total + 4);
    expect(await db.chatMessage.count({ where: { sessionId } })).toBe(0);
  }, 180_000);
});
