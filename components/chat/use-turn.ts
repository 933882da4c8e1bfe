"use client";

import { useCallback, useEffect } from "react";
import { stopAnswer } from "@/lib/client/api";
import { actionOfEvent, type TurnStart } from "@/lib/client/conversation-store";
import { followAnswer, streamTurn, type TurnBody, type TurnResult } from "@/lib/client/turn-stream";
import type { ChatMessageView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { useChat, useShown } from "./chat-store";

/**
 * Streams turns into the store (POST /api/sessions/:id/messages, Server-Sent Events), follows answers written
 * elsewhere (…/messages/:messageId/stream); Stop and Retry. The server writes an answer until it ends or Stop is
 * pressed (decision 033): Stop asks it to (…/stop), leaving a stream only stops following.
 */
/**
 * The answer each running turn streams, once the server has named it, by the turn's controller: the screen's hooks
 * (send, branches, the composer's Stop) share the controller, so Stop finds the answer whichever hook started it.
 */
const answers = new WeakMap<AbortController, { sessionId: string; messageId: string }>();

export function useTurn() {
  const { store, abort } = useChat();
  const t = useT("chat");
  const errorText = useErrorText();
  const LOST = t("message.lost");
  const NOT_SENT = errorText({ code: "not_sent" });
  const streaming = useShown((c) => c.turn !== null);

  useEffect(() => () => abort.current?.abort(), [abort]);

  /**
   * Streams one turn of conversation `sessionId`, shown as `start` says. On `meta` the temporary ids
   * (`userTempId`, the answer's placeholder) take the server's, and `onAccepted` runs; anything but acceptance
   * puts the path back as it was.
   */
  const run = useCallback(
    async (
      sessionId: string,
      body: TurnBody,
      start: TurnStart,
      { userTempId, onAccepted }: { userTempId?: string; onAccepted?: () => void } = {},
    ): Promise<TurnResult> => {
      const key = sessionId;
      const controller = new AbortController();
      abort.current = controller;
      store.dispatch({ type: "turnStarted", key, start });
      const result = await streamTurn({
        sessionId,
        body,
        signal: controller.signal,
        notSent: NOT_SENT,
        lost: LOST,
        onEvent: (event) => {
          store.dispatch(actionOfEvent(key, event, errorText, userTempId));
          if (event.type === "meta") {
            answers.set(controller, { sessionId, messageId: event.assistantMessage.id });
            onAccepted?.();
          }
        },
      });
      if (result.kind === "accepted" && result.ending === "stopped")
        store.dispatch({ type: "done", key, status: "interrupted" });
      if (result.kind === "accepted" && result.ending === "lost")
        store.dispatch({ type: "done", key, status: "failed", error: LOST });
      if (abort.current === controller) abort.current = null;
      store.dispatch({ type: "turnEnded", key, accepted: result.kind === "accepted" });
      return result;
    },
    [store, abort, LOST, NOT_SENT, errorText],
  );

  /** Follows answer `messageId`, written elsewhere, until it ends; false when the stream could not be followed. */
  const follow = useCallback(
    async (sessionId: string, messageId: string): Promise<boolean> => {
      const key = sessionId;
      const controller = new AbortController();
      abort.current = controller;
      answers.set(controller, { sessionId, messageId });
      store.dispatch({ type: "turnStarted", key, start: { kind: "follow", of: messageId } });
      const ending = await followAnswer({
        sessionId,
        messageId,
        signal: controller.signal,
        onEvent: (event) => store.dispatch(actionOfEvent(key, event, errorText)),
      });
      if (abort.current === controller) abort.current = null;
      store.dispatch({ type: "turnEnded", key, accepted: ending === "finished" });
      return ending === "finished";
    },
    [store, abort, errorText],
  );

  // Before the server has named the answer there is nothing to stop there: the request itself is cancelled.
  const stop = useCallback(() => {
    const running = abort.current ? answers.get(abort.current) : undefined;
    if (!running) {
      abort.current?.abort();
      return;
    }
    stopAnswer(running.sessionId, running.messageId).catch(() => abort.current?.abort());
  }, [abort]);

  /**
   * Asks for a new answer in place of the failed or interrupted `message`. Until the server takes it the old
   * answer stays as it was; a refusal is returned for the caller to show.
   */
  const retry = useCallback(
    async (sessionId: string, message: ChatMessageView): Promise<string | null> => {
      const result = await run(sessionId, { retryMessageId: message.id }, { kind: "retry", of: message.id });
      if (result.kind === "accepted" || result.kind === "stopped") return null;
      return result.kind === "unreachable" ? t("message.notRetried") : errorText(result.error);
    },
    [run, t, errorText],
  );

  return { streaming, run, stop, retry, follow };
}
