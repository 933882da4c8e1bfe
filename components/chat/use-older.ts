"use client";

import { useCallback } from "react";
import { fetchOlderMessages } from "@/lib/client/api";
import { shownConversation, shownSessionId } from "@/lib/client/conversation-store";
import type { ChatMessageView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { useChat } from "./chat-store";

/** Loads the page of history before the first message on screen. */
export function useLoadOlder(): () => Promise<void> {
  const { store } = useChat();
  const t = useT("chat");
  const errorText = useErrorText();
  return useCallback(async () => {
    const state = store.getState();
    const sessionId = shownSessionId(state);
    const first = shownConversation(state).messages[0];
    if (!sessionId || !first) return;
    store.dispatch({ type: "olderRequested", key: sessionId });
    try {
      const page = await fetchOlderMessages<ChatMessageView>(
        `/api/sessions/${sessionId}?before=${first.seq}`,
      );
      store.dispatch({ type: "olderLoaded", key: sessionId, page });
    } catch (e) {
      store.dispatch({
        type: "olderFailed",
        key: sessionId,
        error: t("loadOlderFailed", { reason: errorText(e) }),
      });
    }
  }, [store, t, errorText]);
}
