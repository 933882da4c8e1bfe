import "server-only";
import { randomUUID } from "node:crypto";
import { claimAttachments } from "@/lib/attachments/claim";
import {
  type BuiltContext,
  buildContext,
  ContextBudgetError,
  type ToolDefinition,
  withToolStep,
} from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { type Lease, takeLease } from "@/lib/db/leases";
import {
  appendRegeneratedAnswer,
  appendTurnMessages,
  getAnswerWithQuestion,
  getQuestionOf,
  reopenAnswer,
} from "@/lib/db/messages";
import { readParts } from "@/lib/db/parts";
import { projectOfSession } from "@/lib/db/projects";
import { withTransaction } from "@/lib/db/transaction";
import { getNode } from "@/lib/db/tree";
import { recordContext } from "@/lib/db/turn-contexts";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Model, ToolSpec } from "@/lib/llm";
import type { UnavailableServer } from "@/lib/mcp";
import {
  composeContext,
  type Instruction,
  longTermSection,
  type MemoryItem,
  type RecallInput,
  retryRefusal,
} from "@/lib/memory";
import { visibleItems } from "@/lib/models/items";
import { loadModelRegistry, type ModelSpec, pickTurnModel } from "@/lib/models/registry";
import { loadInstructions } from "./instructions";
import { messageToItem } from "./items";
import { type LongTermMemory, loadLongTermMemory } from "./long-term";
import { loadMemory } from "./memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "./memory-config";
import { offeredTools, toolDefinitions, toolsKept, toolTrace } from "./offered-tools";
import { loadRecall, questionEmbedding } from "./recall";
import { seqsOf, type TurnRequest } from "./turn-request";

type StoredMessage = { id: string; seq: number; parentId: string | null; createdAt: Date };

type Question = StoredMessage & {
  text: string;
  parts: unknown;
  /** The message the question follows: where its memory ends (null: a root, no memory). */
  parent: { id: string; seq: number } | null;
};

/** Everything a begun turn hands the phases after it: plain values, read and written before the first byte. */
export interface TurnPlan {
  userId: string;
  kind: TurnRequest["kind"];
  lease: Lease;
  leaseSeconds: number;
  model: Model;
  /** The registry's entry for that model: its id is what the answer row stores, its name what the UI shows. */
  modelSpec: Pick<ModelSpec, "id" | "name">;
  config: MemoryConfig;
  question: Question;
  questionItem: MemoryItem;
  answer: StoredMessage;
  /** The memory the turn started from, and the snapshot version it was read from (null: there was none). */
  memory: MemoryItem[];
  memoryVersion: number | null;
  context: BuiltContext;
  /** Tool steps already stored for this answer (a retried one's); the turn's own follow them. */
  steps: MemoryItem[];
  /** The tools offered to the model (those the context had room for), and the servers whose tools are missing. */
  tools: ToolSpec[];
  unavailableTools: UnavailableServer[];
  longTermMemory: boolean;
  /** The conversation's project when the turn began (null: none): the memory tools see its facts and the global ones. */
  projectId: string | null;
  /** The conversation's first question was just asked (not a retry or another version of its answer). */
  namesConversation: boolean;
}

/**
 * What an API client may change about one turn. `systemPrompt` replaces the configured one for this turn;
 * `clientMemory` is sent instead of the conversation's memory (the client resends the conversation itself,
 * OpenAI's own semantics). Either way the turn is recorded as usual and the conversation's snapshot keeps being
 * maintained from its history, so switching back to server-side memory loses nothing.
 */
export interface TurnOverrides {
  systemPrompt?: string;
  clientMemory?: MemoryItem[];
  /** A model id the client named (422 when unknown or disabled). */
  model?: string;
}

/**
 * Begins a turn in one transaction: takes the session's lease, appends the question (or reopens the answer being
 * retried), claims its attachments, loads memory, builds the context and records it. Throws AppErrors (404, 409,
 * 422) before anything is streamed; a throw rolls all of it back.
 */
export async function beginTurn({
  sessionId,
  userId,
  request,
  overrides = {},
}: {
  sessionId: string;
  userId: string;
  request: TurnRequest;
  overrides?: TurnOverrides;
}): Promise<TurnPlan> {
  const models = await loadModelRegistry();
  const leaseSeconds = env.TURN_LEASE_SECONDS;
  // Read before the transaction: the facts are the user's, not the session's, and mostly come from a cache.
  const projectId = await projectOfSession({ sessionId });
  const longTerm = await loadLongTermMemory({ userId, projectId });
  const offered = await offeredTools({ sessionId, userId, longTermMemory: longTerm.enabled });
  const embedding = overrides.clientMemory ? null : await questionEmbedding({ userId, sessionId, request });
  return withTransaction(async (tx) => {
    const lease = await takeLease(
      { sessionId, userId, leaseId: randomUUID(), leaseSeconds, seqs: seqsOf(request) },
      { tx },
    );
    const { model, spec } = pickTurnModel(models, {
      requested: overrides.model ?? (request.kind === "regenerate" ? request.model : undefined),
      stored: lease.model,
    });
    const { question, answer, steps = [] } = await appendOrReopen(tx, { lease, request, model: spec.id });
    // The user's uploads become this message's attachments (422, rolled back, if one cannot be).
    const attached =
      "attachments" in request && request.attachments.length > 0
        ? await claimAttachments({ userId, messageId: question.id, ids: request.attachments }, { tx })
        : null;
    const config = memoryConfig(storedMemorySettings(lease.memorySettings), spec);
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
    // A client that sends the conversation itself decides its context: nothing is recalled beside it.
    const recall = overrides.clientMemory
      ? null
      : await loadRecall(
          {
            userId,
            sessionId,
            projectId,
            config,
            question,
            memory: memory.items,
            embedding,
            startSeq: lease.memoryStartSeq,
          },
          { tx },
        );
    const begun = contextFor({
      systemPrompt: overrides.systemPrompt ?? env.CHAT_SYSTEM_PROMPT,
      instructions: await loadInstructions({ sessionId, userId }, { tx }),
      longTerm,
      recall,
      memory: visibleItems(spec, overrides.clientMemory ?? memory.items),
      question: visibleItems(spec, [questionItem])[0] as MemoryItem,
      config,
      model: spec.id,
      tools: toolDefinitions(toolsFor(spec, offered.tools)),
    });
    // A retried answer's tool steps stay: the new attempt is sent them, as the interrupted one was.
    const context = steps.length > 0 ? withToolStep(begun, steps, config.tokenizer) : begun;
    await recordContext(
      { sessionId, answerId: answer.id, record: contextRecord(context, offered.unavailable) },
      { tx },
    );
    return {
      userId,
      kind: request.kind,
      lease,
      leaseSeconds,
      model,
      modelSpec: { id: spec.id, name: spec.name },
      config,
      question,
      questionItem,
      answer,
      memory: memory.items,
      memoryVersion: memory.version,
      context,
      steps,
      tools: toolsKept(toolsFor(spec, offered.tools), context),
      unavailableTools: offered.unavailable,
      longTermMemory: longTerm.enabled,
      projectId,
      namesConversation: (request.kind === "ask" || request.kind === "edit") && question.seq === 1,
    };
  });
}

const toolsFor = <T>(spec: ModelSpec, tools: T[]): T[] => (spec.tools ? tools : []);

/**
 * The turn's question and its empty answer: a new question after the active leaf or the given parent, a new
 * version of an answer beside it, or the retried answer reopened — when the retry rule allows it.
 */
async function appendOrReopen(
  tx: Tx,
  { lease, request, model }: { lease: Lease; request: TurnRequest; model: string },
): Promise<{ question: Question; answer: StoredMessage; steps?: MemoryItem[] }> {
  const { sessionId } = lease;
  switch (request.kind) {
    case "ask":
    case "edit": {
      const parent =
        request.kind === "ask" ? lease.activeLeaf : await parentFor(tx, sessionId, request.parentId);
      const { question, answer } = await appendTurnMessages(
        { lease, content: request.content, model, parentId: parent?.id ?? null },
        { tx },
      );
      return { question: { ...question, parent }, answer };
    }
    case "regenerate": {
      const question = await getQuestionOf({ sessionId, answerId: request.answerId }, { tx });
      if (!question) throw new AppError("not_found", "There is no such answer in this conversation.");
      const answer = await appendRegeneratedAnswer({ lease, questionId: question.id, model }, { tx });
      return { question, answer };
    }
    case "retry": {
      const { answer, question, steps } = await getAnswerWithQuestion(
        { sessionId, answerId: request.answerId },
        { tx },
      );
      const refusal = retryRefusal({ answer, question, lastSeq: lease.seqBefore, steps: steps.length });
      if (refusal || !question) throw new AppError("conflict", refusal ?? "This answer cannot be retried.");
      const reopened = await reopenAnswer({ sessionId, answerId: request.answerId, model }, { tx });
      return {
        question: { ...question, parent: await nodeRef(tx, sessionId, question.parentId) },
        answer: reopened,
        steps: steps.map(messageToItem),
      };
    }
  }
}

/** The message a new question may follow: a finished answer of this conversation (null: a new root). */
async function parentFor(tx: Tx, sessionId: string, parentId: string | null) {
  if (parentId === null) return null;
  const node = await getNode({ sessionId, messageId: parentId }, { tx });
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
  const node = await getNode({ sessionId, messageId: id }, { tx });
  return node ? { id: node.id, seq: node.seq } : null;
}

/**
 * The context lib/memory composes with the conversation's budget, assembled and counted; a question that alone
 * does not fit is a 422.
 */
function contextFor({
  systemPrompt,
  instructions,
  longTerm,
  recall,
  memory,
  question,
  config,
  model,
  tools,
}: {
  systemPrompt: string;
  instructions: Instruction[];
  longTerm: LongTermMemory;
  recall: RecallInput | null;
  memory: MemoryItem[];
  question: MemoryItem;
  config: MemoryConfig;
  model: string;
  tools: ToolDefinition[];
}): BuiltContext {
  try {
    const composed = composeContext({
      systemPrompt,
      instructions,
      longTerm: longTermSection({
        facts: longTerm.facts,
        question: question.text,
        maxTokens: env.LONG_TERM_MEMORY_MAX_TOKENS,
        count: config.tokenizer.countItem,
      }),
      recall,
      memory,
      question,
      count: config.tokenizer.countItem,
      replyPriming: config.tokenizer.replyPriming,
      maxTokens: config.contextMaxTokens,
      modelContextTokens: config.modelContextTokens,
      tools: tools.map((t) => ({ name: t.name, tokens: config.tokenizer.countText(t.text) })),
    });
    return buildContext({ composed, tools, policyId: config.policy.id, model, tokenizer: config.tokenizer });
  } catch (e) {
    if (!(e instanceof ContextBudgetError)) throw e;
    throw new AppError(
      "question_too_long",
      `This message is too long for the model: it needs ${e.requiredTokens} tokens with the system prompt, and at most ${e.budget} fit. Shorten it and send it again.`,
      { details: { questionTokens: e.questionTokens, requiredTokens: e.requiredTokens, budget: e.budget } },
    );
  }
}

/** The context as the turn records it (TurnContext), with the tools offered and the servers missing. */
export function contextRecord(context: BuiltContext, unavailable: readonly UnavailableServer[] = []) {
  return {
    entries: context.entries,
    tools: toolTrace(context, unavailable),
    tokenEstimate: context.tokenEstimate,
    policy: context.policyId,
    model: context.model,
  };
}
