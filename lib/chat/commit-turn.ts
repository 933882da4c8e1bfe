import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { tokenizerFor } from "@/lib/context";
import { memoryUsedOf } from "@/lib/context/memory-used";
import { isStorageError } from "@/lib/db/errors";
import {
  type CommitResult,
  salvageAnswerText,
  type TurnOutcome,
  commitTurn as writeTurn,
} from "@/lib/db/leases";
import { scheduleSearchMerge } from "@/lib/db/search-merge";
import { getSnapshotBySessionId } from "@/lib/db/snapshots";
import { type MemoryItem, memoryAfterTurn, restore } from "@/lib/memory";
import { scheduleAutoTitle } from "./auto-title";
import type { TurnPlan } from "./begin-turn";
import { scheduleEmbeddings } from "./embedding-job";
import { scheduleExtraction } from "./extraction-job";
import type { RunOutcome } from "./run-turn";
import type { TurnEvent } from "./sse";
import { errorText, leaseLost } from "./stream-answer";
import { scheduleSummaryBacklog } from "./summary-backlog";
import { scheduleSummary } from "./summary-job";

/**
 * Commits the answer, fenced by the turn's lease, schedules the work after it (summary, title), and says how the
 * turn ended as its last event: `done` with the token counts (the provider's, else counted), or `error`.
 */
export async function commitTurn(plan: TurnPlan, run: RunOutcome): Promise<TurnEvent> {
  const { outcome, failure } = run.answer;
  if (run.leaseLost) return lostCommit(plan, outcome);
  let committed: CommitResult;
  let items: MemoryItem[];
  try {
    ({ committed, items } = await commitAnswer(plan, outcome, run.steps, run.answerSeq));
  } catch (e) {
    console.error(`[chat] answer in session ${plan.lease.sessionId} could not be saved: ${errorText(e)}`);
    return {
      type: "error",
      code: "storage_error",
      message: "The answer could not be saved. What was shown up to the last second is kept; try again.",
    };
  }
  if (committed === "lease_lost") return lostCommit(plan, outcome);
  scheduleSummary({ sessionId: plan.lease.sessionId, items, config: plan.config });
  scheduleSummaryBacklog({
    sessionId: plan.lease.sessionId,
    lag: { items, startSeq: plan.lease.memoryStartSeq },
    config: plan.config,
  });
  scheduleEmbeddings();
  scheduleSearchMerge();
  scheduleExtraction(plan, outcome);
  // The conversation's first answer names it (off the hot path; a user's rename always wins).
  if (outcome.status === "complete" && plan.namesConversation) {
    scheduleAutoTitle({
      sessionId: plan.lease.sessionId,
      question: plan.question.text,
      answer: outcome.text,
    });
  }
  if (failure) return { type: "error", code: failure.code, message: failure.message };
  const reported: { promptTokens?: number; completionTokens?: number } =
    outcome.status === "complete" ? outcome : {};
  return {
    type: "done",
    status: outcome.status === "complete" ? "complete" : "interrupted",
    promptTokens: reported.promptTokens ?? plan.context.tokenEstimate,
    completionTokens: reported.completionTokens ?? tokenizerFor(plan.model.model).countText(outcome.text),
    recallTokens: plan.context.recallTokens,
    memoryUsed: memoryUsedOf(plan.context.entries),
    model: plan.modelSpec.id,
    modelName: plan.modelSpec.name,
  };
}

/**
 * Writes the answer and the snapshot the turn leaves behind: its memory plus its question and (completed) answer,
 * under the policy. If a summary replaced the snapshot while the answer streamed, the turn is folded onto that one
 * instead, so the summary is kept. Storage failures are retried for a while (the heartbeat keeps the lease).
 */
async function commitAnswer(plan: TurnPlan, outcome: TurnOutcome, steps: MemoryItem[], answerSeq: number) {
  const { config, lease } = plan;
  const answer: MemoryItem | null =
    outcome.status === "complete" ? { role: "assistant", text: outcome.text, seq: answerSeq } : null;
  let memory = plan.memory;
  let baseVersion: number | null | "any" = plan.memoryVersion;
  for (let attempt = 1; ; attempt++) {
    const items = memoryAfterTurn({
      memory,
      question: plan.questionItem,
      steps,
      answer,
      policy: config.policy,
    });
    const committed = await withStorageRetry(lease.sessionId, () =>
      writeTurn({
        lease,
        answerId: plan.answer.id,
        outcome,
        snapshot: { items, policy: config.policy.id, throughSeq: answerSeq, baseVersion },
        search: searchDocs(plan, outcome.text),
      }),
    );
    if (committed !== "snapshot_moved") return { committed, items };
    const current = await getSnapshotBySessionId({ sessionId: lease.sessionId });
    memory = current ? restore(current.items) : [];
    // Summaries racing this commit again and again must not keep the answer from being stored.
    baseVersion = attempt >= 3 ? "any" : (current?.version ?? null);
  }
}

/**
 * What the commit indexes for search: a new question with its answer, or only the answer (a new version; a retried
 * answer replaces its entry).
 */
function searchDocs(plan: TurnPlan, text: string) {
  const base = { sessionId: plan.lease.sessionId, userId: plan.userId };
  const answer = { ...plan.answer, ...base, role: "assistant" as const, text };
  return plan.kind === "ask" || plan.kind === "edit"
    ? { docs: [{ ...plan.question, ...base, role: "user" as const }, answer], fresh: true }
    : { docs: [answer], fresh: plan.kind === "regenerate" };
}

/** Storage failures at commit time are retried for a while; the lease stays this turn's meanwhile. */
const COMMIT_RETRY_MS = [200, 500, 1000, 2000, 4000, 8000];

export async function withStorageRetry<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      const delay = COMMIT_RETRY_MS[attempt];
      if (!isStorageError(e) || delay === undefined) throw e;
      console.warn(`[chat] commit in session ${sessionId} failed, retrying in ${delay} ms: ${errorText(e)}`);
      await sleep(delay);
    }
  }
}

/** The lease was lost (deleted session, or a newer turn took over): keep the text the user saw, change nothing else. */
async function lostCommit(plan: TurnPlan, outcome: TurnOutcome): Promise<TurnEvent> {
  let exists = false;
  try {
    exists = await salvageAnswerText({ lease: plan.lease, answerId: plan.answer.id, text: outcome.text });
  } catch (e) {
    console.warn(`[chat] could not keep the text of a superseded answer: ${errorText(e)}`);
  }
  return exists
    ? { type: "error", code: leaseLost().code, message: leaseLost().message }
    : { type: "error", code: "not_found", message: "This conversation was deleted while answering." };
}
