import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type ChatMessage, databaseKind, db, type Tx } from "@/lib/db/client";
import { type RecallHit, recallCandidates } from "@/lib/db/recall";
import { indexMessages } from "@/lib/db/search";
import { unsafeDeleteSessionById } from "@/lib/db/sessions";
import { loggingClient } from "@/lib/db/test-rows";
import { env } from "@/lib/env";

// What recall may bring back, on the database's real engine: only the user's own messages, after each
// conversation's clear-memory boundary, on the current question's path (other conversations: their active path),
// never the current question, the excluded seqs or a deleted message. Every test makes its own users and words.

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

/** Transactions that write or read thousands of rows: Prisma's 5 s default fails on a machine twice as slow. */
const BULK = { timeout: 120_000, maxWait: 60_000 };

const word = () => `zr${randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function createUser() {
  return db.user.create({
    data: { email: `recall-${randomUUID()}@example.test`, name: "Recall", passwordHash: "x" },
  });
}

type Role = "user" | "assistant" | "tool";
type Spec = [Role, string] | [Role, string, { parent?: number; parts?: object }];

/**
 * A conversation of these messages (seq = position + 1), each the child of the one before unless `parent` names
 * another seq (a branch). Indexed as turns index them; the active leaf is the last message.
 */
async function conversation(userId: string, specs: Spec[], title = "Talk") {
  return db.$transaction(async (tx) => {
    const session = await tx.chatSession.create({ data: { userId, title, lastSeq: specs.length } });
    const rows: ChatMessage[] = [];
    for (const [i, [role, text, opts]] of specs.entries()) {
      const parent = opts?.parent ? rows[opts.parent - 1] : rows.at(-1);
      rows.push(
        await tx.chatMessage.create({
          data: {
            sessionId: session.id,
            seq: i + 1,
            role,
            text,
            parentId: parent?.id ?? null,
            createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
            ...(opts?.parts ? { parts: opts.parts } : {}),
          },
        }),
      );
    }
    await indexMessages(
      {
        docs: rows.flatMap((r) =>
          r.role === "tool" ? [] : [{ ...r, userId, role: r.role as "user" | "assistant" }],
        ),
      },
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

const seqs = (hits: RecallHit[]) => hits.map((h) => h.seq);

describe(`recall candidates (${kind})`, () => {
  it("finds an earlier fact by its content words, best first, with its answer as partner", async () => {
    const user = await createUser();
    const [pet, other] = [word(), word()];
    const { session } = await conversation(user.id, [
      ["user", `My dog is called ${pet} and she loves the beach`],
      ["assistant", `${pet} sounds like a lovely dog!`],
      ["user", `I also bought a ${other} yesterday`],
      ["assistant", "Nice purchase."],
      ["user", `What is my dog called? ${pet}`],
    ]);
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: `what was my dog called, ${pet}?`,
      leafSeq: 5,
      limit: 5,
    });
    expect(seqs(hits)).toEqual([1, 2]);
    expect(hits[0]?.partner).toMatchObject({
      seq: 2,
      role: "assistant",
      text: `${pet} sounds like a lovely dog!`,
    });
    expect(hits[1]?.partner).toMatchObject({ seq: 1, role: "user" });
    expect(hits[0]).toMatchObject({ sessionId: session.id, sessionTitle: "Talk", role: "user" });
    expect(hits[0]?.createdAt).toEqual(new Date(Date.UTC(2026, 0, 1)));
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
  });

  it("takes a name the assistant addresses for the user's, and answers with the user's own message", async () => {
    const user = await createUser();
    const club = word();
    const name = `Zr${randomUUID().replace(/-/g, "").slice(0, 8)}`;
    const specs: Spec[] = [
      ["user", `I joined the ${club} in March`],
      ["assistant", "Good to know."],
    ];
    // The assistant's messages hold the name and every other word of the question; the user's fact does not name her.
    for (let i = 0; i < 10; i++)
      specs.push(
        ["user", "Anything new this week?"],
        ["assistant", `${name}, will you join the ${club} again?`],
      );
    specs.push(["user", `When did ${name} join the ${club}?`]);
    const { session } = await conversation(user.id, specs);
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: `When did ${name} join the ${club}?`,
      leafSeq: specs.length,
      limit: 3,
    });
    expect(hits[0]).toMatchObject({ seq: 1, role: "user" });
  });

  it("pairs a question with its final answer past tool steps, even when the index matched the tool call", async () => {
    const user = await createUser();
    const code = word();
    const call = { id: "call_1", name: "remember", arguments: JSON.stringify({ text: code }) };
    const { session } = await conversation(user.id, [
      ["user", `The locker code is ${code}, please remember it`],
      ["assistant", `Saving ${code} for you.`, { parts: { toolCalls: [call] } }],
      ["tool", "ok"],
      ["assistant", "Done, I will keep it safe."],
      ["user", "unrelated small talk"],
      ["assistant", "Sure."],
      ["user", `What was the locker code ${code}?`],
    ]);
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: `what was the locker code, ${code}?`,
      leafSeq: 7,
      limit: 5,
    });
    const question = hits.find((h) => h.seq === 1);
    expect(question?.partner).toMatchObject({
      seq: 4,
      role: "assistant",
      text: "Done, I will keep it safe.",
    });
    expect(hits.map((h) => h.partner?.seq)).not.toContain(2);
  });

  it("ranks a message holding all the question's words, and the phrase, above one holding some", async () => {
    const user = await createUser();
    const [a, b] = [word(), word()];
    const { session } = await conversation(user.id, [
      ["user", `${a} alone here`],
      ["user", `${b} then ${a} apart`],
      ["user", `the ${a} ${b} together`],
      ["user", `${b} only`],
      ["user", "question"],
    ]);
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: `${a} ${b}`,
      leafSeq: 5,
      limit: 10,
    });
    expect(seqs(hits).slice(0, 2)).toEqual([3, 2]);
    expect(seqs(hits).sort()).toEqual([1, 2, 3, 4]);
  });

  it("finds an early message holding all the words when each word alone has hundreds of later matches", async () => {
    const user = await createUser();
    const [a, b] = [word(), word()];
    // Message 1 holds both words; then 1 200 messages hold one of them each, more than any slot reads from one end.
    const texts = [
      `the ${a} with the ${b}`,
      ...Array.from({ length: 1200 }, (_, i) => `${i % 2 ? a : b} item ${i}`),
    ];
    const session = await db.chatSession.create({
      data: { userId: user.id, title: "Long", lastSeq: texts.length + 1 },
    });
    const ids = [...texts, "question"].map(() => randomUUID());
    const rows = [...texts, "question"].map((text, i) => ({
      id: ids[i] as string,
      parentId: i === 0 ? null : (ids[i - 1] as string),
      sessionId: session.id,
      seq: i + 1,
      role: "user" as Role,
      text,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    await db.chatMessage.createMany({ data: rows });
    await db.$transaction(
      (tx) => indexMessages({ docs: rows.map((r) => ({ ...r, userId: user.id })), fresh: true }, { tx }),
      BULK,
    );
    const last = rows.at(-1) as (typeof rows)[number];
    await db.chatSession.update({
      where: { id: session.id },
      data: { activeLeafId: last.id, activeLeafSeq: last.seq },
    });
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: `${a} ${b}`,
      leafSeq: last.seq,
      limit: 10,
    });
    expect(seqs(hits)[0]).toBe(1);
  });

  it("finds a message in the middle of a long conversation through a word in every message, a word common only early on, and a rare one", async () => {
    const user = await createUser();
    const [common, early, rare] = [word(), word(), word()];
    // 3 000 messages: the middle one is outside what a common slot reads directly (SQLite: its earliest matches;
    // PostgreSQL: the newest and the earliest 1 000 documents); `early` fills its share of the index's matches
    // before the middle is reached.
    const texts = Array.from({ length: 3000 }, (_, i) => {
      if (i === 1499) return `${common} ${early} ${rare}`;
      return i < 1000 && i % 2 === 0 ? `${common} ${early} item ${i}` : `${common} item ${i}`;
    });
    const session = await db.chatSession.create({
      data: { userId: user.id, title: "Long", lastSeq: texts.length + 1 },
    });
    const ids = [...texts, "question"].map(() => randomUUID());
    const rows = [...texts, "question"].map((text, i) => ({
      id: ids[i] as string,
      parentId: i === 0 ? null : (ids[i - 1] as string),
      sessionId: session.id,
      seq: i + 1,
      role: "user" as Role,
      text,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    await db.chatMessage.createMany({ data: rows });
    await db.$transaction(
      (tx) => indexMessages({ docs: rows.map((r) => ({ ...r, userId: user.id })), fresh: true }, { tx }),
      BULK,
    );
    const last = rows.at(-1) as (typeof rows)[number];
    await db.chatSession.update({
      where: { id: session.id },
      data: { activeLeafId: last.id, activeLeafSeq: last.seq },
    });
    for (const question of [`${early} ${rare} ${common}`, `${rare} ${common}`]) {
      const hits = await recallCandidates({
        userId: user.id,
        sessionId: session.id,
        scope: "conversation",
        question,
        leafSeq: last.seq,
        limit: 10,
      });
      expect(seqs(hits)[0]).toBe(1500);
    }
  });

  it.runIf(kind === "postgresql")(
    "PostgreSQL: reads a bounded part of the index for a word in every message of a long conversation",
    async () => {
      const user = await createUser();
      const [common, other] = [word(), word()];
      const n = 6000;
      const texts = Array.from({ length: n }, (_, i) => `${common} ${i % 3 ? other : "item"} ${i}`);
      const session = await db.chatSession.create({
        data: { userId: user.id, title: "Long", lastSeq: n + 1 },
      });
      const ids = [...texts, "question"].map(() => randomUUID());
      const rows = [...texts, "question"].map((text, i) => ({
        id: ids[i] as string,
        parentId: i === 0 ? null : (ids[i - 1] as string),
        sessionId: session.id,
        seq: i + 1,
        role: "user" as Role,
        text,
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      }));
      await db.chatMessage.createMany({ data: rows });
      await db.$transaction(
        (tx) => indexMessages({ docs: rows.map((r) => ({ ...r, userId: user.id })), fresh: true }, { tx }),
        BULK,
      );
      // This transaction's own counters of SearchDoc rows read (sequential, index and bitmap scans), whatever
      // other connections do meanwhile.
      const read = (tx: Tx) =>
        tx
          .$queryRawUnsafe<{ n: bigint }[]>(
            `SELECT pg_stat_get_xact_tuples_returned('"SearchDoc"'::regclass)
                  + pg_stat_get_xact_tuples_fetched('"SearchDoc"'::regclass) AS n`,
          )
          .then((r) => Number(r[0]?.n ?? 0));
      const touched = await db.$transaction(async (tx) => {
        const before = await read(tx);
        const hits = await recallCandidates(
          {
            userId: user.id,
            sessionId: session.id,
            scope: "conversation",
            question: `${common} ${other}`,
            leafSeq: n + 1,
            limit: 10,
          },
          { tx },
        );
        expect(hits.length).toBe(10);
        return (await read(tx)) - before;
      }, BULK);
      // The newest and the earliest 1 000 documents and the pool's 200: not the 6 000 matches.
      expect(touched).toBeLessThan(n / 2);
    },
    60_000,
  );

  it("never returns the current question, the excluded seqs, or messages before the clear-memory boundary", async () => {
    const user = await createUser();
    const w = word();
    const { session } = await conversation(user.id, [
      ["user", `${w} one`],
      ["assistant", `${w} two`],
      ["user", `${w} three`],
      ["assistant", `${w} four`],
      ["user", `${w} five`],
      ["assistant", `${w} six`],
      ["user", `${w} seven?`],
    ]);
    await db.chatSession.update({ where: { id: session.id }, data: { memoryStartSeq: 2 } });
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: w,
      leafSeq: 7,
      excludeSeqs: [5, 6],
      limit: 20,
    });
    expect(seqs(hits).sort()).toEqual([3, 4]);
    // The partner of seq 4 is 3; seq 3's answer (4) is its partner; nothing excluded or cleared comes as a partner.
    for (const h of hits) expect([3, 4]).toContain(h.partner?.seq);
  });

  it("after a clear, finds a message after the boundary through a word the cleared part used in every message", async () => {
    const user = await createUser();
    const [w, fact] = [word(), word()];
    // More matches of `w` before the boundary than any slot reads (SQLite: its earliest 200; PostgreSQL: more than
    // its window of newest documents, and a GIN share that starts with the earliest), then, after the boundary, the
    // one message holding it and a longer tail without it.
    const before = 1500;
    const after = 1100;
    const session = await db.chatSession.create({
      data: { userId: user.id, title: "Cleared", lastSeq: before },
    });
    // One path: each message the child of the one before.
    let parentId: string | null = null;
    const write = async (texts: string[], from: number) => {
      const rows = texts.map((text, i) => ({
        id: randomUUID(),
        parentId,
        sessionId: session.id,
        seq: from + i,
        role: ((from + i) % 2 === 1 ? "user" : "assistant") as "user" | "assistant",
        text,
        createdAt: new Date(Date.UTC(2026, 0, 1) + (from + i) * 1000),
      }));
      for (const r of rows) {
        r.parentId = parentId;
        parentId = r.id;
      }
      await db.chatMessage.createMany({ data: rows });
      await db.$transaction(
        (tx) => indexMessages({ docs: rows.map((r) => ({ ...r, userId: user.id })), fresh: true }, { tx }),
        BULK,
      );
    };
    await write(
      Array.from({ length: before }, (_, i) => `${w} talk ${i % 9}`),
      1,
    );
    await db.chatSession.update({ where: { id: session.id }, data: { memoryStartSeq: before } });
    await write(
      [`the ${w} now holds ${fact}`, ...Array.from({ length: after - 1 }, (_, i) => `other words ${i % 5}`)],
      before + 1,
    );
    await db.chatSession.update({ where: { id: session.id }, data: { lastSeq: before + after } });
    const leafSeq = before + after;
    const args = {
      userId: user.id,
      sessionId: session.id,
      scope: "conversation" as const,
      question: w,
      leafSeq,
      limit: 5,
    };

    const hits = await recallCandidates({ ...args, startSeq: before });
    expect(seqs(hits)[0]).toBe(before + 1);
    expect(hits[0]?.text).toContain(fact);
    // Read from the conversation's start, the word's slot is filled before the boundary: on SQLite, whose rowids
    // follow insertion. PostgreSQL's GIN part reads in table order, which reuses the free space of other tests'
    // deleted rows, so whether the old lookup happened to reach the message depends on the shared database.
    if (kind === "sqlite") expect(seqs(await recallCandidates(args))).not.toContain(before + 1);
  }, 60_000);

  it("sends no statement when every earlier message of the conversation is in the window", async () => {
    const user = await createUser();
    const w = word();
    const { session } = await conversation(user.id, [
      ["user", `${w} one`],
      ["assistant", `${w} two`],
      ["user", `${w} three`],
      ["assistant", `${w} four`],
      ["user", `${w} five?`],
    ]);
    const { client, statements } = loggingClient(env.DATABASE_URL);
    try {
      const ask = (excludeSeqs: number[]) =>
        recallCandidates(
          {
            userId: user.id,
            sessionId: session.id,
            scope: "conversation",
            question: w,
            leafSeq: 5,
            excludeSeqs,
            limit: 20,
          },
          { tx: client as unknown as Tx },
        );
      expect(await ask([1, 2, 3, 4])).toEqual([]);
      expect(statements).toEqual([]);
      // One earlier message outside the window: it is looked up and recalled.
      expect(seqs(await ask([2, 3, 4]))).toEqual([1]);
      expect(statements.length).toBeGreaterThan(0);
    } finally {
      await client.$disconnect();
    }
  });

  it("stays on the current question's path in a branched conversation", async () => {
    const user = await createUser();
    const w = word();
    const { session } = await conversation(user.id, [
      ["user", `${w} root question`],
      ["assistant", `${w} first answer`],
      ["assistant", `${w} regenerated answer`, { parent: 1 }],
      ["user", `${w} on the regenerated branch`],
      ["user", `${w} edited question`, { parent: 2 }],
      ["assistant", `${w} answer on the first branch`],
      ["user", `${w} now?`],
    ]);
    const forks = await db.chatSession.findUniqueOrThrow({
      where: { id: session.id },
      select: { forks: true },
    });
    expect(forks.forks).toBeGreaterThan(0);
    // The path of seq 7: 1 → 2 → 5 → 6 → 7.
    const hits = await recallCandidates({
      userId: user.id,
      sessionId: session.id,
      scope: "conversation",
      question: w,
      leafSeq: 7,
      limit: 20,
    });
    expect(seqs(hits).sort()).toEqual([1, 2, 5, 6]);
    expect(hits.find((h) => h.seq === 1)?.partner?.seq).toBe(2);
    expect(hits.find((h) => h.seq === 5)?.partner?.seq).toBe(6);
  });

  it("counts no branch in a conversation that is one path", async () => {
    const user = await createUser();
    const { session } = await conversation(user.id, [
      ["user", "a"],
      ["assistant", "b"],
      ["user", "c"],
    ]);
    const row = await db.chatSession.findUniqueOrThrow({
      where: { id: session.id },
      select: { forks: true },
    });
    expect(row.forks).toBe(0);
  });

  it("reaches another conversation of the same user only with scope all, and only its active path", async () => {
    const user = await createUser();
    const stranger = await createUser();
    const w = word();
    const other = await conversation(
      user.id,
      [
        ["user", `${w} in another conversation`],
        ["assistant", `${w} answered there`],
        ["assistant", `${w} a version the user left`, { parent: 1 }],
        ["user", `${w} after the version`],
      ],
      "Other",
    );
    // The user is back on the first answer's branch: 1 → 2.
    await db.chatSession.update({
      where: { id: other.session.id },
      data: { activeLeafId: other.messages[1]?.id, activeLeafSeq: 2 },
    });
    const cleared = await conversation(user.id, [
      ["user", `${w} cleared there`],
      ["assistant", `${w} after the boundary`],
    ]);
    await db.chatSession.update({ where: { id: cleared.session.id }, data: { memoryStartSeq: 1 } });
    await conversation(stranger.id, [["user", `${w} a stranger's message`]]);
    const { session } = await conversation(user.id, [
      ["user", `${w} here`],
      ["user", `${w}?`],
    ]);
    const args = { userId: user.id, sessionId: session.id, question: w, leafSeq: 2, limit: 20 };

    const here = await recallCandidates({ ...args, scope: "conversation" });
    expect(here.map((h) => [h.sessionId, h.seq])).toEqual([[session.id, 1]]);

    const all = await recallCandidates({ ...args, scope: "all" });
    expect(
      all
        .map(
          (h) =>
            `${h.sessionId === other.session.id ? "other" : h.sessionId === cleared.session.id ? "cleared" : "here"}:${h.seq}`,
        )
        .sort(),
    ).toEqual(["cleared:2", "here:1", "other:1", "other:2"]);
    expect(all.find((h) => h.sessionId === other.session.id)?.sessionTitle).toBe("Other");
    expect(all.find((h) => h.sessionId === other.session.id && h.seq === 1)?.partner?.seq).toBe(2);
    // The cleared conversation's question is before its boundary: its answer comes without it.
    expect(all.find((h) => h.sessionId === cleared.session.id)?.partner).toBeUndefined();

    // From a new, empty conversation (its first question not stored yet): the other conversations still.
    const empty = await db.chatSession.create({ data: { userId: user.id, title: "New" } });
    const fromNew = await recallCandidates({ ...args, sessionId: empty.id, leafSeq: 1, scope: "all" });
    expect(fromNew.map((h) => h.sessionId)).toContain(other.session.id);

    // Asked as the stranger, about this user's conversation: nothing.
    expect(await recallCandidates({ ...args, userId: stranger.id, scope: "all" })).toEqual([]);
  });

  it("with scope all inside a project reaches only the project's conversations, however many it has", async () => {
    const user = await createUser();
    const w = word();
    const project = await db.project.create({ data: { userId: user.id, name: "P" } });
    const inside = await conversation(user.id, [["user", `${w} inside the project`]], "Inside");
    await conversation(user.id, [["user", `${w} outside it`]], "Outside");
    const { session } = await conversation(user.id, [["user", `${w}?`]]);
    await db.chatSession.updateMany({
      where: { id: { in: [inside.session.id, session.id] } },
      data: { projectId: project.id },
    });
    const args = {
      userId: user.id,
      sessionId: session.id,
      question: w,
      leafSeq: 1,
      limit: 20,
      scope: "all" as const,
    };
    const titles = async (projectId: string | null) =>
      (await recallCandidates({ ...args, projectId })).map((h) => h.sessionTitle).sort();
    expect(await titles(project.id)).toEqual(["Inside"]);
    // The same question without the project: every conversation of the user.
    expect(await titles(null)).toEqual(["Inside", "Outside"]);
    // Scope conversation is unchanged by the project.
    expect(await recallCandidates({ ...args, projectId: project.id, scope: "conversation" })).toEqual([]);

    // More conversations than are matched by their own tokens (64): the user's token, filtered by project.
    const many = await db.chatSession.createManyAndReturn({
      data: Array.from({ length: 65 }, (_, i) => ({
        userId: user.id,
        title: `Empty ${i}`,
        projectId: project.id,
      })),
      select: { id: true },
    });
    expect(many).toHaveLength(65);
    expect(await titles(project.id)).toEqual(["Inside"]);
  });

  it("forgets a deleted conversation: no candidates and no index rows left, in the deleting transaction", async () => {
    const user = await createUser();
    const w = word();
    const gone = await conversation(user.id, [
      ["user", `${w} soon deleted`],
      ["assistant", `${w} also deleted`],
    ]);
    const { session } = await conversation(user.id, [["user", `${w}?`]]);
    const args = {
      userId: user.id,
      sessionId: session.id,
      question: w,
      leafSeq: 1,
      limit: 20,
      scope: "all" as const,
    };
    expect(await recallCandidates(args)).toHaveLength(2);
    await unsafeDeleteSessionById({ sessionId: gone.session.id, actorId: user.id });
    expect(await recallCandidates(args)).toEqual([]);
    const ids = gone.messages.map((m) => m.id);
    const docs = await db.searchDoc.count({
      where: { OR: [{ messageId: { in: ids } }, { sessionId: gone.session.id }] },
    });
    expect(docs).toBe(0);
    if (kind === "sqlite") {
      const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT COUNT(*) AS n FROM "SearchFts" WHERE "SearchFts" MATCH ?`,
        `conv : "c${Buffer.from(gone.session.id).toString("hex")}"`,
      );
      expect(Number(row?.n)).toBe(0);
    }
  });

  it("numbers one batch's documents in the order its messages were written, whatever their ids", async () => {
    // Recall reads a term's earliest matches by document id; an import's message ids are random.
    const user = await createUser();
    const w = word();
    const session = await db.chatSession.create({ data: { userId: user.id, title: "Order", lastSeq: 24 } });
    const at = Date.UTC(2026, 0, 1);
    const rows = await db.$transaction(async (tx) => {
      const out: ChatMessage[] = [];
      for (let seq = 1; seq <= 24; seq++) {
        out.push(
          await tx.chatMessage.create({
            data: {
              id: `c${randomUUID().replace(/-/g, "")}`,
              sessionId: session.id,
              seq,
              role: seq % 2 ? "user" : "assistant",
              text: `${w} message ${seq}`,
              createdAt: new Date(at + seq * 1000),
            },
          }),
        );
      }
      return out;
    });
    try {
      await db.$transaction((tx) =>
        indexMessages(
          {
            docs: rows.map((r) => ({ ...r, userId: user.id, role: r.role as "user" | "assistant" })),
            fresh: true,
          },
          { tx },
        ),
      );
      const docs = await db.searchDoc.findMany({
        where: { sessionId: session.id },
        orderBy: { id: "asc" },
        select: { message: { select: { seq: true } } },
      });
      expect(docs.map((d) => d.message.seq)).toEqual(rows.map((r) => r.seq));
    } finally {
      await unsafeDeleteSessionById({ sessionId: session.id, actorId: user.id });
    }
  });
});

type PgPlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PgPlanNode[];
};
const flatten = (node: PgPlanNode): PgPlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/** A long conversation written in bulk: `n` messages alternating user/assistant, one in 25 holding `w`. */
async function longConversation(userId: string, n: number, w: string, branchEvery = 0) {
  const session = await db.chatSession.create({ data: { userId, title: "Long", lastSeq: n } });
  const rows: ChatMessage[] = [];
  let parentId: string | null = null;
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const role: Role = i % 2 === 0 ? "user" : "assistant";
    const text = i % 25 === 0 ? `${w} note ${i}` : `filler ${i % 7} words ${role}`;
    // A branch: every `branchEvery` messages, this one is a sibling of the previous one (a replaced version).
    const sibling = branchEvery > 0 && i > 0 && i % branchEvery === 0;
    const parent: string | null = sibling ? (rows.at(-1)?.parentId ?? null) : parentId;
    rows.push({
      id,
      sessionId: session.id,
      seq: i + 1,
      parentId: parent,
      role,
      text,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    } as ChatMessage);
    parentId = id;
  }
  await db.chatMessage.createMany({
    data: rows.map(({ id, sessionId, seq, parentId, role, text, createdAt }) => ({
      id,
      sessionId,
      seq,
      parentId,
      role,
      text,
      createdAt,
    })),
  });
  await db.$transaction(
    (tx) =>
      indexMessages({ docs: rows.map((r) => ({ ...r, userId, role: r.role as Role })), fresh: true }, { tx }),
    BULK,
  );
  const last = rows.at(-1) as ChatMessage;
  await db.chatSession.update({
    where: { id: session.id },
    data: { activeLeafId: last.id, activeLeafSeq: last.seq },
  });
  return session;
}

describe(`recall candidates: what a recall reads (${kind})`, () => {
  it("reads ChatMessage only by key, in a one-path and in a branched conversation, with scope all", async () => {
    const user = await createUser();
    const w = word();
    // Long enough that reading the whole conversation is never the planner's cheapest choice (at 1 500 messages in
    // a small table, PostgreSQL sometimes preferred a prefix scan of the session to 30 key lookups), and longer than
    // the walk's bound (MAX_WALK, 4 000 steps), so that the walk alone never reads as much as a full scan.
    const n = 6000;
    const linear = await longConversation(user.id, n, w);
    const branched = await longConversation(user.id, n, w, 40);
    // Both in a project, so that scope all inside it (the project's conversation tokens) is read too.
    const project = await db.project.create({ data: { userId: user.id, name: "Long" } });
    await db.chatSession.updateMany({
      where: { id: { in: [linear.id, branched.id] } },
      data: { projectId: project.id },
    });
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: branched.id } })).forks).toBeGreaterThan(0);
    if (kind === "postgresql") await db.$executeRawUnsafe(`ANALYZE "ChatMessage"`);
    const { client, statements } = loggingClient(env.DATABASE_URL);
    try {
      for (const sessionId of [linear.id, branched.id]) {
        for (const [scope, projectId] of [
          ["conversation", null],
          ["all", null],
          ["all", project.id],
        ] as const) {
          statements.length = 0;
          const hits = await recallCandidates(
            { userId: user.id, sessionId, scope, projectId, question: `${w} note`, leafSeq: n, limit: 10 },
            { tx: client as unknown as Tx },
          );
          expect(hits.length).toBe(10);
          const reading = statements.filter((s) => s.query.includes("ChatMessage"));
          expect(reading.length).toBeGreaterThan(0);
          for (const { query, params } of reading) {
            if (kind === "sqlite") {
              const plan = await client.$queryRawUnsafe<{ detail: string }[]>(
                `EXPLAIN QUERY PLAN ${query}`,
                ...params,
              );
              if (process.env.SHOW_PLANS) console.log(plan.map((p) => p.detail).join(" / "));
              const scans = plan.map((p) => p.detail).filter((d) => /^SCAN (m|c|"?ChatMessage"?)\b/.test(d));
              expect(scans, query).toEqual([]);
            } else {
              const [row] = await client.$transaction(async (tx) => {
                await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
                return tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
                  `EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
                  ...params,
                );
              });
              const raw = row?.["QUERY PLAN"];
              const [top] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PgPlanNode }[];
              const reads = flatten(top?.Plan as PgPlanNode).filter(
                (n) => n["Relation Name"] === "ChatMessage",
              );
              for (const n of reads) expect(n["Node Type"], query).not.toBe("Seq Scan");
              const rows = reads.reduce(
                (sum, n) =>
                  sum +
                  (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1) +
                  (n["Rows Removed by Filter"] ?? 0),
                0,
              );
              // The pool, its neighbours, or the walked path: never the whole conversation.
              expect(rows, query).toBeLessThan(n);
            }
          }
        }
      }
    } finally {
      await client.$disconnect();
    }
  }, 60_000);
});
