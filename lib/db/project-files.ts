import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { MAX_FILES_PER_PROJECT } from "@/lib/projects/limits";
import { fuse, type LexicalCandidate, type QuestionShape, rankCandidates } from "@/lib/search/recall-rank";
import { ftsString, indexTerms, pgLexeme, pgTermsVector } from "@/lib/search/terms";
import { checkpointed } from "./checkpoint";
import { databaseKind, db, type Tx, type TxOption } from "./client";
import { nearestChunks, type QuestionVector } from "./embeddings";
import { CASCADE_DELETE_TIMEOUT_MS, withTransaction } from "./transaction";

// A project's files (issue 24 item 2, docs/decisions/037-project-files.md): only their text is kept, cut into
// chunks at upload and indexed with the search index's tokenizer in the database's own engine — SQLite the FTS5 table
// ProjectChunkFts (a project token and the terms), PostgreSQL the chunk's `terms` tsvector (the terms and a project
// lexeme) with a GIN index — and, when EMBEDDINGS_MODEL is set, embedded after the upload (ProjectChunkEmbedding,
// docs/decisions/039-chunk-embeddings.md). A chunk goes with its file through the foreign key (its FTS5 row through a
// trigger, its embedding through its own foreign key), in the deleting transaction. Every query names the user: someone else's project reads like a missing one.
// No `import "server-only"`: lib/db/recall.ts's callers include the bench scripts.

type Client = typeof db | Tx;

export interface ProjectFileView {
  id: string;
  projectId: string;
  name: string;
  mime: string;
  bytes: number;
  chunkCount: number;
  createdAt: Date;
}

const fileSelect = {
  id: true,
  projectId: true,
  name: true,
  mime: true,
  bytes: true,
  chunkCount: true,
  createdAt: true,
} as const;

/** Chunk rows written per statement. */
const BATCH = 200;

const projectNotFound = () => new AppError("not_found", "This project does not exist or is not yours.");
const fileNotFound = () => new AppError("not_found", "This file does not exist or is not in this project.");

/** The index's token for a project: 'p' and the hex of its id (a plain ASCII term whatever the id holds). */
function projectToken(projectId: string): string {
  return `p${Buffer.from(projectId, "utf8").toString("hex")}`;
}

/** The project lexeme of a chunk's tsvector: '@' never occurs in a term, so no question word can match it. */
function pgProjectLexeme(projectId: string): string {
  return pgLexeme(`@${projectToken(projectId)}`);
}

async function assertProjectOfUser(client: Client, projectId: string, userId: string): Promise<void> {
  const row = await client.project.findFirst({ where: { id: projectId, userId }, select: { id: true } });
  if (!row) throw projectNotFound();
}

/**
 * Stores one file of the user's project with its chunks (cut by the caller, in order) and indexes them, in one
 * transaction: a file is there with all of its chunks searchable, or not at all.
 */
export async function createProjectFile(file: NewProjectFile): Promise<ProjectFileView> {
  return withTransaction((tx) => insertProjectFile(file, { tx }), { timeout: CASCADE_DELETE_TIMEOUT_MS });
}

export interface NewProjectFile {
  userId: string;
  projectId: string;
  name: string;
  mime: string;
  bytes: number;
  chunks: readonly string[];
  /** When it was added (absent: now); an import keeps the exported file's. */
  createdAt?: Date;
}

/**
 * One file and its indexed chunks inside the caller's transaction — what an upload writes (createProjectFile) and
 * what an import writes for each file of a project it creates (lib/export/import.ts): the same rows, the same index.
 */
export async function insertProjectFile(
  { userId, projectId, name, mime, bytes, chunks, createdAt }: NewProjectFile,
  { tx }: { tx: Tx },
): Promise<ProjectFileView> {
  await assertProjectOfUser(tx, projectId, userId);
  const count = await tx.projectFile.count({ where: { projectId } });
  if (count >= MAX_FILES_PER_PROJECT) {
    throw new AppError(
      "validation_failed",
      `A project can hold at most ${MAX_FILES_PER_PROJECT} files. Delete one before adding another.`,
      { details: { maxFiles: MAX_FILES_PER_PROJECT } },
    );
  }
  const file = await tx.projectFile.create({
    data: {
      projectId,
      userId,
      name,
      mime,
      bytes,
      chunkCount: chunks.length,
      ...(createdAt ? { createdAt } : {}),
    },
    select: fileSelect,
  });
  for (let from = 0; from < chunks.length; from += BATCH) {
    const rows = await tx.projectFileChunk.createManyAndReturn({
      data: chunks.slice(from, from + BATCH).map((text, i) => ({
        fileId: file.id,
        projectId,
        userId,
        position: from + i + 1,
        text,
      })),
      select: { id: true, text: true },
    });
    await indexChunks(tx, projectId, rows);
  }
  return file;
}

/** The terms of new chunks: FTS5 rows keyed by the chunk's id, or the chunk's own tsvector. */
async function indexChunks(tx: Tx, projectId: string, rows: { id: number; text: string }[]): Promise<void> {
  const cut = rows.map((r) => ({ id: r.id, terms: indexTerms(r.text) })).filter((r) => r.terms.length > 0);
  if (cut.length === 0) return;
  if (databaseKind(env.DATABASE_URL) === "sqlite") {
    await tx.$executeRawUnsafe(
      `INSERT INTO "ProjectChunkFts" (rowid, proj, body) VALUES ${cut.map(() => "(?, ?, ?)").join(", ")}`,
      ...cut.flatMap((r) => [r.id, projectToken(projectId), r.terms.join(" ")]),
    );
    return;
  }
  await tx.$executeRawUnsafe(
    `UPDATE "ProjectFileChunk" c SET "terms" = v.terms::tsvector
     FROM (VALUES ${cut.map((_, i) => `($${2 * i + 1}::int, $${2 * i + 2})`).join(", ")}) AS v(id, terms)
     WHERE c."id" = v.id`,
    // The owner slot of the vector holds the project token: chunks are matched by project, never by user.
    ...cut.flatMap((r) => [r.id, pgTermsVector(r.terms, projectToken(projectId))]),
  );
}

/** How many files one of the user's projects holds (404 when the project is not theirs). */
export async function countFilesOfProjectForUser(
  { userId, projectId }: { userId: string; projectId: string },
  { tx = db }: TxOption = {},
): Promise<number> {
  await assertProjectOfUser(tx, projectId, userId);
  return tx.projectFile.count({ where: { projectId, userId } });
}

/** The files of one of the user's projects, newest first (404 when the project is not theirs). */
export async function listProjectFilesForUser(
  { userId, projectId }: { userId: string; projectId: string },
  { tx = db }: TxOption = {},
): Promise<ProjectFileView[]> {
  await assertProjectOfUser(tx, projectId, userId);
  return tx.projectFile.findMany({
    where: { projectId, userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MAX_FILES_PER_PROJECT,
    select: fileSelect,
  });
}

export interface ProjectFileDeletionReceipt {
  fileId: string;
  deleted: { ProjectFile: number; ProjectFileChunk: number };
}

/**
 * Deletes one file of the user's project with its chunks and their index rows, in one transaction (404 when the
 * file is not in that project of theirs).
 */
export async function deleteProjectFileForUser({
  userId,
  projectId,
  fileId,
}: {
  userId: string;
  projectId: string;
  fileId: string;
}): Promise<ProjectFileDeletionReceipt> {
  const receipt = await withTransaction(
    async (tx) => {
      const file = await tx.projectFile.findFirst({
        where: { id: fileId, projectId, userId },
        select: { id: true },
      });
      if (!file) throw fileNotFound();
      const chunks = await tx.projectFileChunk.count({ where: { fileId } });
      const { count } = await tx.projectFile.deleteMany({ where: { id: fileId, projectId, userId } });
      await tx.auditLog.create({
        data: {
          actorId: userId,
          action: "project.file.delete",
          targetType: "ProjectFile",
          targetId: fileId,
          details: { ProjectFile: count, ProjectFileChunk: chunks },
        },
      });
      return { fileId, deleted: { ProjectFile: count, ProjectFileChunk: chunks } };
    },
    { timeout: CASCADE_DELETE_TIMEOUT_MS },
  );
  return checkpointed(receipt, ["chunks"]);
}

/** Files and chunks of the projects in `where` (one project, or all of a user's), for deletion receipts. */
export async function countFilesOfProjects(
  where: { projectId: string } | { userId: string },
  { tx = db }: TxOption = {},
): Promise<{ ProjectFile: number; ProjectFileChunk: number }> {
  const [files, chunks] = await Promise.all([
    tx.projectFile.count({ where }),
    tx.projectFileChunk.count({ where }),
  ]);
  return { ProjectFile: files, ProjectFileChunk: chunks };
}

/** A project file's passage as recall ranks it. */
export interface FileChunkHit {
  chunkId: number;
  fileId: string;
  fileName: string;
  position: number;
  chunkCount: number;
  text: string;
  score: number;
}

/** Index rows read per slot, bounded below and above (as recall's slot lookups over messages). */
const SLOT_ROWS = 1200;
const MIN_SLOT_ROWS = 32;
const MAX_SLOT_ROWS = 200;
/** The best chunks by slots held whose texts are read and ranked. */
const POOL = 60;
/** How many nearest chunks by embedding join the lexical candidates. */
const VECTOR_POOL = 30;
/**
 * A chunk no nearer than this (cosine distance; 1 is at right angles) is no candidate: a file passage costs a few
 * hundred tokens of the recall budget, and one pointing nowhere near the question — with the offline embeddings, one
 * sharing none of its terms — is only ranked last, never dropped, by fusion.
 */
const MAX_DISTANCE = 0.999;

/**
 * The passages of the project's files most relevant to the question, best first (at most `limit`). Lexically, each
 * slot of the question reads at most its share of the project's newest matches (the project token is in the match,
 * so the engine intersects postings) and the chunks holding the most weight of slots are candidates. With the
 * question's embedding, the project's nearest chunks by embedding join them. The candidates are read by key, with
 * their file, ranked by the same order as recalled messages (lib/search/recall-rank.ts) and, with an embedding,
 * that order and the embedding's are fused as messages' are (reciprocal rank fusion).
 */
export async function recallProjectChunks(
  {
    userId,
    projectId,
    question,
    embedding,
    limit,
  }: {
    userId: string;
    projectId: string;
    question: QuestionShape;
    /** The turn's question embedded (null: none — no EMBEDDINGS_MODEL, no vector store, or it failed). */
    embedding: QuestionVector | null;
    limit: number;
  },
  { tx }: TxOption = {},
): Promise<FileChunkHit[]> {
  const client: Client = tx ?? db;
  if (limit <= 0 || (question.slots.length === 0 && !embedding)) return [];
  const [files] = await client.$queryRawUnsafe<{ n: number | bigint | null }[]>(
    `SELECT SUM("chunkCount") AS n FROM "ProjectFile" WHERE "projectId" = ${placeholder(1)} AND "userId" = ${placeholder(2)}`,
    projectId,
    userId,
  );
  const total = Number(files?.n ?? 0);
  if (total === 0) return [];
  const scores = await lexicalChunkPool(client, { userId, projectId, question, total });
  const near = embedding
    ? (
        await nearestChunks(
          { userId, projectId, model: embedding.model, vector: embedding.vector, limit: VECTOR_POOL },
          { tx: client as Tx },
        )
      ).filter((n) => n.distance < MAX_DISTANCE)
    : [];
  const pool = [...new Set([...scores.keys(), ...near.map((n) => n.chunkId)])];
  if (pool.length === 0) return [];
  const chunks = await client.projectFileChunk.findMany({
    where: { id: { in: pool }, userId, projectId },
    select: {
      id: true,
      position: true,
      text: true,
      file: { select: { id: true, name: true, chunkCount: true, createdAt: true } },
    },
  });
  const candidates: (LexicalCandidate & { chunk: (typeof chunks)[number] })[] = chunks.map((c) => ({
    messageId: `chunk:${c.id}`,
    sessionId: c.file.id,
    seq: c.position,
    role: "file",
    createdAt: c.file.createdAt,
    text: c.text,
    engine: scores.get(c.id) ?? 0,
    chunk: c,
  }));
  const lexicalOrder = rankCandidates(question, candidates, new Map());
  const distance = new Map(near.map((n) => [n.chunkId, n.distance]));
  const nearest = candidates
    .filter((c) => distance.has(c.chunk.id))
    .sort((a, b) => (distance.get(a.chunk.id) as number) - (distance.get(b.chunk.id) as number));
  const ranked = nearest.length === 0 ? lexicalOrder : fuse(lexicalOrder, nearest);
  return ranked.slice(0, limit).map((c) => ({
    chunkId: c.chunk.id,
    fileId: c.chunk.file.id,
    fileName: c.chunk.file.name,
    position: c.chunk.position,
    chunkCount: c.chunk.file.chunkCount,
    text: c.chunk.text,
    score: c.score,
  }));
}

/**
 * The POOL chunks of the project holding the most weight of the question's slots, with that weight. A slot's
 * weight is its rarity among the project's `total` chunks.
 */
async function lexicalChunkPool(
  client: Client,
  {
    userId,
    projectId,
    question,
    total,
  }: { userId: string; projectId: string; question: QuestionShape; total: number },
): Promise<Map<number, number>> {
  if (question.slots.length === 0) return new Map();
  const k = Math.min(MAX_SLOT_ROWS, Math.max(MIN_SLOT_ROWS, Math.floor(SLOT_ROWS / question.slots.length)));
  const rows =
    databaseKind(env.DATABASE_URL) === "sqlite"
      ? await client.$queryRawUnsafe<{ k: number | bigint; id: number | bigint }[]>(
          question.slots
            .map(
              (_, i) =>
                `SELECT * FROM (SELECT ${i} AS k, rowid AS id FROM "ProjectChunkFts" WHERE "ProjectChunkFts" MATCH ? ORDER BY rowid DESC LIMIT ${k})`,
            )
            .join(" UNION ALL "),
          ...question.slots.map((s) => `proj : ${ftsString(projectToken(projectId))} AND body : (${s.fts})`),
        )
      : await client.$queryRawUnsafe<{ k: number | bigint; id: number | bigint }[]>(
          `SELECT (s.i - 1)::int AS k, c."id" AS id
           FROM unnest($1::text[]) WITH ORDINALITY AS s(q, i)
           CROSS JOIN LATERAL (
             SELECT x."id" FROM "ProjectFileChunk" x
             WHERE x."terms" @@ (s.q::tsquery && $2::tsquery) AND x."userId" = $3
             ORDER BY x."id" DESC LIMIT $4
           ) c`,
          question.slots.map((s) => s.pg),
          pgProjectLexeme(projectId),
          userId,
          k,
        );
  const bySlot = question.slots.map(() => new Set<number>());
  for (const r of rows) bySlot[Number(r.k)]?.add(Number(r.id));
  const scores = new Map<number, number>();
  for (const [i, ids] of bySlot.entries()) {
    // A full slot counts as common: at least half the project.
    const df = ids.size >= k ? Math.max(ids.size, total / 2) : ids.size;
    const weight = (question.slots[i]?.weight ?? 1) * Math.log(1 + (total + 1) / (df + 0.5));
    for (const id of ids) scores.set(id, (scores.get(id) ?? 0) + weight);
  }
  return new Map([...scores].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, POOL));
}

const placeholder = (n: number) => (databaseKind(env.DATABASE_URL) === "sqlite" ? "?" : `$${n}`);
