"use client";

import { useEffect } from "react";
import {
  leaveTemporaryChat,
  setNextChatTemporary,
  stayInTemporaryChat,
  useIsTemporaryChat,
  useNextChatTemporary,
} from "@/lib/client/temporary-chats";
import { useT } from "@/lib/i18n/client";

/** Where a new chat starts: switches the conversation about to be started to a temporary chat and back. */
export function TemporaryChatToggle() {
  const t = useT("share");
  const on = useNextChatTemporary();
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => setNextChatTemporary(!on)}
      title={t("temporary.startHint")}
      className={`rounded-md border px-2 py-1 focus-visible:outline-2 focus-visible:outline-zinc-900 ${
        on ? "border-zinc-900 bg-zinc-900 text-white" : "border-zinc-200 text-zinc-700 hover:bg-zinc-100"
      }`}
      data-testid="temporary-toggle"
    >
      {t("temporary.start")}
    </button>
  );
}

/**
 * The banner of a temporary chat (or of a new chat about to be one). Leaving the chat — another conversation, a new
 * chat, closing or reloading the tab — deletes it.
 */
export function TemporaryChatBanner({ sessionId }: { sessionId: string | null }) {
  const t = useT("share");
  const next = useNextChatTemporary();
  const temporary = useIsTemporaryChat(sessionId);

  useEffect(() => {
    if (!sessionId || !temporary) return;
    stayInTemporaryChat(sessionId);
    const onHide = () => leaveTemporaryChat(sessionId, { now: true });
    window.addEventListener("pagehide", onHide);
    return () => {
      window.removeEventListener("pagehide", onHide);
      leaveTemporaryChat(sessionId);
    };
  }, [sessionId, temporary]);

  if (!(sessionId ? temporary : next)) return null;
  return (
    <p
      role="status"
      className="border-b border-zinc-200 bg-sky-50 px-4 py-2 text-sm text-sky-900"
      data-testid="temporary-banner"
    >
      {t("temporary.banner")}
    </p>
  );
}
