"use client";

import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef } from "react";

/**
 * A new chat takes its conversation's address with history.replaceState — no navigation, so its stream is never
 * cut. Next.js then still renders the new-chat page, so coming back to `/` from that address ("New chat") must
 * clear the view: `onNewChat` runs then, but not when this view moved the address itself (`claimAddress`).
 */
export function useConversationAddress({
  isNewChatPage,
  onNewChat,
}: {
  isNewChatPage: boolean;
  onNewChat: () => void;
}) {
  const pathname = usePathname();
  const previous = useRef(pathname);
  const claimed = useRef<string | null>(null);
  const reset = useRef(onNewChat);
  reset.current = onNewChat;

  useEffect(() => {
    const was = previous.current;
    previous.current = pathname;
    if (claimed.current === pathname) {
      claimed.current = null;
      return;
    }
    if (isNewChatPage && pathname === "/" && was !== "/") reset.current();
  }, [pathname, isNewChatPage]);

  return useCallback((path: string) => {
    claimed.current = path;
    window.history.replaceState(null, "", path);
  }, []);
}
