"use client";

import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from "react";
import { readTurnEvents } from "@/lib/chat/sse";
import { useErrorText, useT } from "@/lib/i18n/client";
import { isAbort, RequestError, request } from "./api";
import type { ChatMessageView, ToolStepView } from "./types";

/**
 * How a turn ended, seen from before the server's `meta` event (which says the message is stored):
 * - accepted: `meta` arrived; whatever followed is shown on the answer itself.
 * - rejected: the server answered with an error before storing anything (validation, conflict, storage).
 * - unreachable: no answer at all — the message was not sent.
 * - stopped: the user pressed Stop before the server answered; the server may or may not hold the message.
 */
export type TurnResult =
  | { kind: "accepted" }
  | { kind: "rejected"; error: RequestError }
  | { kind: "unreachable"; error: RequestError }
  | { kind: "stopped" };

type SetMessages = Dispatch<SetStateAction<ChatMessageView[]>>;

/**
 * What POST /api/sessions/:id/messages is asked: a question (after `parentId` when given: null makes it a new first
 * question — an edit of the first one), a new answer to the question of `regenerate`, or a retry of a failed answer.
 */
export type TurnBody =
  | { content: string; parentId?: string | null; attachments?: string[] }
  | { regenerate: string }
  | { retryMessageId: string };

/** A message's parent as the server's `meta` event names it (absent from servers before issue 13). */
function parentOf(message: object): { parentId?: string | null } {
  const parentId = (message as { parentId?: unknown }).parentId;
  return typeof parentId === "string" || parentId === null ? { parentId } : {};
}

/** Streams turns (POST /api/sessions/:id/messages, Server-Sent Events) into the message list; Stop and Retry. */
export function useTurn(setMessages: SetMessages) {
  const t = useT("chat");
  const errorText = useErrorText();
  const LOST = t("message.lost");
  const NOT_SENT = errorText({ code: "not_sent" });
  const [streaming, setStreaming] = useState(false);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const patch = useCallback(
    (id: string, change: Partial<ChatMessageView>) =>
      setMessages((prev) => prev.map((m) => (m.id === id ? { ...m, ...change } : m))),
    [setMessages],
  );

  /**
   * Streams one turn into the assistant message `assistantId`. On `meta` the temporary ids (`userTempId`, the
   * placeholder) take the server's, and `onAccepted` runs.
   */
  const run = useCallback(
    async (
      sessionId: string,
      body: TurnBody,
      {
        assistantId,
        userTempId,
        onAccepted,
      }: { assistantId: string; userTempId?: string; onAccepted?: () => void },
    ): Promise<TurnResult> => {
      const controller = new AbortController();
      abortRef.current = controller;
      setStreaming(true);
      let current = assistantId;
      let accepted = false;
      let finished = false;
      let received = "";
      let steps: ToolStepView[] = [];
      try {
        const res = await request(
          `/api/sessions/${sessionId}/messages`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
            signal: controller.signal,
          },
          NOT_SENT,
        );
        if (!res.body) throw new RequestError(LOST, res.status);
        for await (const event of readTurnEvents(res.body)) {
          if (event.type === "meta") {
            const { userMessage, assistantMessage } = event;
            // React may run this updater after `current` has moved on: capture the placeholder now.
            const placeholder = current;
            setMessages((prev) =>
              prev.map((m) => {
                if (userTempId && m.id === userTempId)
                  return { ...m, id: userMessage.id, seq: userMessage.seq, ...parentOf(userMessage) };
                if (m.id === placeholder)
                  return {
                    ...m,
                    id: assistantMessage.id,
                    seq: assistantMessage.seq,
                    createdAt: assistantMessage.createdAt,
                    ...parentOf(assistantMessage),
                  };
                return m;
              }),
            );
            current = assistantMessage.id;
            accepted = true;
            onAccepted?.();
          } else if (event.type === "delta") {
            received += event.text;
            patch(current, { text: received });
          } else if (event.type === "tool_call") {
            // What was written before the call belongs to the step; the answer starts again after it.
            received = "";
            steps = [...steps, { id: event.id, name: event.name, arguments: event.arguments }];
            patch(current, { text: "", steps });
          } else if (event.type === "tool_result") {
            steps = steps.map((s) => (s.id === event.id ? { ...s, ok: event.ok, result: event.result } : s));
            patch(current, { steps });
          } else if (event.type === "done") {
            finished = true;
            patch(current, { status: event.status });
          } else if (event.type === "error") {
            finished = true;
            patch(current, { status: "failed", error: errorText(event) });
          }
        }
        if (!accepted) return { kind: "unreachable", error: new RequestError(NOT_SENT, 0) };
        // The stream ended without its last event: the connection broke, the answer is not known to be whole.
        if (!finished) patch(current, { status: "failed", error: LOST });
        return { kind: "accepted" };
      } catch (e) {
        if (accepted) {
          patch(
            current,
            controller.signal.aborted ? { status: "interrupted" } : { status: "failed", error: LOST },
          );
          return { kind: "accepted" };
        }
        if (isAbort(e) || controller.signal.aborted) return { kind: "stopped" };
        if (e instanceof RequestError && e.status > 0) return { kind: "rejected", error: e };
        return { kind: "unreachable", error: new RequestError(NOT_SENT, 0) };
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        setStreaming(false);
      }
    },
    [patch, setMessages, LOST, NOT_SENT, errorText],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);

  /**
   * Asks for a new answer in place of the failed or interrupted `message`. Until the server takes it the old
   * answer stays as it was; a refusal is returned for the caller to show.
   */
  const retry = useCallback(
    async (sessionId: string, message: ChatMessageView): Promise<string | null> => {
      patch(message.id, { text: "", status: "streaming", error: undefined });
      const result = await run(sessionId, { retryMessageId: message.id }, { assistantId: message.id });
      if (result.kind === "accepted") return null;
      patch(message.id, { text: message.text, status: message.status, error: message.error });
      if (result.kind === "stopped") return null;
      return result.kind === "unreachable" ? t("message.notRetried") : errorText(result.error);
    },
    [patch, run, t, errorText],
  );

  return { streaming, run, stop, retry, patch };
}
