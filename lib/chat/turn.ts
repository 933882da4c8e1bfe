import "server-only";
import { buildContext } from "@/lib/context";
import { beginTurn, commitTurn, type TurnOutcome } from "@/lib/db/turns";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getModel, isAbortError, streamReply } from "@/lib/llm";
import { type MemoryItem, policyFromConfig } from "@/lib/memory";
import type { TurnInput } from "./schemas";
import { encodeEvent, type TurnEvent } from "./sse";

/** The memory policy in force and how deep a rebuild reads — shared by turns and by the admin's "next turn" view. */
export function memoryConfig() {
  return {
    policy: policyFromConfig({ enabled: env.MEMORY_ENABLED, maxMessages: env.MEMORY_MAX_MESSAGES }),
    // Room for an unanswered message beside every windowed one, so a rebuild still fills the window.
    tailRows: env.MEMORY_ENABLED ? env.MEMORY_MAX_MESSAGES * 2 + 2 : 0,
  };
}

/**
 * Runs one turn and returns its event stream. Everything before the first byte (lease, user message,
 * memory, recorded context) happens in one transaction; the commit happens when the model is done, the
 * stream fails, or the client stops it — whichever comes first, exactly once.
 */
export async function startTurn({
  sessionId,
  userId,
  input,
  signal,
}: {
  sessionId: string;
  userId: string;
  input: TurnInput;
  signal?: AbortSignal;
}): Promise<ReadableStream<Uint8Array>> {
  const { policy, tailRows } = memoryConfig();
  const model = getModel();
  let contextItems: MemoryItem[] = [];

  const { turn } = await beginTurn({
    sessionId,
    userId,
    ...("content" in input ? { content: input.content } : { retryMessageId: input.retryMessageId }),
    policy,
    tailRows,
    leaseSeconds: env.TURN_LEASE_SECONDS,
    model: model.model,
    record: (memory, question) => {
      const built = buildContext({
        systemPrompt: env.CHAT_SYSTEM_PROMPT,
        memory,
        question,
        policyId: policy.id,
        model: model.model,
      });
      contextItems = built.items;
      return {
        entries: built.entries,
        tokenEstimate: built.tokenEstimate,
        policy: built.policyId,
        model: built.model,
      };
    },
  });

  const abort = new AbortController();
  if (signal?.aborted) abort.abort();
  else signal?.addEventListener("abort", () => abort.abort(), { once: true });

  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (event: TurnEvent) => {
        if (!open) return;
        try {
          controller.enqueue(encodeEvent(event));
        } catch {
          open = false;
        }
      };
      // Deltas that arrive within one turn of the event loop leave as one frame: a fast model would otherwise
      // cost a network write per word. Nothing waits longer than that, so tokens still stream as they arrive.
      let pending = "";
      let flushScheduled = false;
      const flush = () => {
        flushScheduled = false;
        if (pending) write({ type: "delta", text: pending });
        pending = "";
      };
      const send = (event: TurnEvent) => {
        if (event.type === "delta") {
          pending += event.text;
          if (!flushScheduled) {
            flushScheduled = true;
            setImmediate(flush);
          }
          return;
        }
        flush();
        write(event);
      };
      send({
        type: "meta",
        userMessage: { id: turn.user.id, seq: turn.user.seq, createdAt: turn.user.createdAt.toISOString() },
        assistantMessage: {
          id: turn.assistant.id,
          seq: turn.assistant.seq,
          createdAt: turn.assistant.createdAt.toISOString(),
        },
        model: model.model,
        offline: model.offline,
      });

      void (async () => {
        let text = "";
        let outcome: TurnOutcome;
        let failure: AppError | undefined;
        try {
          for await (const event of streamReply({ items: contextItems, signal: abort.signal })) {
            if (event.type === "delta") {
              text += event.text;
              send({ type: "delta", text: event.text });
            } else {
              text = event.text;
              outcome = {
                status: "complete",
                text,
                promptTokens: event.usage?.promptTokens,
                completionTokens: event.usage?.completionTokens,
              };
            }
          }
          outcome ??= { status: "complete", text };
        } catch (e) {
          if (isAbortError(e) || abort.signal.aborted) {
            outcome = { status: "interrupted", text };
          } else {
            failure =
              e instanceof AppError
                ? e
                : new AppError("model_error", "The model did not answer.", { cause: e });
            const cause =
              failure.cause instanceof Error ? failure.cause.message : String(failure.cause ?? "");
            console.error(
              `[chat] turn failed in session ${sessionId}: ${failure.code}: ${failure.message} (${cause})`,
            );
            outcome = { status: "failed", text };
          }
        }
        try {
          const committed = await commitTurn({ turn, outcome, policy });
          if (!committed) {
            send({
              type: "error",
              code: "not_found",
              message: "This conversation was deleted while answering.",
            });
          } else if (failure) {
            send({ type: "error", code: failure.code, message: failure.message });
          } else {
            const usage =
              outcome.status === "complete"
                ? { promptTokens: outcome.promptTokens, completionTokens: outcome.completionTokens }
                : {};
            send({
              type: "done",
              status: outcome.status === "complete" ? "complete" : "interrupted",
              ...usage,
            });
          }
        } catch (e) {
          console.error(`[chat] commit failed in session ${sessionId}:`, e);
          send({
            type: "error",
            code: "storage_error",
            message: "The answer could not be saved. Try again.",
          });
        }
        if (open) {
          open = false;
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        }
      })();
    },
    cancel() {
      abort.abort();
    },
  });
}
