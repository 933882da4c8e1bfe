import "server-only";
import { resolveAttachmentRefs } from "@/lib/attachments/resolve";
import { withToolStep } from "@/lib/context";
import { appendToolStep } from "@/lib/db/messages";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { callMcpTool, isMcpToolName } from "@/lib/mcp";
import type { MemoryItem, ToolCall } from "@/lib/memory";
import { contextRecord, type TurnPlan } from "./begin-turn";
import { withStorageRetry } from "./commit-turn";
import type { TurnEvent } from "./sse";
import { type AnswerDraft, type AnswerResult, streamAnswer } from "./stream-answer";
import { runTool, type ToolContext, type ToolResult } from "./tools";

/** How the model's part of a turn ended: its answer, the tool steps before it, and where the answer now sits. */
export interface RunOutcome {
  answer: AnswerResult;
  steps: MemoryItem[];
  answerSeq: number;
  /** A tool step found the lease taken over: nothing more may be written. */
  leaseLost?: boolean;
}

/** A running turn: its events, the draft its loop writes (the heartbeat reads it), and how it ended. */
export interface TurnRun extends AsyncIterable<TurnEvent> {
  readonly draft: AnswerDraft;
  /** Set once the events are exhausted. */
  readonly outcome: RunOutcome | undefined;
  /**
   * The answer's first text was yielded in this turn of the event loop, so no transport has written it yet: all of
   * it arrived in one read. A commit run now would hold it back (see `turnEvents`).
   */
  readonly textUnwritten: boolean;
}

/**
 * Runs the model for a begun turn: meta, then the answer's deltas, running the tools the model asks for and
 * calling it again with their results, up to TOOL_MAX_STEPS steps (then it must answer in text). Each step is
 * stored before the next call, so a crash keeps what the tools did; the answer keeps its id and moves after the
 * steps. `signal` stops the model (the answer then ends interrupted with the text so far) and the tools: no call
 * starts after it, and a step it interrupted is not stored, so nothing the tools returned is written after a stop.
 */
export function runTurn(plan: TurnPlan, signal: AbortSignal): TurnRun {
  let text = "";
  let outcome: RunOutcome | undefined;
  let firstText: "none" | "yielded" | "written" = "none";
  async function* events(): AsyncGenerator<TurnEvent> {
    yield metaOf(plan);
    const maxSteps = env.TOOL_MAX_STEPS;
    const tools = maxSteps > 0 ? plan.tools : [];
    const offered = new Set(tools.map((t) => t.name));
    const toolContext: ToolContext = {
      userId: plan.userId,
      sessionId: plan.lease.sessionId,
      questionId: plan.question.id,
      longTermMemory: plan.longTermMemory,
      projectId: plan.projectId,
    };
    let context = plan.context;
    let answerSeq = plan.answer.seq;
    let answerParentId = plan.answer.parentId;
    const steps: MemoryItem[] = [...plan.steps];
    for (let step = 0; ; step++) {
      const stream = streamAnswer({
        items: context.items,
        prepare: (items) => resolveAttachmentRefs(items, { userId: plan.userId }),
        model: plan.model,
        signal,
        tools,
        toolChoice: step < maxSteps ? "auto" : "none",
      });
      let next = await stream.next();
      for (; !next.done; next = await stream.next()) {
        if (firstText === "none") {
          firstText = "yielded";
          // Transports write on the next turn of the event loop (lib/chat/event-stream.ts): by then it is out.
          setImmediate(() => {
            firstText = "written";
          });
        }
        text += next.value;
        yield { type: "delta", text: next.value };
      }
      const answer = next.value;
      text = answer.outcome.text;
      const calls: ToolCall[] = answer.toolCalls ?? [];
      if (calls.length === 0 || answer.outcome.status !== "complete") {
        outcome = { answer, steps, answerSeq };
        return;
      }
      for (const call of calls)
        yield { type: "tool_call", id: call.id, name: call.name, arguments: call.arguments };
      const results: ToolResult[] = [];
      for (const call of calls) {
        if (signal.aborted) break;
        const result = await callTool(call, { offered, toolContext, signal });
        if (signal.aborted) break;
        results.push(result);
        yield {
          type: "tool_result",
          id: result.toolCallId,
          name: result.name,
          ok: result.ok,
          result: result.text,
        };
      }
      if (signal.aborted) {
        const reason: unknown = signal.reason;
        const interrupted = { status: "interrupted" as const, text: answer.outcome.text };
        const stopped =
          reason instanceof AppError ? { outcome: interrupted, failure: reason } : { outcome: interrupted };
        outcome = { answer: stopped, steps, answerSeq };
        return;
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
      context = withToolStep(context, stepItems, plan.config.tokenizer);
      const stored = await withStorageRetry(plan.lease.sessionId, () =>
        appendToolStep({
          lease: plan.lease,
          answerId: plan.answer.id,
          answerSeq,
          answerParentId,
          call: { text: answer.outcome.text, toolCalls: calls },
          results,
          model: plan.model.model,
          context: contextRecord(context, plan.unavailableTools),
        }),
      );
      if (!stored) {
        outcome = {
          answer: { outcome: { status: "interrupted", text: "" } },
          steps,
          answerSeq,
          leaseLost: true,
        };
        return;
      }
      answerSeq = stored.answerSeq;
      answerParentId = stored.answerParentId;
      steps.push(...stepItems);
      text = "";
    }
  }
  return {
    draft: {
      get text() {
        return text;
      },
    },
    get outcome() {
      return outcome;
    },
    get textUnwritten() {
      return firstText === "yielded";
    },
    [Symbol.asyncIterator]: events,
  };
}

/** Runs one call: an MCP tool offered in this turn through its server, anything else as one of Recall's own. */
async function callTool(
  call: ToolCall,
  { offered, toolContext, signal }: { offered: Set<string>; toolContext: ToolContext; signal: AbortSignal },
): Promise<ToolResult> {
  if (!isMcpToolName(call.name) || !offered.has(call.name)) return runTool(call, toolContext);
  const result = await callMcpTool({ name: call.name, arguments: call.arguments, signal });
  return { toolCallId: call.id, name: call.name, ok: result.ok, text: result.text };
}

function metaOf(plan: TurnPlan): TurnEvent {
  const ref = (m: TurnPlan["answer"]) => ({
    id: m.id,
    seq: m.seq,
    parentId: m.parentId,
    createdAt: m.createdAt.toISOString(),
  });
  return {
    type: "meta",
    userMessage: ref(plan.question),
    assistantMessage: ref(plan.answer),
    model: plan.model.model,
    offline: plan.model.offline,
  };
}
