import "server-only";
import type { Tx } from "@/lib/db/client";
import { recallCandidates } from "@/lib/db/recall";
import type { MemoryItem, RecallInput } from "@/lib/memory";
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
 * window itself too), so they do not take the places of others.
 */
export async function loadRecall(
  {
    userId,
    sessionId,
    config,
    question,
    memory,
  }: {
    userId: string;
    sessionId: string;
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
  const hits = await recallCandidates(
    {
      userId,
      sessionId,
      scope,
      question: question.text,
      leafSeq: question.seq,
      excludeSeqs: memory.flatMap((item) => (item.seq === undefined ? [] : [item.seq])),
      limit,
    },
    { tx },
  );
  return { candidates: recallCandidatesOf(hits), sessionId, maxTokens };
}
