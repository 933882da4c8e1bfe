"use client";

import { useCallback, useEffect } from "react";
import { keyOf } from "@/lib/client/conversation-store";
import { useChat, useShown, useShownSessionId } from "./chat-store";

// What the user typed is kept in localStorage per conversation (and one slot for the new-chat page) until the
// server has accepted the message, so neither a reload nor a failed send loses it. The store holds what the
// composer shows; these functions keep storage in step.

const PREFIX = "recall:draft:";

const draftKey = (sessionId: string | null) => `${PREFIX}${keyOf(sessionId)}`;

export function readDraft(sessionId: string | null): string {
  try {
    return window.localStorage.getItem(draftKey(sessionId)) ?? "";
  } catch {
    return ""; // storage disabled: drafts only live as long as the page
  }
}

export function storeDraft(sessionId: string | null, text: string) {
  try {
    if (text) window.localStorage.setItem(draftKey(sessionId), text);
    else window.localStorage.removeItem(draftKey(sessionId));
  } catch {
    // storage full or disabled: the text is still in the composer
  }
}

export function forgetDraft(sessionId: string | null) {
  storeDraft(sessionId, "");
}

/**
 * The composer's text for the conversation on screen. `setText` saves every change; `takeForSending` empties the
 * composer but keeps the saved copy until `forgetDraft` (the server accepted it) or `giveBack` (it did not).
 */
export function useDraft() {
  const { store } = useChat();
  const sessionId = useShownSessionId();
  const text = useShown((c) => c.draft);

  // Read after mount: the server rendered an empty composer, and the stored draft is this browser's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a view reads its draft once; New chat reads its own
  useEffect(() => {
    store.dispatch({ type: "draftChanged", key: keyOf(sessionId), text: readDraft(sessionId) });
  }, []);

  const setText = useCallback(
    (value: string) => {
      store.dispatch({ type: "draftChanged", key: keyOf(sessionId), text: value });
      storeDraft(sessionId, value);
    },
    [store, sessionId],
  );

  /** Empties the composer of `owner`; the saved copy stays until the outcome is known. */
  const takeForSending = useCallback(
    (owner: string | null) => store.dispatch({ type: "draftChanged", key: keyOf(owner), text: "" }),
    [store],
  );

  /** The message was not sent: back into the composer and into storage under `owner`. */
  const giveBack = useCallback(
    (owner: string | null, value: string) => {
      store.dispatch({ type: "draftChanged", key: keyOf(owner), text: value });
      storeDraft(owner, value);
    },
    [store],
  );

  return { text, setText, takeForSending, giveBack };
}
