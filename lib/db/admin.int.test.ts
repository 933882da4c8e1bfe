import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getSessionReview } from "@/lib/admin/session-review";
import { sessionClaims } from "@/lib/auth/session-token";
import { historyOf } from "@/lib/chat/items";
import { buildContext, tokenizerFor } from "@/lib/context";
import { env } from "@/lib/env";
import { composeContext, memoryAfterTurn, messageWindow, rebuildFromTail } from "@/lib/memory";
import type { Role } from "@/lib/types";
import {
  adminSessionsPageArgs,
  deleteSessionForAdmin,
  getAdminOverview,
  getTurnContextForAdmin,
  listSessionsForAdmin,
} from "./admin";
import { listAuditEntries } from "./admin-audit";
import { deleteUserForAdmin, listUsersForAdmin, updateUserForAdmin } from "./admin-users";
import { databaseKind, db } from "./client";
import { commitTurn, takeLease } from "./leases";
import { appendTurnMessages, getHistoryTail } from "./messages";
import { getSnapshotBySessionId } from "./snapshots";
import { loggingClient, rowsReferring as rowsReferringIn, zeroEverywhere } from "./test-rows";
import { withTransaction } from "./transaction";
import { recordContext } from "./turn-contexts";

// Runs on SQLite and on PostgreSQL (one fresh database per project run, shared by the files of that run, which
// run one after another). Every test makes its own rows.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
// The requests below carry no Origin; the CSRF guard in route() is tested in lib/security and e2e/security.spec.ts.
vi.mock("@/lib/security/csrf", () => ({ assertSameOrigin: () => {} }));

const kind = databaseKind(env.DATABASE_URL);
const noFactsOrFiles = { MemoryFact: 0, Attachment: 0, AttachmentBytes: 0, Share: 0 };
const policy = messageWindow(4);

afterAll(async () => {
  await db.$disconnect();
});

async function createUser(role: Role = "USER", name = "Test") {
  return db.user.create({
    data: { email: `${name.toLowerCase()}-${randomUUID()}@example.test`, name, passwordHash: "x", role },
  });
}

/** Starts a turn with the pipeline's own queries: lease, question and empty answer, memory, recorded context. */
async function beginTurn(sessionId: string, userId: string, content: string) {
  return withTransaction(async (tx) => {
    const lease = await takeLease(
      { sessionId, userId, leaseId: randomUUID(), leaseSeconds: 60, seqs: 2 },
      { tx },
    );
    const { question, answer } = await appendTurnMessages(
      { lease, content, model: "test-model", parentId: lease.activeLeaf?.id ?? null },
      { tx },
    );
    const tail = historyOf(
      await getHistoryTail({ sessionId, throughSeq: question.seq - 1, take: 10 }, { tx }),
    );
    const memory = rebuildFromTail(tail, policy);
    const questionItem = { role: "user" as const, text: question.text, seq: question.seq };
    const tokenizer = tokenizerFor("m");
    const composed = composeContext({
      systemPrompt: "sys",
      memory,
      question: questionItem,
      count: tokenizer.countItem,
      replyPriming: tokenizer.replyPriming,
    });
    const built = buildContext({ composed, policyId: policy.id, model: "m", tokenizer });
    await recordContext(
      {
        sessionId,
        answerId: answer.id,
        record: { entries: built.entries, tokenEstimate: built.tokenEstimate, policy: policy.id, model: "m" },
      },
      { tx },
    );
    return { lease, question, questionItem, answer, memory };
  });
}

/** A conversation through the real turn pipeline (lease, messages, recorded context, snapshot). */
async function converse(userId: string, questions: string[], title = "Chat") {
  const session = await db.chatSession.create({ data: { userId, title } });
  for (const content of questions) {
    const turn = await beginTurn(session.id, userId, content);
    const text = `answer: ${content}`;
    await commitTurn({
      lease: turn.lease,
      answerId: turn.answer.id,
      outcome: { status: "complete", text, promptTokens: 7, completionTokens: 3 },
      snapshot: {
        items: memoryAfterTurn({
          memory: turn.memory,
          question: turn.questionItem,
          answer: { role: "assistant", text, seq: turn.answer.seq },
          policy,
        }),
        policy: policy.id,
        throughSeq: turn.answer.seq,
        baseVersion: (await getSnapshotBySessionId({ sessionId: session.id }))?.version ?? null,
      },
    });
  }
  const messages = await db.chatMessage.findMany({ where: { sessionId: session.id }, select: { id: true } });
  return { sessionId: session.id, messageIds: messages.map((m) => m.id) };
}

/** Rows anywhere in this run's database that still mention one of `ids` (lib/db/test-rows.ts). */
const rowsReferring = (ids: string[]) => rowsReferringIn(db, env.DATABASE_URL, ids);

describe(`admin: deleting a session (${kind})`, () => {
  it("leaves no row in any table referring to it, and a receipt that says what went", async () => {
    const owner = await createUser();
    const admin = await createUser("ADMIN", "Admin");
    const { sessionId, messageIds } = await converse(owner.id, ["first question", "second question"]);
    const kept = await converse(owner.id, ["keep me"]);

    const before = await rowsReferring([sessionId, ...messageIds]);
    expect(before.ChatSession).toBe(1);
    expect(before.ChatMessage).toBe(4);
    expect(before.MemorySnapshot).toBe(1);
    expect(before.TurnContext).toBe(2);

    const receipt = await deleteSessionForAdmin({ sessionId, actorId: admin.id });
    expect(receipt).toEqual({
      sessionId,
      deleted: { ...noFactsOrFiles, ChatSession: 1, ChatMessage: 4, MemorySnapshot: 1, TurnContext: 2 },
    });

    const after = await rowsReferring([sessionId, ...messageIds]);
    expect(after).toEqual(zeroEverywhere(after));
    // The owner's other session is untouched.
    expect(await db.chatMessage.count({ where: { sessionId: kept.sessionId } })).toBe(2);
  });

  it("writes an audit entry with who, what and counts, and no message text", async () => {
    const owner = await createUser();
    const admin = await createUser("ADMIN", "Admin");
    const secret = `secret-${randomUUID()}`;
    const { sessionId } = await converse(owner.id, [`remember ${secret}`], `title ${secret}`);

    await deleteSessionForAdmin({ sessionId, actorId: admin.id });

    const entries = await db.auditLog.findMany({ where: { targetId: sessionId } });
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      actorId: admin.id,
      action: "session.delete",
      targetType: "ChatSession",
      targetId: sessionId,
      details: { ...noFactsOrFiles, ChatSession: 1, ChatMessage: 2, MemorySnapshot: 1, TurnContext: 1 },
    });
    expect(JSON.stringify(entries)).not.toContain(secret);

    // And the admin's audit view shows it with the actor, newest first.
    const { entries: listed } = await listAuditEntries({ limit: 5 });
    const shown = listed.find((e) => e.targetId === sessionId);
    expect(shown?.actor).toEqual({ id: admin.id, email: admin.email, name: admin.name });
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it("a turn still streaming when its session is deleted recreates nothing when it ends", async () => {
    const owner = await createUser();
    const admin = await createUser("ADMIN", "Admin");
    const { sessionId, messageIds } = await converse(owner.id, ["earlier"]);
    const turn = await beginTurn(sessionId, owner.id, "still answering");

    const receipt = await deleteSessionForAdmin({ sessionId, actorId: admin.id });
    expect(receipt.deleted.ChatMessage).toBe(4);

    const committed = await commitTurn({
      lease: turn.lease,
      answerId: turn.answer.id,
      outcome: { status: "complete", text: "late" },
      snapshot: { items: [], policy: policy.id, throughSeq: turn.answer.seq, baseVersion: null },
    });
    expect(committed).toBe("lease_lost");
    const after = await rowsReferring([sessionId, ...messageIds, turn.question.id, turn.answer.id]);
    expect(after).toEqual(zeroEverywhere(after));
  });

  it("a missing session is a 404 error, and nothing is audited", async () => {
    const admin = await createUser("ADMIN", "Admin");
    const id = `missing${Date.now()}`;
    await expect(deleteSessionForAdmin({ sessionId: id, actorId: admin.id })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await db.auditLog.count({ where: { targetId: id } })).toBe(0);
  });
});

describe(`admin: session review (${kind})`, () => {
  it("pages the history and marks what the model would see next", async () => {
    const owner = await createUser();
    const questions = Array.from({ length: 5 }, (_, i) => `question ${i + 1}`);
    const { sessionId } = await converse(owner.id, questions);

    const newest = await getSessionReview({ sessionId, limit: 4, config: { policy, tailRows: 10 } });
    expect(newest.session).toMatchObject({ id: sessionId, messageCount: 10, owner: { id: owner.id } });
    expect(newest.messages.map((m) => m.seq)).toEqual([7, 8, 9, 10]);
    expect(newest.hasMore).toBe(true);
    expect(newest.messages[3]).toMatchObject({
      role: "assistant",
      status: "complete",
      promptTokens: 7,
      completionTokens: 3,
      toolCalls: [],
    });
    // window:4 keeps the last four history messages.
    expect(newest.snapshot).toMatchObject({ policy: "window:4", throughSeq: 10, current: true });
    expect(newest.nextContextSeqs).toEqual([7, 8, 9, 10]);

    const older = await getSessionReview({
      sessionId,
      beforeSeq: 7,
      limit: 4,
      config: { policy, tailRows: 10 },
    });
    expect(older.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6]);
    const oldest = await getSessionReview({
      sessionId,
      beforeSeq: 3,
      limit: 4,
      config: { policy, tailRows: 10 },
    });
    expect(oldest.messages.map((m) => m.seq)).toEqual([1, 2]);
    expect(oldest.hasMore).toBe(false);

    // Under another policy the snapshot is stale; the next turn would rebuild from the tail.
    const wider = await getSessionReview({
      sessionId,
      limit: 4,
      config: { policy: messageWindow(6), tailRows: 14 },
    });
    expect(wider.snapshot?.current).toBe(false);
    expect(wider.nextContextSeqs).toEqual([5, 6, 7, 8, 9, 10]);
    const off = await getSessionReview({
      sessionId,
      limit: 4,
      config: { policy: messageWindow(6), tailRows: 0 },
    });
    expect(off.nextContextSeqs).toEqual([]);
  });

  it("reads back the recorded context of a turn", async () => {
    const owner = await createUser();
    const { sessionId } = await converse(owner.id, ["one", "two"]);
    const review = await getSessionReview({ sessionId, limit: 10, config: { policy, tailRows: 10 } });
    const secondAnswer = review.messages.find((m) => m.seq === 4);
    const context = await getTurnContextForAdmin({ sessionId, messageId: secondAnswer?.id ?? "" });
    const entries = context.entries as { source: string; seq?: number }[];
    expect(entries.map((e) => [e.source, e.seq])).toEqual([
      ["system", undefined],
      ["history", 1],
      ["history", 2],
      ["current", 3],
    ]);
    await expect(
      getTurnContextForAdmin({ sessionId: "nope", messageId: secondAnswer?.id ?? "" }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PgPlanNode[];
}
const flatten = (node: PgPlanNode): PgPlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

describe(`admin: the sessions list (${kind})`, () => {
  it("pages 120 sessions of one owner by last activity, each row once", async () => {
    const owner = await createUser("USER", "Pager");
    const base = Date.now() - 10_000_000;
    await db.chatSession.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        userId: owner.id,
        title: `paged ${i}`,
        lastSeq: i,
        updatedAt: new Date(base + Math.floor(i / 2) * 1000), // pairs share updatedAt: the id breaks ties
      })),
    });
    const seen: string[] = [];
    let cursor: Parameters<typeof listSessionsForAdmin>[0]["cursor"];
    const pages: number[] = [];
    do {
      const page = await listSessionsForAdmin({ q: owner.email.toUpperCase(), cursor, limit: 50 });
      pages.push(page.sessions.length);
      seen.push(...page.sessions.map((s) => s.id));
      for (const s of page.sessions)
        expect(s.owner).toEqual({ id: owner.id, email: owner.email, name: "Pager" });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([50, 50, 20]);
    expect(new Set(seen).size).toBe(120);
    const rows = await db.chatSession.findMany({
      where: { userId: owner.id },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    expect(seen).toEqual(rows.map((r) => r.id));

    const byTitle = await listSessionsForAdmin({ q: "PAGED 11", limit: 50 });
    expect(byTitle.sessions.map((s) => s.title).sort()).toEqual([
      "paged 11",
      "paged 110",
      "paged 111",
      "paged 112",
      "paged 113",
      "paged 114",
      "paged 115",
      "paged 116",
      "paged 117",
      "paged 118",
      "paged 119",
    ]);
    expect(byTitle.sessions.find((s) => s.title === "paged 117")?.messageCount).toBe(117);
  });

  it("reads one page of rows: the plan walks the (updatedAt, id) index and never sorts", async () => {
    // Enough rows that PostgreSQL's planner would rather sort than walk the index if it could not stop early.
    const owner = await createUser("USER", "Bulk");
    const base = Date.now() - 20_000_000;
    await db.chatSession.createMany({
      data: Array.from({ length: 3000 }, (_, i) => ({
        userId: owner.id,
        title: `bulk ${i}`,
        updatedAt: new Date(base + i * 1000),
      })),
    });
    if (kind === "postgresql") await db.$executeRawUnsafe(`ANALYZE "ChatSession"`);

    const limit = 50;
    const { client, statements } = loggingClient(env.DATABASE_URL);
    try {
      const first = await client.chatSession.findMany(adminSessionsPageArgs({ limit }));
      const middle = first.at(-1);
      const deep = await client.chatSession.findMany(
        adminSessionsPageArgs({
          limit,
          cursor: { at: new Date(base + 1500 * 1000), id: middle?.id ?? "" },
        }),
      );
      expect(first).toHaveLength(limit + 1);
      expect(deep).toHaveLength(limit + 1);

      const sessionQueries = statements.filter((s) =>
        /FROM\s+\S*ChatSession\S*\s+WHERE|FROM\s+\S*ChatSession\S*\s+ORDER/.test(s.query),
      );
      expect(sessionQueries).toHaveLength(2);
      for (const { query, params } of sessionQueries) {
        expect(params).toContain(String(limit + 1)); // LIMIT limit + 1
        if (kind === "sqlite") {
          const plan = await client.$queryRawUnsafe<{ detail: string }[]>(
            `EXPLAIN QUERY PLAN ${query}`,
            ...params,
          );
          const details = plan.map((p) => p.detail).join("\n");
          expect(details).toMatch(/ChatSession USING INDEX ChatSession_updatedAt_id_idx/);
          expect(details).not.toMatch(/TEMP B-TREE/);
          if (query.includes("<="))
            expect(details).toMatch(
              /SEARCH (main\.)?ChatSession USING INDEX ChatSession_updatedAt_id_idx \(updatedAt<\?\)/,
            );
        } else {
          const [row] = await client.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
            ...params,
          );
          const raw = row?.["QUERY PLAN"];
          const [top] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PgPlanNode }[];
          const nodes = flatten(top?.Plan as PgPlanNode);
          expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
          expect(nodes.map((n) => n["Node Type"])).not.toContain("Incremental Sort");
          const scan = nodes.find((n) => n["Relation Name"] === "ChatSession");
          expect(scan?.["Node Type"]).toMatch(/^Index (Only )?Scan$/);
          expect(scan?.["Index Name"]).toBe("ChatSession_updatedAt_id_idx");
          // Rows the scan produced plus rows it read and discarded: one page, not the table.
          const read =
            (scan?.["Actual Rows"] ?? 0) * (scan?.["Actual Loops"] ?? 1) +
            (scan?.["Rows Removed by Filter"] ?? 0);
          expect(read).toBeLessThanOrEqual(limit + 2);
        }
      }
    } finally {
      await client.$disconnect();
    }
  });
});

describe(`admin: users (${kind})`, () => {
  // These tests decide who the admins are; other files' admins would make "the last admin" meaningless.
  beforeEach(async () => {
    await db.user.updateMany({ where: { role: "ADMIN" }, data: { role: "USER" } });
  });

  it("deleting a user removes all their sessions, returns a receipt and audits it without content", async () => {
    const admin = await createUser("ADMIN", "Admin");
    const user = await createUser();
    const secret = `secret-${randomUUID()}`;
    const a = await converse(user.id, [`one ${secret}`, "two"]);
    const b = await converse(user.id, ["three"]);
    const their = await db.auditLog.create({
      data: {
        actorId: user.id,
        action: "session.delete",
        targetType: "ChatSession",
        targetId: "x",
        details: {},
      },
    });

    const receipt = await deleteUserForAdmin({ actorId: admin.id, userId: user.id });
    expect(receipt).toEqual({
      userId: user.id,
      deleted: {
        ...noFactsOrFiles,
        User: 1,
        Project: 0,
        ProjectFile: 0,
        ProjectFileChunk: 0,
        ChatSession: 2,
        ChatMessage: 6,
        MemorySnapshot: 2,
        TurnContext: 3,
      },
      anonymized: { AuditLog: 1 },
    });
    const after = await rowsReferring([user.id, a.sessionId, b.sessionId, ...a.messageIds, ...b.messageIds]);
    expect(after).toEqual(zeroEverywhere(after));
    expect((await db.auditLog.findUniqueOrThrow({ where: { id: their.id } })).actorId).toBeNull();

    const entry = await db.auditLog.findFirstOrThrow({ where: { targetId: user.id, action: "user.delete" } });
    expect(entry).toMatchObject({ actorId: admin.id, targetType: "User", details: receipt.deleted });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it("lists users with their session and message counts", async () => {
    const admin = await createUser("ADMIN", "Counted");
    const user = await createUser("USER", "Counted");
    await converse(user.id, ["a", "b"]);
    await converse(user.id, ["c"]);
    const { users } = await listUsersForAdmin({ q: "counted-", limit: 100 });
    const byId = new Map(users.map((u) => [u.id, u]));
    expect(byId.get(user.id)).toMatchObject({
      role: "USER",
      sessionCount: 2,
      messageCount: 6,
      disabledAt: null,
    });
    expect(byId.get(admin.id)).toMatchObject({ role: "ADMIN", sessionCount: 0, messageCount: 0 });
    expect(JSON.stringify(users)).not.toContain("passwordHash");

    const first = await listUsersForAdmin({ q: "counted-", limit: 1 });
    const second = await listUsersForAdmin({ q: "counted-", afterEmail: first.users[0]?.email, limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    expect((second.users[0]?.email ?? "") > (first.users[0]?.email ?? "")).toBe(true);
  });

  it("promotes, demotes, disables and enables, auditing each change", async () => {
    const admin = await createUser("ADMIN", "Admin");
    const user = await createUser();
    await updateUserForAdmin({ actorId: admin.id, userId: user.id, role: "ADMIN" });
    await updateUserForAdmin({ actorId: admin.id, userId: user.id, role: "USER" });
    const disabled = await updateUserForAdmin({ actorId: admin.id, userId: user.id, disabled: true });
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    const enabled = await updateUserForAdmin({ actorId: admin.id, userId: user.id, disabled: false });
    expect(enabled.disabledAt).toBeNull();
    // No change, no entry.
    await updateUserForAdmin({ actorId: admin.id, userId: user.id, role: "USER" });

    const entries = await db.auditLog.findMany({
      where: { targetId: user.id },
      orderBy: { createdAt: "asc" },
      select: { action: true, actorId: true, details: true },
    });
    expect(entries.map((e) => e.action)).toEqual([
      "user.promote",
      "user.demote",
      "user.disable",
      "user.enable",
    ]);
    expect(entries[0]).toEqual({
      action: "user.promote",
      actorId: admin.id,
      details: { from: "USER", to: "ADMIN" },
    });
  });

  it("refuses to leave Recall without an enabled admin, and admins cannot disable or delete themselves", async () => {
    const admin = await createUser("ADMIN", "Admin");
    await expect(
      updateUserForAdmin({ actorId: admin.id, userId: admin.id, role: "USER" }),
    ).rejects.toMatchObject({
      code: "last_admin",
      status: 409,
    });
    await expect(
      updateUserForAdmin({ actorId: admin.id, userId: admin.id, disabled: true }),
    ).rejects.toMatchObject({
      code: "self_action",
      status: 409,
    });
    await expect(deleteUserForAdmin({ actorId: admin.id, userId: admin.id })).rejects.toMatchObject({
      code: "self_action",
      status: 409,
    });
    // A disabled admin is no admin to fall back on.
    const dormant = await createUser("ADMIN", "Dormant");
    await db.user.update({ where: { id: dormant.id }, data: { disabledAt: new Date() } });
    await expect(
      updateUserForAdmin({ actorId: admin.id, userId: admin.id, role: "USER" }),
    ).rejects.toMatchObject({
      code: "last_admin",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).role).toBe("ADMIN");
    expect(await db.auditLog.count({ where: { targetId: admin.id } })).toBe(0);

    // With a second enabled admin, stepping down is allowed.
    const other = await createUser("ADMIN", "Other");
    await updateUserForAdmin({ actorId: admin.id, userId: admin.id, role: "USER" });
    expect(await db.user.count({ where: { role: "ADMIN", disabledAt: null } })).toBe(1);
    await expect(deleteUserForAdmin({ actorId: other.id, userId: other.id })).rejects.toMatchObject({
      code: "self_action",
    });
  });

  it("two admins demoting each other at the same moment leave one admin", async () => {
    const a = await createUser("ADMIN", "A");
    const b = await createUser("ADMIN", "B");
    const results = await Promise.allSettled([
      updateUserForAdmin({ actorId: a.id, userId: b.id, role: "USER" }),
      updateUserForAdmin({ actorId: b.id, userId: a.id, role: "USER" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [rejected] = results.filter((r) => r.status === "rejected");
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: "last_admin" });
    expect(await db.user.count({ where: { role: "ADMIN", disabledAt: null } })).toBe(1);
  });
});

describe(`admin: overview (${kind})`, () => {
  it("counts users, sessions, messages and today's messages", async () => {
    const now = new Date();
    const before = await getAdminOverview({ now });
    const user = await createUser();
    await converse(user.id, ["x", "y"]);
    const after = await getAdminOverview({ now });
    expect(after.users - before.users).toBe(1);
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.messages - before.messages).toBe(4);
    expect(after.messagesLast7Days - before.messagesLast7Days).toBe(4);
    expect(after.perDay).toHaveLength(14);
    expect(after.perDay.at(-1)?.day).toBe(now.toISOString().slice(0, 10));
    expect((after.perDay.at(-1)?.count ?? 0) - (before.perDay.at(-1)?.count ?? 0)).toBe(4);
  });

  it("counts messages as rows, not sequence numbers (an imported file may skip some)", async () => {
    const now = new Date();
    const user = await createUser();
    const before = await getAdminOverview({ now });
    const { sessionId } = await converse(user.id, ["only"]);
    await db.chatSession.update({ where: { id: sessionId }, data: { lastSeq: 9 } });
    const after = await getAdminOverview({ now });
    expect(after.messages - before.messages).toBe(2);
    expect(after.messagesLast7Days - before.messagesLast7Days).toBe(2);
  });
});

describe(`admin API authorization (${kind})`, () => {
  // A valid, unrevoked token of user `id` (token version 0, as created), or no token.
  const signedIn = (id: string | null) =>
    vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
  const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });

  it("answers 401 to anonymous callers, 403 to a USER, and changes nothing", async () => {
    const sessions = await import("@/app/api/admin/sessions/route");
    const session = await import("@/app/api/admin/sessions/[id]/route");
    const context = await import("@/app/api/admin/sessions/[id]/turns/[messageId]/context/route");
    const users = await import("@/app/api/admin/users/route");
    const user = await import("@/app/api/admin/users/[id]/route");
    const audit = await import("@/app/api/admin/audit/route");
    const overview = await import("@/app/api/admin/overview/route");

    const owner = await createUser();
    const { sessionId, messageIds } = await converse(owner.id, ["private"]);
    const base = "http://127.0.0.1/api/admin";
    const patch = () =>
      new Request(`${base}/users/${owner.id}`, { method: "PATCH", body: JSON.stringify({ role: "ADMIN" }) });
    const calls = [
      () => sessions.GET(new Request(`${base}/sessions`), ctx({})),
      () => session.GET(new Request(`${base}/sessions/${sessionId}`), ctx({ id: sessionId })),
      () => session.DELETE(new Request(`${base}/sessions/${sessionId}`), ctx({ id: sessionId })),
      () => context.GET(new Request(`${base}/x`), ctx({ id: sessionId, messageId: messageIds[1] ?? "" })),
      () => users.GET(new Request(`${base}/users`), ctx({})),
      () => user.PATCH(patch(), ctx({ id: owner.id })),
      () => user.DELETE(new Request(`${base}/users/${owner.id}`), ctx({ id: owner.id })),
      () => audit.GET(new Request(`${base}/audit`), ctx({})),
      () => overview.GET(new Request(`${base}/overview`), ctx({})),
    ];

    signedIn(null);
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
    signedIn(owner.id);
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: "forbidden" } });
    }
    // A disabled admin is nobody.
    const disabledAdmin = await createUser("ADMIN", "Gone");
    await db.user.update({ where: { id: disabledAdmin.id }, data: { disabledAt: new Date() } });
    signedIn(disabledAdmin.id);
    expect((await sessions.GET(new Request(`${base}/sessions`), ctx({}))).status).toBe(401);

    expect(await db.chatSession.count({ where: { id: sessionId } })).toBe(1);
    expect((await db.user.findUniqueOrThrow({ where: { id: owner.id } })).role).toBe("USER");
  });

  it("serves an ADMIN, with clear 4xx errors", async () => {
    const session = await import("@/app/api/admin/sessions/[id]/route");
    const sessions = await import("@/app/api/admin/sessions/route");
    const user = await import("@/app/api/admin/users/[id]/route");
    const admin = await createUser("ADMIN", "Admin");
    const owner = await createUser();
    const { sessionId } = await converse(owner.id, ["hello", "again"]);
    signedIn(admin.id);

    const listed = await sessions.GET(
      new Request(`http://x/api/admin/sessions?q=${encodeURIComponent(owner.email)}`),
      ctx({}),
    );
    expect(listed.status).toBe(200);
    const list = (await listed.json()) as {
      sessions: { id: string; messageCount: number }[];
      nextCursor: null;
    };
    expect(list).toEqual({
      sessions: [expect.objectContaining({ id: sessionId, messageCount: 4 })],
      nextCursor: null,
    });

    const got = await session.GET(
      new Request(`http://x/api/admin/sessions/${sessionId}?limit=2`),
      ctx({ id: sessionId }),
    );
    const body = (await got.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      "hasMore",
      "memoryStartSeq",
      "messages",
      "nextContextSeqs",
      "pathNext",
      "policy",
      "session",
      "settings",
      "snapshot",
    ]);
    expect(body.hasMore).toBe(true);
    // The next older page carries the active path on from where this one stopped.
    const older = await session.GET(
      new Request(`http://x/api/admin/sessions/${sessionId}?limit=2&before=3&pathFrom=${body.pathNext}`),
      ctx({ id: sessionId }),
    );
    const olderBody = (await older.json()) as { messages: { seq: number; tree: { onPath: boolean } }[] };
    expect(olderBody.messages.map((m) => [m.seq, m.tree.onPath])).toEqual([
      [1, true],
      [2, true],
    ]);
    const tooLong = await session.GET(
      new Request(`http://x/api/admin/sessions/${sessionId}?pathFrom=${"x".repeat(65)}`),
      ctx({ id: sessionId }),
    );
    expect(tooLong.status).toBe(400);

    const bad = await sessions.GET(new Request("http://x/api/admin/sessions?cursor=garbage"), ctx({}));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "bad_request" } });

    const self = await user.PATCH(
      new Request("http://x", { method: "PATCH", body: JSON.stringify({ disabled: true }) }),
      ctx({ id: admin.id }),
    );
    expect(self.status).toBe(409);
    expect(await self.json()).toMatchObject({ error: { code: "self_action" } });
    const invalid = await user.PATCH(
      new Request("http://x", { method: "PATCH", body: JSON.stringify({ role: "ROOT" }) }),
      ctx({ id: owner.id }),
    );
    expect(invalid.status).toBe(422);

    const deleted = await session.DELETE(new Request("http://x"), ctx({ id: sessionId }));
    expect(await deleted.json()).toEqual({
      receipt: {
        sessionId,
        deleted: { ...noFactsOrFiles, ChatSession: 1, ChatMessage: 4, MemorySnapshot: 1, TurnContext: 2 },
      },
    });
    const again = await session.GET(new Request("http://x"), ctx({ id: sessionId }));
    expect(again.status).toBe(404);
  });
});
