"use client";

import { useCallback, useEffect, useRef } from "react";
import { getJson } from "@/lib/client/api";
import type { ConversationPage } from "@/lib/client/types";
import { useChat } from "./chat-store";
import { setTabTitle } from "./tab-title";
import { useRevalidateSessions } from "./use-sessions";

/**
 * When to look for the automatic title after a conversation's first answer (ms after the previous look). The server
 * writes it in the background once the answer is complete (lib/chat/auto-title.ts): usually within a second, a few
 * seconds with a slow model. After the last look the title is left to the next visit — nothing polls for ever.
 */
const TITLE_LOOKS_MS = [400, 800, 1500, 3000, 6000] as const;

/**
 * Follows the automatic title of a new conversation: after its first answer, reads the conversation a few times
 * (TITLE_LOOKS_MS) until its title differs from the one in the store, then shows it (the page's heading, the tab
 * and the sidebar). Stops on unmount, and when another conversation is watched.
 */
export function useAutoTitle(): (sessionId: string) => void {
  const { store } = useChat();
  const revalidateSessions = useRevalidateSessions();
  const watch = useRef<AbortController | null>(null);
  useEffect(() => () => watch.current?.abort(), []);

  return useCallback(
    (sessionId: string) => {
      watch.current?.abort();
      const controller = new AbortController();
      watch.current = controller;
      void (async () => {
        for (const ms of TITLE_LOOKS_MS) {
          await new Promise((resolve) => setTimeout(resolve, ms));
          if (controller.signal.aborted) return;
          // The newest page of one message: the session's title is what is wanted here.
          const page = await getJson<ConversationPage>(`/api/sessions/${sessionId}?limit=1`).catch(
            () => null,
          );
          if (controller.signal.aborted) return;
          const title = page?.session?.title;
          if (title && title !== store.getState().conversations[sessionId]?.title) {
            store.dispatch({ type: "titleChanged", key: sessionId, title });
            if (store.getState().shown === sessionId) setTabTitle(title);
            revalidateSessions();
            return;
          }
          // Renamed by the user meanwhile: that title stands, and the rename already showed it.
          if (page?.session?.titleByUser) return;
        }
      })();
    },
    [store, revalidateSessions],
  );
}
