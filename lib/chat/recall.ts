import "server-only";
import type { Tx } from "@/lib/db/client";
import { embedQuestion, type QuestionVector } from "@/lib/db/embeddings";
import { getAnswerWithQuestion, getQuestionOf } from "@/lib/db/messages";
import { recallProjectChunks } from "@/lib/db/project-files";
import { recallCandidates } from "@/lib/db/recall";
import { getSessionForUserOrThrow } from "@/lib/db/sessions";
import { getEmbedder } from "@/lib/llm/embeddings";
import type { MemoryItem, RecallInput } from "@/lib/memory";
import { shapeQuestion } from "@/lib/search/recall-rank";
import { recallCandidatesOf } from "./items";
import type { MemoryConfig } from "./memory-config";
import type { TurnRequest } from "./turn-request";

// The recall step of a turn's context (docs/decisions/026-recall.md): the recall query, in the turn's transaction,
// hands ranked candidates to lib/memory, which decides what fits.

/** Tokens a recalled message is assumed to take when deciding how many candidates to ask for. */
const TOKENS_PER_CANDIDATE = 50;
const MIN_CANDIDATES = 8;
const MAX_CANDIDATES = 64;

/**
 * The candidates recall may bring into this turn's context, or null when the conversation recalls nothing. The
 * messages memory already holds are left out of the query (the window is a subset of them; lib/memory checks the
 * window itself too), so they do not take the places of others. In a project's conversation the project's file
 * passages are candidates too, and scope `all` means the project's conversations only
 * (docs/decisions/037-project-files.md).
 */
export async function loadRecall(
  {
    userId,
    sessionId,
    projectId,
    config,
    question,
    memory,
    embedding,
    startSeq,
  }: {
    userId: string;
    sessionId: string;
    /** The conversation's clear-memory boundary (its `memoryStartSeq`), as the turn's lease read it. */
    startSeq: number;
    /** The conversation's project (null: none). */
    projectId: string | null;
    config: MemoryConfig;
    question: { seq: number; text: string };
    memory: readonly MemoryItem[];
    /** The question's embedding, made before the transaction (`questionEmbedding`); null: lexical only. */
    embedding: QuestionVector | null;
  },
  { tx }: { tx: Tx },
): Promise<RecallInput | null> {
  if (!config.recall) return null;
  const { scope, maxTokens } = config.recall;
  const limit = Math.min(
    MAX_CANDIDATES,
    Math.max(MIN_CANDIDATES, Math.ceil(maxTokens / TOKENS_PER_CANDIDATE)),
  );
  const hits = await recallCandidates(
    {
      userId,
      sessionId,
      scope,
      projectId,
      question: question.text,
      leafSeq: question.seq,
      startSeq,
      excludeSeqs: memory.flatMap((item) => (item.seq === undefined ? [] : [item.seq])),
      limit,
      embedding,
    },
    { tx },
  );
  const passages = projectId
    ? await recallProjectChunks(
        {
          userId,
          projectId,
          question: shapeQuestion(question.text),
          embedding,
          limit: Math.ceil(limit / 2),
        },
        { tx },
      )
    : [];
  return { candidates: recallCandidatesOf(hits), passages, sessionId, maxTokens };
}

/**
 * The turn's question embedded once, before its transaction opens: an embeddings call is a network round trip, and
 * inside the transaction it would hold SQLite's one writer lock (and the session's row on PostgreSQL) for its length.
 * Messages and file passages are compared with the same vector. Null without an embeddings model or vector store.
 * A regenerated or retried answer's question is read first, in the user's own conversation.
 */
export async function questionEmbedding({
  userId,
  sessionId,
  request,
}: {
  userId: string;
  sessionId: string;
  request: TurnRequest;
}): Promise<QuestionVector | null> {
  if (!getEmbedder()) return null;
  const text = "content" in request ? request.content : await storedQuestionText(userId, sessionId, request);
  return text === null ? null : embedQuestion(text);
}

async function storedQuestionText(
  userId: string,
  sessionId: string,
  { kind, answerId }: { kind: "regenerate" | "retry"; answerId: string },
): Promise<string | null> {
  await getSessionForUserOrThrow({ sessionId, userId });
  const question =
    kind === "regenerate"
      ? await getQuestionOf({ sessionId, answerId })
      : (await getAnswerWithQuestion({ sessionId, answerId })).question;
  return question?.text ?? null;
}
