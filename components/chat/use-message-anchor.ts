"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";

// The address /c/:id?message=<messageId> opens a conversation at one message (the /memory page links a fact to
// the message it was learned from, search links a hit). Older pages of the branch shown are loaded until the
// message is there; when it is on another branch, that branch is made the active one and searched the
// same way. The message is then scrolled to, marked and focused, once per address.

/** Classes that mark the anchored message (kept here so Tailwind generates them). */
const MARK = ["ring-2", "ring-amber-300", "ring-offset-4", "ring-offset-white", "rounded-2xl"];

export function useMessageAnchor({
  messages,
  hasMore,
  loadingOlder,
  loadOlder,
  showBranch,
}: {
  messages: { id: string; seq: number }[];
  hasMore: boolean;
  loadingOlder: boolean;
  /** Loads the page of history before the first message shown. */
  loadOlder: () => void;
  /** Makes the branch through the message the active one and shows it; resolves whether it could. */
  showBranch?: (messageId: string) => Promise<boolean>;
}): { target: string | null; missing: boolean } {
  const target = useSearchParams().get("message");
  const done = useRef<string | null>(null);
  // How many messages were shown when older ones were last asked for: a failed load is not retried in a loop.
  const askedAt = useRef(-1);
  const [missing, setMissing] = useState(false);
  // The address whose branch was asked for (once: a message on no branch at all is missing), and, once the answer
  // came, the address it was for.
  const branchAsked = useRef<string | null>(null);
  const [branchTried, setBranchTried] = useState<string | null>(null);

  useEffect(() => {
    if (!target || done.current === target) return;
    const found = messages.find((m) => m.id === target);
    if (!found) {
      if (hasMore && !loadingOlder && askedAt.current !== messages.length) {
        askedAt.current = messages.length;
        loadOlder();
      } else if (!hasMore && showBranch && branchAsked.current !== target) {
        branchAsked.current = target;
        askedAt.current = -1;
        void showBranch(target).then(() => setBranchTried(target));
      } else if (!hasMore && (!showBranch || branchTried === target)) {
        done.current = target;
        setMissing(true);
      }
      return;
    }
    const el = document.querySelector<HTMLElement>(`[data-testid="message"][data-seq="${found.seq}"]`);
    if (!el) return;
    done.current = target;
    setMissing(false);
    el.setAttribute("data-anchored", "true");
    el.tabIndex = -1;
    el.querySelector('[data-testid="message-text"]')?.classList.add(...MARK);
    el.scrollIntoView({ block: "center" });
    el.focus({ preventScroll: true });
  }, [target, messages, hasMore, loadingOlder, loadOlder, showBranch, branchTried]);

  return { target, missing };
}
