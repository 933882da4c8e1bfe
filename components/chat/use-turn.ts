"use client";

import { useCallback, useEffect } from "react";
import { actionOfEvent, type TurnStart } from "@/lib/client/conversation-store";
import { streamTurn, type TurnBody, type TurnResult } from "@/lib/client/turn-stream";
import type { ChatMessageView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { useChat, useShown } from "./chat-store";

/** Streams turns into the store (POST /api/sessions/:id/messages, Server-Sent Events); Stop and Retry. */
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
          if (event.type === "meta") onAccepted?.();
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

  const stop = useCallback(() => abort.current?.abort(), [abort]);

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

  return { streaming, run, stop, retry };
}
