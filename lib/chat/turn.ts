import "server-only";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { claimAttachments } from "@/lib/attachments/claim";
import { resolveAttachmentRefs } from "@/lib/attachments/resolve";
import { type BuiltContext, buildContext, ContextBudgetError, withToolStep } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { isStorageError } from "@/lib/db/errors";
import { getNode } from "@/lib/db/tree";
import {
  appendRegeneratedAnswer,
  appendToolStep,
  appendTurnMessages,
  type CommitResult,
  commitTurn,
  getAnswerWithQuestion,
  getQuestionOf,
  getSnapshotBySessionId,
  inTransaction,
  type Lease,
  messageToItem,
  readParts,
  recordContext,
  reopenAnswer,
  salvageAnswerText,
  type TurnOutcome,
  takeLease,
} from "@/lib/db/turns";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getModel } from "@/lib/llm";
import {
  longTermSection,
  type MemoryItem,
  memoryAfterTurn,
  restore,
  retryRefusal,
  type ToolCall,
} from "@/lib/memory";
import { scheduleAutoTitle } from "./auto-title";
import { eventStream } from "./event-stream";
import { type LongTermMemory, loadLongTermMemory } from "./long-term";
import { loadMemory } from "./memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "./memory-config";
import type { TurnInput } from "./schemas";
import type { TurnEvent } from "./sse";
import { type AnswerResult, errorText, leaseLost, startHeartbeat, streamAnswer } from "./stream-answer";
import { scheduleSummary } from "./summary-job";
import { runTool, type ToolResult, toolsFor } from "./tools";

/**
 * One chat turn, in order: take the session's lease, append the question (or reopen the answer being retried),
 * load memory, build and record the context — all in one transaction, before the first byte — then stream the
 * answer (lease renewed and text saved every second) and commit it fenced by the lease. Returns the turn's event
 * stream: meta, delta*, then done or error. See docs/decisions/005-turn-pipeline.md.
 */
export async function startTurn({
  sessionId,
  userId,
  input,
  signal,
  overrides = {},
}: {
  sessionId: string;
  userId: string;
  input: TurnInput;
  signal?: AbortSignal;
  overrides?: TurnOverrides;
}): Promise<ReadableStream<Uint8Array>> {
  const model = getModel();
  const leaseSeconds = env.TURN_LEASE_SECONDS;
  // Read before the transaction: the facts are the user's, not the session's, and mostly come from a cache.
  const longTerm = await loadLongTermMemory({ userId });

  const turn = await inTransaction(async (tx) => {
    const lease = await takeLease(tx, {
      sessionId,
      userId,
      leaseId: randomUUID(),
      leaseSeconds,
      seqs: "content" in input ? 2 : "regenerate" in input ? 1 : 0,
    });
    const { question, answer } = await appendOrReopen(tx, { lease, input, model: model.model });
    // Issue 12: the user's uploads become this message's attachments (422, rolled back, if one cannot be).
    const attached =
      "content" in input && input.attachments?.length
        ? await claimAttachments(tx, { userId, messageId: question.id, ids: input.attachments })
        : null;
    const config = memoryConfig(storedMemorySettings(lease.memorySettings));
    const memory = await loadMemory(tx, {
      sessionId,
      leaf: question.parent,
      startSeq: lease.memoryStartSeq,
      config,
    });
    const questionItem = messageToItem({
      seq: question.seq,
      role: "user",
      text: question.text,
      parts: attached ?? question.parts ?? null,
      toolCallId: null,
    });
    const context = contextFor({
      systemPrompt: overrides.systemPrompt ?? env.CHAT_SYSTEM_PROMPT,
      longTerm,
      memory: overrides.clientMemory ?? memory.items,
      question: questionItem,
      config,
      model: model.model,
    });
    await recordContext(tx, { sessionId, answerId: answer.id, record: contextRecord(context) });
    return {
      userId,
      lease,
      config,
      question,
      questionItem,
      answer,
      memory: memory.items,
      memoryVersion: memory.version,
      context,
      longTermMemory: longTerm.enabled,
      kind: ("content" in input
        ? "new"
        : "regenerate" in input
          ? "regenerate"
          : "retry") as StartedTurn["kind"],
      // The conversation's first question was just asked (not a retry or another version of its answer).
      namesConversation: "content" in input && question.seq === 1,
    };
  });

  return eventStream(async (send, clientGone) => {
    send({
      type: "meta",
      userMessage: {
        id: turn.question.id,
        seq: turn.question.seq,
        parentId: turn.question.parentId,
        createdAt: turn.question.createdAt.toISOString(),
      },
      assistantMessage: {
        id: turn.answer.id,
        seq: turn.answer.seq,
        parentId: turn.answer.parentId,
        createdAt: turn.answer.createdAt.toISOString(),
      },
      model: model.model,
      offline: model.offline,
    });
    const stop = new AbortController();
    const onStop = () => stop.abort();
    for (const s of [signal, clientGone]) {
      if (s?.aborted) onStop();
      else s?.addEventListener("abort", onStop, { once: true });
    }
    const draft = { text: "" };
    const heartbeat = startHeartbeat({
      lease: turn.lease,
      answerId: turn.answer.id,
      leaseSeconds,
      draft,
      onLeaseLost: () => stop.abort(leaseLost()),
    });
    try {
      const answered = await answerWithTools({ turn, model, signal: stop.signal, draft, send });
      if (answered.leaseLost) stop.abort(leaseLost());
      send(await finishTurn({ turn, ...answered }));
    } finally {
      heartbeat.stop();
    }
  });
}

/**
 * Streams the model's answer, running the tools it asks for and calling it again with their results, up to
 * TOOL_MAX_STEPS steps (then it must answer in text). Each step is stored before the next call, so a crash keeps
 * what the tools did; the answer keeps its id and moves after the steps.
 */
async function answerWithTools({
  turn,
  model,
  signal,
  draft,
  send,
}: {
  turn: StartedTurn;
  model: ReturnType<typeof getModel>;
  signal: AbortSignal;
  draft: { text: string };
  send: (event: TurnEvent) => void;
}): Promise<{ answer: AnswerResult; steps: MemoryItem[]; answerSeq: number; leaseLost?: boolean }> {
  const maxSteps = env.TOOL_MAX_STEPS;
  const tools = maxSteps > 0 ? toolsFor({ longTermMemory: turn.longTermMemory }) : [];
  const ctx = {
    userId: turn.userId,
    sessionId: turn.lease.sessionId,
    questionId: turn.question.id,
    longTermMemory: turn.longTermMemory,
  };
  let context = turn.context;
  let answerSeq = turn.answer.seq;
  let answerParentId = turn.answer.parentId;
  const steps: MemoryItem[] = [];
  for (let step = 0; ; step++) {
    const answer = await streamAnswer({
      items: context.items,
      prepare: (items) => resolveAttachmentRefs(items, { userId: turn.userId }),
      model,
      signal,
      draft,
      tools,
      toolChoice: step < maxSteps ? "auto" : "none",
      onDelta: (text) => send({ type: "delta", text }),
    });
    const calls: ToolCall[] = answer.toolCalls ?? [];
    if (calls.length === 0 || answer.outcome.status !== "complete") return { answer, steps, answerSeq };
    for (const call of calls)
      send({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
    const results: ToolResult[] = [];
    for (const call of calls) {
      const result = await runTool(call, ctx);
      results.push(result);
      send({
        type: "tool_result",
        id: result.toolCallId,
        name: result.name,
        ok: result.ok,
        result: result.text,
      });
    }
    const stepItems: MemoryItem[] = [
      { role: "assistant", text: answer.outcome.text, toolCalls: calls, seq: answerSeq },
      ...results.map((r, i) => ({
        role: "tool" as const,
        text: r.text,
        toolCallId: r.toolCallId,
        seq: answerSeq + 1 + i,
      })),
    ];
    context = withToolStep(context, stepItems, turn.config.tokenizer);
    const stored = await withStorageRetry(turn.lease.sessionId, () =>
      appendToolStep({
        lease: turn.lease,
        answerId: turn.answer.id,
        answerSeq,
        answerParentId,
        call: { text: answer.outcome.text, toolCalls: calls },
        results,
        model: model.model,
        context: contextRecord(context),
      }),
    );
    if (!stored) {
      return { answer: { outcome: { status: "interrupted", text: "" } }, steps, answerSeq, leaseLost: true };
    }
    answerSeq = stored.answerSeq;
    answerParentId = stored.answerParentId;
    steps.push(...stepItems);
    draft.text = "";
  }
}

type StoredMessage = { id: string; seq: number; parentId: string | null; createdAt: Date };
type StartedTurn = {
  userId: string;
  question: Question;
  longTermMemory: boolean;
  /** A new question, a new version of an answer, or a failed answer reopened. */
  kind: "new" | "regenerate" | "retry";
  namesConversation: boolean;
  lease: Lease;
  config: MemoryConfig;
  questionItem: MemoryItem;
  answer: StoredMessage;
  memory: MemoryItem[];
  /** The snapshot version the memory was read from (null: there was none). */
  memoryVersion: number | null;
  context: BuiltContext;
};

type Question = StoredMessage & {
  text: string;
  parts: unknown;
  /** The message the question follows: where its memory ends (null: a root, no memory). */
  parent: { id: string; seq: number } | null;
};

/**
 * The turn's question and its empty answer: a new question after the active leaf or the given parent (issue 13),
 * a new version of an answer beside it, or the retried answer reopened — when the retry rule allows it.
 */
async function appendOrReopen(
  tx: Tx,
  { lease, input, model }: { lease: Lease; input: TurnInput; model: string },
): Promise<{ question: Question; answer: StoredMessage }> {
  const { sessionId } = lease;
  if ("content" in input) {
    const parent =
      input.parentId === undefined ? lease.activeLeaf : await parentFor(tx, sessionId, input.parentId);
    const { question, answer } = await appendTurnMessages(tx, {
      lease,
      content: input.content,
      model,
      parentId: parent?.id ?? null,
    });
    return { question: { ...question, parent }, answer };
  }
  if ("regenerate" in input) {
    const question = await getQuestionOf(tx, { sessionId, answerId: input.regenerate });
    if (!question) throw new AppError("not_found", "There is no such answer in this conversation.");
    const answer = await appendRegeneratedAnswer(tx, { lease, questionId: question.id, model });
    return { question, answer };
  }
  const { answer, question } = await getAnswerWithQuestion(tx, { sessionId, answerId: input.retryMessageId });
  const refusal = retryRefusal({ answer, question, lastSeq: lease.seqBefore });
  if (refusal || !question) throw new AppError("conflict", refusal ?? "This answer cannot be retried.");
  const reopened = await reopenAnswer(tx, { sessionId, answerId: input.retryMessageId, model });
  return {
    question: { ...question, parent: await nodeRef(tx, sessionId, question.parentId) },
    answer: reopened,
  };
}

/** The message a new question may follow: a finished answer of this conversation (null: a new root). */
async function parentFor(tx: Tx, sessionId: string, parentId: string | null) {
  if (parentId === null) return null;
  const node = await getNode(tx, { sessionId, messageId: parentId });
  if (!node) throw new AppError("not_found", "The message to continue from is not in this conversation.");
  if (
    node.role !== "assistant" ||
    node.status === "streaming" ||
    readParts(node.parts).toolCalls.length > 0
  ) {
    throw new AppError("validation_failed", "A question can only follow an answer.", {
      details: { parentId },
    });
  }
  return { id: node.id, seq: node.seq };
}

async function nodeRef(tx: Tx, sessionId: string, id: string | null) {
  if (id === null) return null;
  const node = await getNode(tx, { sessionId, messageId: id });
  return node ? { id: node.id, seq: node.seq } : null;
}

/**
 * What an API client may change about one turn (issue 15). `systemPrompt` replaces the configured one for this
 * turn; `clientMemory` is sent instead of the conversation's memory (the client resends the conversation itself,
 * OpenAI's own semantics). Either way the turn is recorded as usual and the conversation's snapshot keeps being
 * maintained from its history, so switching back to server-side memory loses nothing.
 */
export interface TurnOverrides {
  systemPrompt?: string;
  clientMemory?: MemoryItem[];
}

/** The pure context builder with the conversation's budget; a question that alone does not fit is a 422. */
function contextFor({
  systemPrompt,
  longTerm,
  memory,
  question,
  config,
  model,
}: {
  systemPrompt: string;
  longTerm: LongTermMemory;
  memory: MemoryItem[];
  question: MemoryItem;
  config: MemoryConfig;
  model: string;
}): BuiltContext {
  try {
    return buildContext({
      systemPrompt,
      longTermMemory: longTermSection({
        facts: longTerm.facts,
        question: question.text,
        maxTokens: env.LONG_TERM_MEMORY_MAX_TOKENS,
        count: config.tokenizer.countItem,
      }),
      memory,
      question,
      policyId: config.policy.id,
      model,
      tokenizer: config.tokenizer,
      maxTokens: config.contextMaxTokens,
      modelContextTokens: config.modelContextTokens,
    });
  } catch (e) {
    if (!(e instanceof ContextBudgetError)) throw e;
    throw new AppError(
      "question_too_long",
      `This message is too long for the model: it needs ${e.requiredTokens} tokens with the system prompt, and at most ${e.budget} fit. Shorten it and send it again.`,
      { details: { questionTokens: e.questionTokens, requiredTokens: e.requiredTokens, budget: e.budget } },
    );
  }
}

function contextRecord(context: BuiltContext) {
  return {
    entries: context.entries,
    tokenEstimate: context.tokenEstimate,
    policy: context.policyId,
    model: context.model,
  };
}

/** Commits the answer and says how the turn ended, as the stream's last event. */
async function finishTurn({
  turn,
  answer,
  steps,
  answerSeq,
  leaseLost: lost,
}: {
  turn: StartedTurn;
  answer: AnswerResult;
  steps: MemoryItem[];
  answerSeq: number;
  leaseLost?: boolean;
}): Promise<TurnEvent> {
  const { outcome, failure } = answer;
  if (lost) return lostCommit(turn, outcome);
  let committed: CommitResult;
  let items: MemoryItem[];
  try {
    ({ committed, items } = await commitAnswer(turn, outcome, steps, answerSeq));
  } catch (e) {
    console.error(`[chat] answer in session ${turn.lease.sessionId} could not be saved: ${errorText(e)}`);
    return {
      type: "error",
      code: "storage_error",
      message: "The answer could not be saved. What was shown up to the last second is kept; try again.",
    };
  }
  if (committed === "lease_lost") return lostCommit(turn, outcome);
  scheduleSummary({ sessionId: turn.lease.sessionId, items, config: turn.config });
  // The conversation's first answer names it (off the hot path; a user's rename always wins).
  if (outcome.status === "complete" && turn.namesConversation) {
    scheduleAutoTitle({
      sessionId: turn.lease.sessionId,
      question: turn.question.text,
      answer: outcome.text,
    });
  }
  if (failure) return { type: "error", code: failure.code, message: failure.message };
  return outcome.status === "complete"
    ? {
        type: "done",
        status: "complete",
        promptTokens: outcome.promptTokens,
        completionTokens: outcome.completionTokens,
      }
    : { type: "done", status: "interrupted" };
}

/**
 * Writes the answer and the snapshot the turn leaves behind: its memory plus its question and (completed) answer,
 * under the policy. If a summary replaced the snapshot while the answer streamed, the turn is folded onto that one
 * instead, so the summary is kept. Storage failures are retried for a while (the heartbeat keeps the lease).
 */
async function commitAnswer(turn: StartedTurn, outcome: TurnOutcome, steps: MemoryItem[], answerSeq: number) {
  const { config, lease } = turn;
  const answer: MemoryItem | null =
    outcome.status === "complete" ? { role: "assistant", text: outcome.text, seq: answerSeq } : null;
  let memory = turn.memory;
  let baseVersion: number | null | "any" = turn.memoryVersion;
  for (let attempt = 1; ; attempt++) {
    const items = memoryAfterTurn({
      memory,
      question: turn.questionItem,
      steps,
      answer,
      policy: config.policy,
    });
    const committed = await withStorageRetry(lease.sessionId, () =>
      commitTurn({
        lease,
        answerId: turn.answer.id,
        outcome,
        snapshot: { items, policy: config.policy.id, throughSeq: answerSeq, baseVersion },
        search: searchDocs(turn, outcome.text),
      }),
    );
    if (committed !== "snapshot_moved") return { committed, items };
    const current = await getSnapshotBySessionId(undefined, { sessionId: lease.sessionId });
    memory = current ? restore(current.items) : [];
    // Summaries racing this commit again and again must not keep the answer from being stored.
    baseVersion = attempt >= 3 ? "any" : (current?.version ?? null);
  }
}

/**
 * What the commit indexes for search: a new question with its answer, or only the answer (a new version; a retried
 * answer replaces its entry).
 */
function searchDocs(turn: StartedTurn, text: string) {
  const base = { sessionId: turn.lease.sessionId, userId: turn.userId };
  const answer = { ...turn.answer, ...base, role: "assistant" as const, text };
  return turn.kind === "new"
    ? { docs: [{ ...turn.question, ...base, role: "user" as const }, answer], fresh: true }
    : { docs: [answer], fresh: turn.kind === "regenerate" };
}

/** Storage failures at commit time are retried for a while; the lease stays this turn's meanwhile. */
const COMMIT_RETRY_MS = [200, 500, 1000, 2000, 4000, 8000];

async function withStorageRetry<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
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
async function lostCommit(turn: StartedTurn, outcome: TurnOutcome): Promise<TurnEvent> {
  let exists = false;
  try {
    exists = await salvageAnswerText({ lease: turn.lease, answerId: turn.answer.id, text: outcome.text });
  } catch (e) {
    console.warn(`[chat] could not keep the text of a superseded answer: ${errorText(e)}`);
  }
  return exists
    ? { type: "error", code: leaseLost().code, message: leaseLost().message }
    : { type: "error", code: "not_found", message: "This conversation was deleted while answering." };
}
