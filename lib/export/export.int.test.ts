import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerIdOf, closeApps, contextOf, loadApp } from "@/lib/chat/test-helpers";
import type { Db } from "@/lib/db/client";
import { expectConsoleError } from "@/test/console";
import type { ExportFile } from "./format";
import type { ImportResult } from "./import";

// Export and import through the route handlers, against the database of this run (SQLite or
// PostgreSQL): a conversation with two branches, a tool step, attachments and facts goes out and back in, and the
// second export equals the first but for ids; broken, refused and oversized files write nothing; nobody exports
// someone else's conversation.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
// The Markdown speaks the reader's language: the request's Accept-Language, with no locale cookie.
const language = { value: "en" };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined }),
  headers: async () => new Headers({ "accept-language": language.value }),
}));

afterEach(closeApps);

const BASE = "http://127.0.0.1:3000";

async function app(vars: Record<string, string> = {}) {
  const { db, turn } = await loadApp(vars);
  const { sessionClaims } = await import("@/lib/auth/session-token");
  const sessionExport = await import("@/app/api/sessions/[id]/export/route");
  const accountExport = await import("@/app/api/me/export/route");
  const importRoute = await import("@/app/api/import/route");
  const sessionsRoute = await import("@/app/api/sessions/route");
  const sessionRoute = await import("@/app/api/sessions/[id]/route");
  const { attachmentStore } = await import("@/lib/attachments/store");
  const { processImage } = await import("@/lib/attachments/image");
  const signIn = (userId: string) =>
    vi.mocked(sessionClaims).mockResolvedValue({ uid: userId, ver: 0, sid: null });

  async function exportSession(userId: string, sessionId: string, query = "") {
    signIn(userId);
    return sessionExport.GET(new Request(`${BASE}/api/sessions/${sessionId}/export${query}`), {
      params: Promise.resolve({ id: sessionId }),
    });
  }
  async function exportAccount(userId: string, query = ""): Promise<ExportFile> {
    signIn(userId);
    const res = await accountExport.GET(new Request(`${BASE}/api/me/export${query}`), {
      params: Promise.resolve({}),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="recall-export-\d{4}-\d\d-\d\d\.json"$/,
    );
    return JSON.parse(await res.text()) as ExportFile;
  }
  async function importFile(userId: string, body: string | Uint8Array) {
    signIn(userId);
    const res = await importRoute.POST(
      new Request(`${BASE}/api/import`, {
        method: "POST",
        headers: { origin: BASE, host: "127.0.0.1:3000", "content-type": "application/json" },
        body: typeof body === "string" ? body : new Uint8Array(body),
      }),
      { params: Promise.resolve({}) },
    );
    return { status: res.status, body: (await res.json()) as ImportBody };
  }
  /** GET /api/sessions and GET /api/sessions/:id as `userId`: the list, and one conversation's `session`. */
  async function listSessions(userId: string): Promise<SessionJson[]> {
    signIn(userId);
    const res = await sessionsRoute.GET(new Request(`${BASE}/api/sessions`), { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { sessions: SessionJson[] }).sessions;
  }
  async function getSession(userId: string, sessionId: string): Promise<SessionJson> {
    signIn(userId);
    const res = await sessionRoute.GET(new Request(`${BASE}/api/sessions/${sessionId}`), {
      params: Promise.resolve({ id: sessionId }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { session: SessionJson }).session;
  }
  const { databaseStore } = await import("@/lib/attachments/store");
  const { createProjectFile } = await import("@/lib/db/project-files");
  const { chunkText } = await import("@/lib/projects/chunk");
  const { env } = await import("@/lib/env");
  return {
    db,
    env,
    turn,
    createProjectFile,
    chunkText,
    exportSession,
    exportAccount,
    importFile,
    listSessions,
    getSession,
    store: attachmentStore(),
    databaseStore,
    processImage,
  };
}

type App = Awaited<ReturnType<typeof app>>;
/** What POST /api/import answers: `imported` on success, `error` otherwise. */
type ImportBody = { imported: ImportResult; error: { code: string; message: string; details: unknown } };
type SessionJson = { id: string; title: string; importedAt: string | null };

async function createUser(db: Db) {
  return db.user.create({ data: { email: `x-${randomUUID()}@example.test`, name: "X", passwordHash: "x" } });
}

/**
 * A conversation with two branches: the question m3 was edited into m7, and the first version (with a tool step) is
 * the active one. m1 carries an image, m7 a text file; a fact learned in m1 replaced an older one.
 */
async function buildConversation(a: App, userId: string) {
  const { db } = a;
  const session = await db.chatSession.create({
    data: {
      userId,
      title: "Trip plans ✈",
      titleByUser: true,
      memorySettings: { policy: "window", maxMessages: 5 },
      memoryStartSeq: 2,
      lastSeq: 8,
      createdAt: new Date("2026-01-02T10:00:00.000Z"),
    },
  });
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#4080c0" } })
    .png()
    .toBuffer();
  const image = await a.processImage(png, "png");
  const imageRow = await db.attachment.create({
    data: {
      userId,
      kind: "image",
      name: "map.png",
      mime: image.mime,
      bytes: image.data.byteLength,
      width: 40,
      height: 30,
    },
  });
  await a.store.put(imageRow.id, { data: image.data, thumbnail: image.thumbnail });
  const notes = "Day 1: temples\nDay 2: food\n";
  const textRow = await db.attachment.create({
    data: { userId, kind: "text", name: "notes.txt", mime: "text/plain", bytes: notes.length },
  });
  await a.store.put(textRow.id, { data: new TextEncoder().encode(notes), thumbnail: null });

  const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute));
  const ids: Record<string, string> = {};
  const add = async (key: string, seq: number, parent: string | null, data: Record<string, unknown>) => {
    const row = await db.chatMessage.create({
      data: {
        sessionId: session.id,
        seq,
        parentId: parent ? ids[parent] : null,
        role: "user",
        text: "",
        createdAt: at(seq),
        ...data,
      } as never,
    });
    ids[key] = row.id;
  };
  await add("m1", 1, null, {
    text: "Plan a trip to Kyoto",
    parts: {
      imageUrls: [`attachment:${imageRow.id}?w=40&h=30`],
      attachments: [
        {
          id: imageRow.id,
          kind: "image",
          name: "map.png",
          mime: image.mime,
          bytes: imageRow.bytes,
          width: 40,
          height: 30,
        },
      ],
    },
  });
  await add("m2", 2, "m1", {
    role: "assistant",
    text: "Kyoto is lovely.",
    model: "recall-offline",
    promptTokens: 12,
    completionTokens: 4,
  });
  await add("m3", 3, "m2", { text: "What about food?" });
  await add("m4", 4, "m3", {
    role: "assistant",
    parts: { toolCalls: [{ id: "call_1", name: "search_memories", arguments: '{"query":"food"}' }] },
    model: "recall-offline",
  });
  await add("m5", 5, "m4", { role: "tool", text: "No memories about food.", toolCallId: "call_1" });
  await add("m6", 6, "m5", {
    role: "assistant",
    text: "Try **yudofu** near Nanzen-ji.",
    model: "recall-offline",
  });
  await add("m7", 7, "m2", {
    text: "What about Osaka?",
    parts: {
      attachments: [
        {
          id: textRow.id,
          kind: "text",
          name: "notes.txt",
          mime: "text/plain",
          bytes: notes.length,
          text: notes,
        },
      ],
    },
  });
  await add("m8", 8, "m7", {
    role: "assistant",
    text: "Osaka has takoyaki",
    status: "interrupted",
    model: "recall-offline",
  });
  await db.attachment.update({ where: { id: imageRow.id }, data: { messageId: ids.m1 } });
  await db.attachment.update({ where: { id: textRow.id }, data: { messageId: ids.m7 } });
  await db.chatSession.update({ where: { id: session.id }, data: { activeLeafId: ids.m6 } });

  const newer = await db.memoryFact.create({
    data: {
      userId,
      text: "Plans a trip to Kyoto",
      subject: "trip",
      sourceSessionId: session.id,
      sourceMessageId: ids.m1 as string,
    },
  });
  await db.memoryFact.create({
    data: {
      userId,
      text: "Plans a trip to Paris",
      subject: "trip",
      sourceSessionId: session.id,
      sourceMessageId: ids.m1 as string,
      supersededById: newer.id,
      createdAt: new Date("2026-01-01T00:00:00.000Z"),
    },
  });
  return { sessionId: session.id, ids };
}

/** What must survive a round trip: the file without when it was made, the ids of the rows, and when it was imported. */
function comparable(file: ExportFile) {
  return {
    ...file,
    exportedAt: "-",
    conversations: file.conversations.map((c) => ({
      ...c,
      updatedAt: "-",
      attachments: c.attachments.map((x) => ({ ...x, sourceId: x.sourceId === null ? null : "-" })),
    })),
  };
}

async function ownedRows(db: Db, userId: string) {
  return {
    sessions: await db.chatSession.count({ where: { userId } }),
    messages: await db.chatMessage.count({ where: { session: { userId } } }),
    attachments: await db.attachment.count({ where: { userId } }),
    facts: await db.memoryFact.count({ where: { userId } }),
    projects: await db.project.count({ where: { userId } }),
    projectFiles: await db.projectFile.count({ where: { userId } }),
    projectChunks: await db.projectFileChunk.count({ where: { userId } }),
    imports: await db.auditLog.count({ where: { actorId: userId, action: "data.import" } }),
  };
}

describe("export and import", () => {
  it("round-trips an account with its files inline: the second export equals the first but for ids", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    await buildConversation(a, alice.id);
    const first = await a.exportAccount(alice.id, "?attachments=inline");
    expect(first.conversations).toHaveLength(1);
    const [c] = first.conversations;
    expect(c?.messages.map((m) => [m.localId, m.parentLocalId])).toEqual([
      ["m1", null],
      ["m2", "m1"],
      ["m3", "m2"],
      ["m4", "m3"],
      ["m5", "m4"],
      ["m6", "m5"],
      ["m7", "m2"],
      ["m8", "m7"],
    ]);
    expect(c?.activeLeafLocalId).toBe("m6");
    expect(c?.attachments.map((x) => [x.localId, x.name, x.messageLocalId, typeof x.data])).toEqual([
      ["a1", "map.png", "m1", "string"],
      ["a2", "notes.txt", "m7", "string"],
    ]);
    expect(c?.messages[0]?.parts?.imageUrls).toEqual(["attachment:a1?w=40&h=30"]);
    expect(first.longTermMemory?.facts.map((f) => [f.text, f.messageLocalId, f.supersededByLocalId])).toEqual(
      [
        ["Plans a trip to Paris", "m1", "f2"],
        ["Plans a trip to Kyoto", "m1", null],
      ],
    );

    const imported = await a.importFile(bob.id, JSON.stringify(first));
    expect(imported.status).toBe(201);
    expect(imported.body.imported.counts).toEqual({
      conversations: 1,
      messages: 8,
      attachments: 2,
      attachmentsMissing: 0,
      facts: 2,
      projects: 0,
      projectFiles: 0,
    });
    const newId = imported.body.imported.conversations[0]?.id as string;
    const session = await a.db.chatSession.findUniqueOrThrow({ where: { id: newId } });
    expect(session).toMatchObject({ userId: bob.id, lastSeq: 8, memoryStartSeq: 2, titleByUser: true });
    const leaf = await a.db.chatMessage.findUniqueOrThrow({ where: { id: session.activeLeafId as string } });
    expect(leaf.seq).toBe(6);
    expect(session.activeLeafSeq).toBe(6);
    expect(await a.db.memorySnapshot.count({ where: { sessionId: newId } })).toBe(0);
    // The imported image is a real attachment of Bob's, with its file.
    const image = await a.db.attachment.findFirstOrThrow({ where: { userId: bob.id, kind: "image" } });
    expect(await a.store.get(image.id)).not.toBeNull();
    const m1 = await a.db.chatMessage.findFirstOrThrow({ where: { sessionId: newId, seq: 1 } });
    expect(m1.parts).toMatchObject({ imageUrls: [`attachment:${image.id}?w=40&h=30`] });

    // Imported messages are found by search, in Bob's account only.
    const { searchMessagesForUser } = await import("@/lib/db/search");
    const found = await searchMessagesForUser({ userId: bob.id, q: "yudofu" }, { tx: a.db });
    expect(found.results.map((r) => r.sessionId)).toEqual([newId]);

    const second = await a.exportAccount(bob.id, "?attachments=inline");
    expect(comparable(second)).toEqual(comparable(first));
    const audit = await a.db.auditLog.findFirstOrThrow({ where: { actorId: bob.id, action: "data.import" } });
    expect(audit.details).toEqual(imported.body.imported.counts);
  });

  it("imports references into the same account by copying its files, and keeps names only elsewhere", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    const { sessionId } = await buildConversation(a, alice.id);
    const res = await a.exportSession(alice.id, sessionId, "?format=json&all=1");
    expect(res.status).toBe(200);
    const file = JSON.parse(await res.text()) as ExportFile;
    expect(file.attachments).toBe("reference");
    expect(file.conversations[0]?.attachments.every((x) => x.data === undefined && x.sourceId !== null)).toBe(
      true,
    );

    const mine = await a.importFile(alice.id, JSON.stringify(file));
    expect(mine.status).toBe(201);
    expect(mine.body.imported.counts).toMatchObject({ attachments: 2, attachmentsMissing: 0 });
    const copy = mine.body.imported.conversations[0]?.id as string;
    const again = JSON.parse(
      await (await a.exportSession(alice.id, copy, "?format=json&all=1")).text(),
    ) as ExportFile;
    expect(comparable(again)).toEqual(comparable(file));

    const theirs = await a.importFile(bob.id, JSON.stringify(file));
    expect(theirs.status).toBe(201);
    expect(theirs.body.imported.counts).toMatchObject({ attachments: 0, attachmentsMissing: 2 });
    expect(await a.db.attachment.count({ where: { userId: bob.id } })).toBe(0);
    const bobs = theirs.body.imported.conversations[0]?.id as string;
    const m7 = await a.db.chatMessage.findFirstOrThrow({ where: { sessionId: bobs, seq: 7 } });
    // The text file's content travels in the message; its name stays, pointing at no file of anyone's.
    expect(m7.parts).toMatchObject({
      attachments: [{ name: "notes.txt", id: "missing-2", text: expect.stringContaining("Day 2") }],
    });
  });

  it("marks the imported copy with importedAt, in the list and the conversation; the original has none", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const { sessionId } = await buildConversation(a, alice.id);
    const file = await (await a.exportSession(alice.id, sessionId, "?format=json&all=1")).text();
    const before = Date.now();
    const imported = await a.importFile(alice.id, file);
    expect(imported.status).toBe(201);
    const copy = imported.body.imported.conversations[0]?.id as string;

    const listed = new Map((await a.listSessions(alice.id)).map((s) => [s.id, s]));
    expect(listed.get(sessionId)?.importedAt).toBeNull();
    const at = listed.get(copy)?.importedAt;
    expect(typeof at).toBe("string");
    expect(Date.parse(at as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(at as string)).toBeLessThanOrEqual(Date.now());
    expect((await a.getSession(alice.id, copy)).importedAt).toBe(at);
    expect((await a.getSession(alice.id, sessionId)).importedAt).toBeNull();
    // Both carry the same title: the mark is what tells them apart.
    expect(listed.get(copy)?.title).toBe(listed.get(sessionId)?.title);
  });

  it("leaves temporary chats out of an account export", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const { sessionId } = await buildConversation(a, alice.id);
    const temporary = await a.db.chatSession.create({
      data: { userId: alice.id, title: "Just between us", temporary: true, lastSeq: 1 },
    });
    await a.db.chatMessage.create({
      data: { sessionId: temporary.id, seq: 1, role: "user", text: "a temporary question" },
    });
    const file = await a.exportAccount(alice.id);
    expect(file.conversations.map((c) => c.title)).toEqual([
      (await a.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } })).title,
    ]);
    expect(JSON.stringify(file)).not.toContain("a temporary question");
  });

  it("exports the active branch as Markdown and JSON; someone else's conversation is a 404", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    const { sessionId } = await buildConversation(a, alice.id);

    const md = await a.exportSession(alice.id, sessionId, "?format=md");
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("content-disposition")).toMatch(
      /^attachment; filename="recall-trip-plans-\d{4}-\d\d-\d\d\.md"; filename\*=UTF-8''Trip%20plans%20%E2%9C%88/,
    );
    const text = await md.text();
    expect(text).toContain("# Trip plans ✈");
    expect(text).toContain("Try **yudofu** near Nanzen-ji.");
    expect(text).toContain('`search_memories` `{"query":"food"}` → No memories about food.');
    expect(text).toContain("[map.png](http://127.0.0.1:3000/api/attachments/");
    expect(text).not.toContain("Osaka");

    const path = JSON.parse(
      await (await a.exportSession(alice.id, sessionId, "?format=json")).text(),
    ) as ExportFile;
    expect(path.conversations[0]?.branches).toBe("path");
    expect(path.conversations[0]?.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(path.conversations[0]?.attachments.map((x) => x.name)).toEqual(["map.png"]);

    for (const query of ["?format=md", "?format=json&all=1"]) {
      const res = await a.exportSession(bob.id, sessionId, query);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Trip");
    }
    expect((await a.exportAccount(bob.id)).conversations).toEqual([]);
    expect((await a.exportSession(alice.id, sessionId, "?format=pdf")).status).toBe(400);

    language.value = "zh-CN";
    try {
      const zh = await (await a.exportSession(alice.id, sessionId, "?format=md")).text();
      expect(zh).toContain("### 你 · 2026-01-02 10:01 UTC");
      expect(zh).toContain("### 助手 · recall-offline · 2026-01-02 10:06 UTC");
    } finally {
      language.value = "en";
    }
  });

  it("writes nothing for a broken file, a refused attachment or another version", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    await buildConversation(a, alice.id);
    const file = await a.exportAccount(alice.id, "?attachments=inline");
    const before = await ownedRows(a.db, bob.id);

    const orphan = structuredClone(file);
    (orphan.conversations[0]?.messages[3] as { parentLocalId: string }).parentLocalId = "m99";
    const broken = await a.importFile(bob.id, JSON.stringify(orphan));
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe("validation_failed");
    expect(broken.body.error.details).toContainEqual({
      path: "conversations.0.messages.3.parentLocalId",
      message: "no message m99 here",
    });

    const html = structuredClone(file);
    (html.conversations[0]?.attachments[1] as { data: string }).data =
      Buffer.from("<html><script>x</script>").toString("base64");
    const refused = await a.importFile(bob.id, JSON.stringify(html));
    expect(refused.status).toBe(415);
    expect(refused.body.error.details).toEqual({ path: "conversations.0.attachments.1" });

    const v2 = await a.importFile(bob.id, JSON.stringify({ ...file, version: 2 }));
    expect(v2.status).toBe(422);
    expect(v2.body.error.message).toContain("version 2");

    const settings = structuredClone(file);
    (settings.conversations[0] as { memorySettings: object }).memorySettings = { policy: "everything" };
    expect((await a.importFile(bob.id, JSON.stringify(settings))).status).toBe(422);
    expect((await a.importFile(bob.id, "{not json")).status).toBe(400);

    // A fact naming a message its conversation does not have.
    const fact = structuredClone(file);
    (fact.longTermMemory?.facts[1] as { messageLocalId: string }).messageLocalId = "m42";
    expect((await a.importFile(bob.id, JSON.stringify(fact))).status).toBe(422);

    // Two facts that replace each other: a delete would walk the loop.
    const loop = structuredClone(file);
    const [f0, f1] = loop.longTermMemory?.facts ?? [];
    if (!f0 || !f1) throw new Error("facts missing");
    f0.supersededByLocalId = f1.localId;
    f1.supersededByLocalId = f0.localId;
    const looped = await a.importFile(bob.id, JSON.stringify(loop));
    expect(looped.status).toBe(422);
    expect(looped.body.error.details).toEqual([
      {
        path: "longTermMemory.facts.0.supersededByLocalId",
        message: `the facts ${f0.localId} → ${f1.localId} → ${f0.localId} replace each other in a loop`,
      },
    ]);

    // The limit of an edited fact holds for an imported one.
    const long = structuredClone(file);
    (long.longTermMemory?.facts[0] as { text: string }).text = "x".repeat(3030);
    const tooLong = await a.importFile(bob.id, JSON.stringify(long));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.details).toContainEqual({
      path: "longTermMemory.facts.0.text",
      message: "A memory can have at most 500 characters.",
    });

    // And a question the limit of a typed one.
    const question = structuredClone(file);
    const qi = question.conversations[0]?.messages.findIndex((m) => m.role === "user") ?? -1;
    (question.conversations[0]?.messages[qi] as { text: string }).text = "q".repeat(8001);
    const longQuestion = await a.importFile(bob.id, JSON.stringify(question));
    expect(longQuestion.status).toBe(422);
    expect(longQuestion.body.error.details).toContainEqual({
      path: `conversations.0.messages.${qi}.text`,
      message: "A message can have at most 8000 characters.",
    });

    expect(await ownedRows(a.db, bob.id)).toEqual(before);
  });

  it("takes the conversations back when a file cannot be stored after the rows were written", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    await buildConversation(a, alice.id);
    const file = JSON.stringify(await a.exportAccount(alice.id, "?attachments=inline"));
    const before = await ownedRows(a.db, bob.id);
    const put = vi.spyOn(a.databaseStore, "put");
    put.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error("disk full"));
    expectConsoleError(/disk full/);
    const failed = await a.importFile(bob.id, file);
    put.mockRestore();
    expect(failed.status).toBe(500);
    const after = await ownedRows(a.db, bob.id);
    // The audit entry stays (it records the attempt); every row the import wrote is gone.
    expect({ ...after, imports: before.imports }).toEqual(before);
    expect(await a.db.attachmentBlob.count({ where: { attachment: { userId: bob.id } } })).toBe(0);
  });

  it("allows a limited number of imports an hour", async () => {
    const a = await app();
    const { MAX_IMPORTS_PER_HOUR } = await import("./import");
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    await buildConversation(a, alice.id);
    const file = JSON.stringify(await a.exportAccount(alice.id));
    await a.db.auditLog.createMany({
      data: Array.from({ length: MAX_IMPORTS_PER_HOUR }, () => ({
        actorId: bob.id,
        action: "data.import",
        targetType: "User",
        targetId: bob.id,
        details: {},
      })),
    });
    const limited = await a.importFile(bob.id, file);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(await a.db.chatSession.count({ where: { userId: bob.id } })).toBe(0);
  });

  it("refuses a file over MAX_IMPORT_BYTES with 413 and writes nothing; the same file fits the default", async () => {
    const setup = await app();
    const alice = await createUser(setup.db);
    const bob = await createUser(setup.db);
    await buildConversation(setup, alice.id);
    const body = JSON.stringify(await setup.exportAccount(alice.id));
    const size = Buffer.byteLength(body);
    await closeApps();

    const small = await app({ MAX_IMPORT_BYTES: String(size - 1) });
    const refused = await small.importFile(bob.id, body);
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: "payload_too_large", details: { maxBytes: size - 1 } });
    expect(await small.db.chatSession.count({ where: { userId: bob.id } })).toBe(0);
    await closeApps();

    const fits = await app({ MAX_IMPORT_BYTES: String(size) });
    expect((await fits.importFile(bob.id, body)).status).toBe(201);
    expect(await fits.db.chatSession.count({ where: { userId: bob.id } })).toBe(1);
  });
});

/**
 * Alice's trip conversation moved into a project "Client A" (instructions, two files, pinned), an empty project, an
 * archived conversation outside any project, and a fact of the project. `code` is a word only the handbook holds.
 */
async function buildProjects(a: App, userId: string, sessionId: string, m1: string, code: string) {
  const { db } = a;
  const project = await db.project.create({
    data: {
      userId,
      name: "Client A",
      instructions: "Answer as the client's counsel.",
      createdAt: new Date("2026-01-01T09:00:00.000Z"),
      updatedAt: new Date("2026-01-03T09:00:00.000Z"),
    },
  });
  await db.project.create({
    data: { userId, name: "Empty", createdAt: new Date("2026-01-01T09:30:00.000Z") },
  });
  const filler = (n: number) =>
    Array.from({ length: n }, (_, i) => `Paragraph ${i} is about the office plants and coffee.`).join("\n\n");
  const handbook = `# Handbook\n\n${filler(30)}\n\n## Access\n\nThe server room badge code is ${code}.\n\n${filler(30)}`;
  await a.createProjectFile({
    userId,
    projectId: project.id,
    name: "handbook.md",
    mime: "text/markdown",
    bytes: handbook.length,
    chunks: a.chunkText(handbook, "markdown"),
  });
  await a.createProjectFile({
    userId,
    projectId: project.id,
    name: "brief.txt",
    mime: "text/plain",
    bytes: 30,
    chunks: ["The client prefers short letters."],
  });
  const pinnedAt = new Date("2026-01-04T08:00:00.000Z");
  await db.chatSession.update({ where: { id: sessionId }, data: { projectId: project.id, pinnedAt } });
  const archivedAt = new Date("2026-01-05T08:00:00.000Z");
  await db.chatSession.create({
    data: { userId, title: "Old notes", archivedAt, createdAt: new Date("2026-01-03T00:00:00.000Z") },
  });
  await db.memoryFact.create({
    data: {
      userId,
      text: "The client is Acme",
      subject: "client",
      sourceSessionId: sessionId,
      sourceMessageId: m1,
      projectId: project.id,
      createdAt: new Date("2026-01-02T11:00:00.000Z"),
    },
  });
  return { projectId: project.id, pinnedAt, archivedAt };
}

/** How many FTS5 rows (SQLite) or indexed chunks (PostgreSQL) the project has. */
async function indexRowsOf({ db, env }: App, projectId: string): Promise<number> {
  if (env.DATABASE_URL.startsWith("file:")) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT COUNT(*) AS n FROM "ProjectChunkFts" WHERE "ProjectChunkFts" MATCH ?`,
      `proj : "p${Buffer.from(projectId).toString("hex")}"`,
    );
    return Number(row?.n);
  }
  const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT COUNT(*) AS n FROM "ProjectFileChunk" WHERE "projectId" = $1 AND "terms" IS NOT NULL`,
    projectId,
  );
  return Number(row?.n);
}

const codeWord = () => `zq${randomUUID().replace(/-/g, "").slice(0, 10)}`;

describe("projects in export and import", () => {
  it("round-trips projects, instructions, indexed files, placement, pins, archive and fact projects", async () => {
    const a = await app({ OFFLINE_MODEL: "scripted" });
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    const { sessionId, ids } = await buildConversation(a, alice.id);
    const code = codeWord();
    const { projectId, pinnedAt, archivedAt } = await buildProjects(
      a,
      alice.id,
      sessionId,
      ids.m1 as string,
      code,
    );
    const chunks = await a.db.projectFileChunk.count({ where: { projectId } });

    const first = await a.exportAccount(alice.id, "?attachments=inline");
    expect(
      first.projects?.map((p) => [
        p.localId,
        p.name,
        p.instructions,
        p.files.map((f) => [f.localId, f.name, f.mime, f.chunks.map((c) => c.position).join(",")]),
      ]),
    ).toEqual([
      [
        "p1",
        "Client A",
        "Answer as the client's counsel.",
        [
          [
            "pf1",
            "handbook.md",
            "text/markdown",
            Array.from({ length: chunks - 1 }, (_, i) => i + 1).join(","),
          ],
          ["pf2", "brief.txt", "text/plain", "1"],
        ],
      ],
      ["p2", "Empty", "", []],
    ]);
    expect(first.projects?.[0]?.files[0]?.chunks.some((c) => c.text.includes(code))).toBe(true);
    expect(first.conversations.map((c) => [c.title, c.projectLocalId, c.pinnedAt, c.archivedAt])).toEqual([
      ["Trip plans ✈", "p1", pinnedAt.toISOString(), null],
      ["Old notes", null, null, archivedAt.toISOString()],
    ]);
    expect(first.longTermMemory?.facts.map((f) => [f.text, f.projectLocalId])).toEqual([
      ["Plans a trip to Paris", null],
      ["The client is Acme", "p1"],
      ["Plans a trip to Kyoto", null],
    ]);

    const imported = await a.importFile(bob.id, JSON.stringify(first));
    expect(imported.status).toBe(201);
    expect(imported.body.imported.counts).toEqual({
      conversations: 2,
      messages: 8,
      attachments: 2,
      attachmentsMissing: 0,
      facts: 3,
      projects: 2,
      projectFiles: 2,
    });
    const audit = await a.db.auditLog.findFirstOrThrow({ where: { actorId: bob.id, action: "data.import" } });
    expect(audit.details).toEqual(imported.body.imported.counts);

    // New projects of Bob's, with new ids; Alice's are untouched.
    const projects = await a.db.project.findMany({
      where: { userId: bob.id },
      orderBy: { createdAt: "asc" },
    });
    expect(projects.map((p) => [p.name, p.instructions])).toEqual([
      ["Client A", "Answer as the client's counsel."],
      ["Empty", ""],
    ]);
    const client = projects[0]?.id as string;
    expect(client).not.toBe(projectId);
    expect(await a.db.project.count({ where: { userId: alice.id } })).toBe(2);
    const files = await a.db.projectFile.findMany({
      where: { projectId: client },
      orderBy: { createdAt: "asc" },
    });
    expect(files.map((f) => [f.userId, f.name, f.chunkCount])).toEqual([
      [bob.id, "handbook.md", chunks - 1],
      [bob.id, "brief.txt", 1],
    ]);
    // Every passage is in the search index, as after an upload.
    expect(await a.db.projectFileChunk.count({ where: { projectId: client, userId: bob.id } })).toBe(chunks);
    expect(await indexRowsOf(a, client)).toBe(chunks);

    const [trip, old] = imported.body.imported.conversations.map((c) => c.id) as [string, string];
    expect(await a.db.chatSession.findUniqueOrThrow({ where: { id: trip } })).toMatchObject({
      projectId: client,
      pinnedAt,
      archivedAt: null,
    });
    expect(await a.db.chatSession.findUniqueOrThrow({ where: { id: old } })).toMatchObject({
      projectId: null,
      pinnedAt: null,
      archivedAt,
    });
    const facts = await a.db.memoryFact.findMany({
      where: { userId: bob.id },
      orderBy: { createdAt: "asc" },
    });
    expect(facts.map((f) => [f.text, f.projectId])).toEqual([
      ["Plans a trip to Paris", null],
      ["The client is Acme", client],
      ["Plans a trip to Kyoto", null],
    ]);

    // Exported again, Bob's account is Alice's but for ids.
    const second = await a.exportAccount(bob.id, "?attachments=inline");
    expect(comparable(second)).toEqual(comparable(first));

    // A turn in the imported conversation gets the project's instructions and recalls the handbook's passage.
    const events = await a.turn(trip, bob.id, `What is the server room badge code ${code}?`);
    const { entries } = await contextOf(a.db, answerIdOf(events));
    expect(entries).toContainEqual(expect.objectContaining({ source: "instructions", scope: "project" }));
    const passages = entries.filter((e) => e.source === "file") as unknown as {
      fileId: string;
      fileName: string;
      preview: string;
    }[];
    const hit = passages.find((e) => e.preview.includes(code));
    expect(hit).toMatchObject({ fileId: files[0]?.id, fileName: "handbook.md" });
  });

  it("imports an older file without projects, and places a fact without its project by its conversation", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    const { sessionId, ids } = await buildConversation(a, alice.id);
    await buildProjects(a, alice.id, sessionId, ids.m1 as string, codeWord());
    const file = await a.exportAccount(alice.id);

    // As a file written before projects: none of the new fields.
    const older = structuredClone(file) as Partial<ExportFile> & ExportFile;
    delete older.projects;
    for (const c of older.conversations) {
      delete c.projectLocalId;
      delete c.pinnedAt;
      delete c.archivedAt;
    }
    for (const f of older.longTermMemory?.facts ?? []) delete f.projectLocalId;
    const plain = await a.importFile(bob.id, JSON.stringify(older));
    expect(plain.status).toBe(201);
    expect(plain.body.imported.counts).toMatchObject({
      conversations: 2,
      facts: 3,
      projects: 0,
      projectFiles: 0,
    });
    expect(await a.db.project.count({ where: { userId: bob.id } })).toBe(0);
    const sessions = await a.db.chatSession.findMany({ where: { userId: bob.id } });
    expect(sessions.map((s) => [s.projectId, s.pinnedAt, s.archivedAt])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(await a.db.memoryFact.count({ where: { userId: bob.id, projectId: { not: null } } })).toBe(0);

    // Projects present, a fact's project absent: it takes its conversation's, as a fact learned there does.
    const carol = await createUser(a.db);
    const partial = structuredClone(file);
    for (const f of partial.longTermMemory?.facts ?? []) delete f.projectLocalId;
    const placed = await a.importFile(carol.id, JSON.stringify(partial));
    expect(placed.status).toBe(201);
    const client = await a.db.project.findFirstOrThrow({ where: { userId: carol.id, name: "Client A" } });
    const facts = await a.db.memoryFact.findMany({ where: { userId: carol.id } });
    expect(facts.map((f) => f.projectId)).toEqual([client.id, client.id, client.id]);
  });

  it("refuses a project reference that does not resolve, or more projects than the limit, and writes nothing", async () => {
    const a = await app();
    const alice = await createUser(a.db);
    const bob = await createUser(a.db);
    const { sessionId, ids } = await buildConversation(a, alice.id);
    await buildProjects(a, alice.id, sessionId, ids.m1 as string, codeWord());
    const file = await a.exportAccount(alice.id);
    const before = await ownedRows(a.db, bob.id);

    const dangling = structuredClone(file);
    (dangling.conversations[0] as { projectLocalId: string }).projectLocalId = "p9";
    (dangling.longTermMemory?.facts[2] as { projectLocalId: string }).projectLocalId = "p7";
    const refused = await a.importFile(bob.id, JSON.stringify(dangling));
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("validation_failed");
    expect(refused.body.error.message).toContain("conversations.0.projectLocalId: no project p9 here");
    expect(refused.body.error.details).toEqual([
      { path: "conversations.0.projectLocalId", message: "no project p9 here" },
      { path: "longTermMemory.facts.2.projectLocalId", message: "no project p7 here" },
    ]);

    const shuffled = structuredClone(file);
    (shuffled.projects?.[0]?.files[0]?.chunks[0] as { position: number }).position = 2;
    const order = await a.importFile(bob.id, JSON.stringify(shuffled));
    expect(order.status).toBe(422);
    expect(order.body.error.details).toContainEqual({
      path: "projects.0.files.0.chunks.0.position",
      message: "must be 1: passages are numbered 1, 2, 3… in order",
    });
    expect(await ownedRows(a.db, bob.id)).toEqual(before);

    // Bob already has 499 projects: two more do not fit, and nothing of the file is written.
    const { MAX_PROJECTS } = await import("@/lib/projects/limits");
    await a.db.project.createMany({
      data: Array.from({ length: MAX_PROJECTS - 1 }, (_, i) => ({ userId: bob.id, name: `P${i}` })),
    });
    const full = await ownedRows(a.db, bob.id);
    const over = await a.importFile(bob.id, JSON.stringify(file));
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({
      code: "validation_failed",
      message: `This file has 2 projects and you have ${MAX_PROJECTS - 1}; an account can have at most ${MAX_PROJECTS}.`,
      details: [{ path: "projects", message: "at most 1 more projects fit" }],
    });
    expect(await ownedRows(a.db, bob.id)).toEqual(full);
  });
});
