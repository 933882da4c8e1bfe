"use client";

import { useCallback, useEffect, useState } from "react";

// What the user typed is kept in localStorage per conversation (and one slot for the new-chat page) until the
// server has accepted the message, so neither a reload nor a failed send loses it.

const PREFIX = "recall:draft:";
export const NEW_CHAT = "new";

export const draftKey = (sessionId: string | null) => `${PREFIX}${sessionId ?? NEW_CHAT}`;

function read(sessionId: string | null): string {
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
 * The composer's text for `sessionId`. `setText` saves every change; `takeForSending` empties the composer
 * but keeps the saved copy until `forgetDraft` (the server accepted it) or `giveBack` (it did not).
 */
export function useDraft(sessionId: string | null) {
  const [text, setTextState] = useState("");

  // Read after mount: the server rendered an empty composer, and the stored draft is this browser's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a view reads its draft once; `reload` re-reads
  useEffect(() => {
    setTextState(read(sessionId));
  }, []);

  const setText = useCallback(
    (value: string) => {
      setTextState(value);
      storeDraft(sessionId, value);
    },
    [sessionId],
  );

  /** Empties the composer; the saved copy stays until the outcome is known. */
  const takeForSending = useCallback(() => setTextState(""), []);

  /** The message was not sent: back into the composer and into storage under `owner`. */
  const giveBack = useCallback((owner: string | null, value: string) => {
    setTextState(value);
    storeDraft(owner, value);
  }, []);

  /** Shows the saved draft of `owner` (a view that switched conversations without remounting). */
  const reload = useCallback((owner: string | null) => setTextState(read(owner)), []);

  return { text, setText, takeForSending, giveBack, reload };
}
