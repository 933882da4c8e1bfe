import "server-only";
import { recordExtractionFailure } from "@/lib/db/admin-audit";
import {
  acceptFactForUser,
  getUserSettings,
  listActiveFacts,
  listExtractedFactsByMessageId,
  rememberFact,
  suggestFacts,
} from "@/lib/db/memories";
import { projectOfSession } from "@/lib/db/projects";
import { isTemporarySession } from "@/lib/db/temporary";
import { withTransaction } from "@/lib/db/transaction";
import { getModel, type Model, streamReply } from "@/lib/llm";
import { subjectOf } from "@/lib/memory";
import type { TurnPlan } from "./begin-turn";
import { ExtractionParseError, extractionRequest, factKey, parseExtractedFacts } from "./extraction";
import { errorText } from "./stream-answer";

// Extraction after an answer (issue 24): once the turn is committed, the model is asked in a separate, bounded call
// for the facts the user stated in the turn's own message — only that message's text is sent, never the assistant's
// words, the context or what recall brought into it. Off the turn's path: scheduled after the commit, nothing the
// turn returns waits for it. A failure stores nothing and leaves an audit entry (counts only).

/** The extraction request's own limit: it must not hang on a slow model. */
const EXTRACTION_TIMEOUT_MS = 30_000;

export interface ExtractionInput {
  userId: string;
  sessionId: string;
  /** The user's message of the turn: the only text facts are taken from, and their source. */
  messageId: string;
  text: string;
}

export type ExtractionResult =
  | { status: "skipped" }
  | { status: "failed"; reason: "model_error" | "unreadable_answer" }
  | { status: "stored"; mode: "suggest" | "auto"; facts: number };

async function askModel(text: string, model: Model): Promise<string> {
  let answer = "";
  const signal = AbortSignal.timeout(EXTRACTION_TIMEOUT_MS);
  for await (const event of streamReply({ items: extractionRequest(text), model, signal })) {
    if (event.type === "done") answer = event.text;
  }
  return answer;
}

/**
 * Extracts and stores the facts of one user message, by the user's setting.
 * @public (the extraction tests call it with a failing model)
 */
export async function extractFacts(
  input: ExtractionInput,
  model: Model = getModel(),
): Promise<ExtractionResult> {
  const { userId, sessionId, messageId, text } = input;
  if (!text.trim() || (await isTemporarySession({ sessionId }))) return { status: "skipped" };
  const settings = await getUserSettings({ userId });
  if (!settings.longTermMemory || settings.memoryExtraction === "off") return { status: "skipped" };
  let found: string[];
  try {
    found = parseExtractedFacts(await askModel(text, model));
  } catch (e) {
    const reason = e instanceof ExtractionParseError ? "unreadable_answer" : "model_error";
    console.warn(`[memory] extraction for message ${messageId} failed (${reason}): ${errorText(e)}`);
    await recordExtractionFailure({ messageId, reason });
    return { status: "failed", reason };
  }
  const mode = settings.memoryExtraction;
  // Most messages state no fact: nothing to compare or write, so no transaction (it would hold SQLite's one writer).
  if (found.length === 0) return { status: "stored", mode, facts: 0 };
  const stored = await withTransaction(async (tx) => {
    const projectId = await projectOfSession({ sessionId }, { tx });
    const known = new Set((await listActiveFacts({ userId, projectId }, { tx })).map((f) => factKey(f.text)));
    const fresh = found.filter((f) => !known.has(factKey(f)));
    const base = { userId, sourceSessionId: sessionId, sourceMessageId: messageId };
    if (mode === "suggest") {
      const facts = fresh.map((t) => ({ text: t, subject: subjectOf(t) }));
      return (await suggestFacts({ ...base, facts }, { tx })).length;
    }
    for (const t of fresh)
      await rememberFact({ ...base, text: t, subject: subjectOf(t), extracted: true }, { tx });
    return fresh.length;
  });
  return { status: "stored", mode, facts: stored };
}

const running = new Map<string, Promise<unknown>>();

/**
 * After a committed answer: extracts the facts of the turn's new user message in the background (a retried or
 * regenerated answer has no new message). Returns at once; a failure is logged and audited, never thrown.
 */
export function scheduleExtraction(plan: TurnPlan, outcome: { status: string }): void {
  if (!plan.longTermMemory || outcome.status !== "complete") return;
  if (plan.kind !== "ask" && plan.kind !== "edit") return;
  const messageId = plan.question.id;
  const job = extractFacts({
    userId: plan.userId,
    sessionId: plan.lease.sessionId,
    messageId,
    text: plan.question.text,
  })
    .catch((e: unknown) =>
      console.error(`[memory] extraction for message ${messageId} failed: ${errorText(e)}`),
    )
    .finally(() => running.delete(messageId));
  running.set(messageId, job);
}

/** Resolves once every extraction this process started has finished (tests, the bench, graceful shutdown). */
export async function extractionsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

/**
 * The facts extraction found in one of the user's messages, once its extraction (if this process runs it) is done —
 * so the chips under an answer, asked for after `done`, never race the job.
 */
export async function extractedFacts(input: {
  userId: string;
  messageId: string;
  status?: "active" | "suggested" | undefined;
}) {
  await running.get(input.messageId)?.catch(() => undefined);
  return listExtractedFactsByMessageId(input);
}

/** Accepts one of the user's facts (`PATCH /api/memories/:id { status: "active", text? }`). */
export async function acceptFact({
  userId,
  factId,
  text,
}: {
  userId: string;
  factId: string;
  text?: string | undefined;
}) {
  return withTransaction((tx) =>
    acceptFactForUser({ userId, factId, text, subject: text === undefined ? null : subjectOf(text) }, { tx }),
  );
}
