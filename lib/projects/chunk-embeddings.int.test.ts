import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerIdOf, closeApps, contextOf, loadApp } from "@/lib/chat/test-helpers";
import { hashEmbedding } from "@/lib/search/hash-embedding";

// Project file chunks embedded when EMBEDDINGS_MODEL is set (docs/decisions/039-chunk-embeddings.md), with the
// offline model's deterministic embeddings: an upload starts the embedding job, a project conversation's recall
// fuses the nearest chunks with the lexical ones, and the vectors go with their file, project or user. On PostgreSQL
// without pgvector there are no vectors: recall says it is lexical only and still finds passages by their words.

afterEach(closeApps);

// The first run of the embedding job in a process is the backlog: every message and chunk of the shared test
// database without a vector, however many the other test files left there. It runs once here, with its own bound,
// so that each test below waits only for what its own upload added.
beforeAll(async () => {
  await loadApp({ EMBEDDINGS_MODEL: MODEL });
  const { embeddingsSettled, scheduleEmbeddings } = await import("@/lib/chat/embedding-job");
  scheduleEmbeddings();
  await embeddingsSettled();
}, 300_000);
afterAll(closeApps);

const MODEL = "recall-hash-test";

async function app() {
  const loaded = await loadApp({
    OFFLINE_MODEL: "scripted",
    MEMORY_MAX_MESSAGES: "2",
    EMBEDDINGS_MODEL: MODEL,
  });
  const { uploadProjectFile } = await import("@/lib/projects/upload");
  const { embeddingsSettled, embeddingsStatus } = await import("@/lib/chat/embedding-job");
  const { embedQuestion, vectorStore } = await import("@/lib/db/embeddings");
  const { deleteProjectFileForUser, recallProjectChunks } = await import("@/lib/db/project-files");
  const { deleteProjectForUser } = await import("@/lib/db/projects");
  const { shapeQuestion } = await import("@/lib/search/recall-rank");
  const { db } = loaded;
  const user = await db.user.create({
    data: { email: `ce-${randomUUID()}@example.test`, name: "Vectors", passwordHash: "unused" },
  });
  const project = await db.project.create({ data: { userId: user.id, name: "Team" } });
  const session = await db.chatSession.create({
    data: { userId: user.id, title: "In the project", projectId: project.id },
  });
  const ids = { userId: user.id, projectId: project.id, sessionId: session.id };

  async function upload(text: string, name: string) {
    const form = new FormData();
    form.append("file", new Blob([text]), name);
    const req = new Request(`http://127.0.0.1:3000/api/projects/${project.id}/files`, {
      method: "POST",
      body: form,
    });
    const file = await uploadProjectFile({ userId: user.id, projectId: project.id, req });
    await embeddingsSettled();
    return file;
  }
  /** The file passages the project's recall finds for `question`, lexically only or with its embedding. */
  async function passages(question: string, withEmbedding: boolean) {
    return recallProjectChunks({
      userId: user.id,
      projectId: project.id,
      question: shapeQuestion(question),
      embedding: withEmbedding ? await embedQuestion(question) : null,
      limit: 8,
    });
  }
  async function fileEntries(question: string) {
    const events = await loaded.turn(session.id, user.id, question);
    const { entries } = await contextOf(db, answerIdOf(events));
    return entries.filter((e) => e.source === "file") as unknown as { chunkId: number; fileName: string }[];
  }
  const vectorsOf = (where: { chunkId: { in: number[] } } | { projectId: string } | { userId: string }) =>
    db.projectChunkEmbedding.count({ where });
  const store = await vectorStore();
  return {
    ...loaded,
    ...ids,
    upload,
    passages,
    fileEntries,
    vectorsOf,
    store,
    embeddingsStatus,
    deleteProjectFileForUser,
    deleteProjectForUser,
  };
}

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i} is about the office plants and ${topic}.`).join("\n\n");
const STANDUP = "The standup happens at nine sharp in room Juniper, every weekday.";
const HANDBOOK = `# Team handbook\n\n## Plants\n\n${filler("coffee", 25)}\n\n## Standup\n\n${STANDUP}\n\n## Kitchen\n\n${filler("the kettle", 25)}`;
// No word of it is in the handbook (nor in recall's expansion groups): the index finds nothing. The offline
// embeddings hash "meeting" and "standup" to the same dimension with the same sign — the stand-in, deterministic,
// for a real model placing a paraphrase near what it paraphrases.
const PARAPHRASE = "When is our daily meeting?";

describe("project file chunk embeddings", () => {
  it("an upload embeds its chunks; a paraphrase the index misses is recalled by its embedding, with its file name", async () => {
    const a = await app();
    const file = await a.upload(HANDBOOK, "handbook.md");
    const chunks = await a.db.projectFileChunk.findMany({
      where: { fileId: file.id },
      orderBy: { id: "asc" },
    });
    expect(chunks.length).toBeGreaterThan(2);
    const target = chunks.find((c) => c.text.includes(STANDUP));
    const chunkIds = chunks.map((c) => c.id);

    if (a.store.kind === "none") {
      console.info(
        `PostgreSQL: pgvector is not available here, file recall is lexical only (${a.store.reason})`,
      );
      expect(await a.vectorsOf({ chunkId: { in: chunkIds } })).toBe(0);
      const status = await a.embeddingsStatus();
      expect(status.status === "unavailable" && status.reason).toMatch(/lexically only/);
      expect(await a.passages(PARAPHRASE, true)).toEqual([]);
      const entries = await a.fileEntries("When does the standup happen?");
      expect(entries.map((e) => [e.chunkId, e.fileName])).toContainEqual([target?.id, "handbook.md"]);
      return;
    }

    const stored = await a.db.projectChunkEmbedding.findMany({
      where: { chunkId: { in: chunkIds } },
      orderBy: { chunkId: "asc" },
    });
    expect(stored.map((e) => e.chunkId)).toEqual(chunkIds);
    expect(stored[0]).toMatchObject({ projectId: a.projectId, userId: a.userId, model: MODEL, dims: 256 });
    expect([...new Float32Array(new Uint8Array(stored[0]?.vector ?? []).buffer)][0]).toBeCloseTo(
      hashEmbedding(chunks[0]?.text ?? "")[0] as number,
      6,
    );

    expect(await a.passages(PARAPHRASE, false)).toEqual([]);
    const fused = await a.passages(PARAPHRASE, true);
    expect(fused.map((p) => [p.chunkId, p.fileName])).toEqual([[target?.id, "handbook.md"]]);

    const entries = await a.fileEntries(PARAPHRASE);
    expect(entries.map((e) => [e.chunkId, e.fileName])).toEqual([[target?.id, "handbook.md"]]);
  });

  it("deleting a file removes its vectors in the deleting transaction; so does deleting the project", async () => {
    const a = await app();
    const file = await a.upload(HANDBOOK, "handbook.md");
    const other = await a.upload(`${STANDUP}\n\nThe kettle is descaled on Fridays.`, "notes.txt");
    const chunkIds = (await a.db.projectFileChunk.findMany({ where: { fileId: file.id } })).map((c) => c.id);
    const embedded = a.store.kind === "none" ? 0 : chunkIds.length;
    expect(await a.vectorsOf({ chunkId: { in: chunkIds } })).toBe(embedded);

    // Inside a deleting transaction the vectors are already gone, and a deletion rolled back keeps them.
    const rollback = new Error("rollback");
    await expect(
      a.db.$transaction(async (tx) => {
        await tx.projectFile.delete({ where: { id: file.id } });
        expect(await tx.projectChunkEmbedding.count({ where: { chunkId: { in: chunkIds } } })).toBe(0);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await a.vectorsOf({ chunkId: { in: chunkIds } })).toBe(embedded);

    const receipt = await a.deleteProjectFileForUser({
      userId: a.userId,
      projectId: a.projectId,
      fileId: file.id,
    });
    expect(receipt.deleted).toEqual({ ProjectFile: 1, ProjectFileChunk: chunkIds.length });
    expect(await a.vectorsOf({ chunkId: { in: chunkIds } })).toBe(0);
    expect(await a.vectorsOf({ projectId: a.projectId })).toBe(
      a.store.kind === "none" ? 0 : other.chunkCount,
    );

    await a.deleteProjectForUser({ userId: a.userId, projectId: a.projectId, keep: true });
    expect(await a.vectorsOf({ projectId: a.projectId })).toBe(0);
    expect(await a.vectorsOf({ userId: a.userId })).toBe(0);
  });
});
