import "server-only";
import type { Tx } from "@/lib/db/client";
import { embedQuestion } from "@/lib/db/embeddings";
import { recallProjectChunks } from "@/lib/db/project-files";
import { recallCandidates } from "@/lib/db/recall";
import type { MemoryItem, RecallInput } from "@/lib/memory";
import { shapeQuestion } from "@/lib/search/recall-rank";
import { recallCandidatesOf } from "./items";
import type { MemoryConfig } from "./memory-config";

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
  }: {
    userId: string;
    sessionId: string;
    /** The conversation's project (null: none). */
    projectId: string | null;
    config: MemoryConfig;
    question: { seq: number; text: string };
    memory: readonly MemoryItem[];
  },
  { tx }: { tx: Tx },
): Promise<RecallInput | null> {
  if (!config.recall) return null;
  const { scope, maxTokens } = config.recall;
  const limit = Math.min(
    MAX_CANDIDATES,
    Math.max(MIN_CANDIDATES, Math.ceil(maxTokens / TOKENS_PER_CANDIDATE)),
  );
  // Embedded once: messages and file passages are compared with the same vector.
  const embedding = await embedQuestion(question.text);
  const hits = await recallCandidates(
    {
      userId,
      sessionId,
      scope,
      projectId,
      question: question.text,
      leafSeq: question.seq,
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
