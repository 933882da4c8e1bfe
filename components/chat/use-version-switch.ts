"use client";

import { useEffect, useRef } from "react";
import { versionId } from "@/lib/client/branches";
import type { ChatMessageView } from "@/lib/client/types";
import { useChat, useShown } from "./chat-store";
import type { useBranches } from "./use-branches";
import type { VersionStep } from "./version-switcher";

/**
 * Switching to another version of a message. The switch re-renders the switcher under another message: focus
 * goes back to the arrow that was used (or the other one, at the end of the versions).
 */
export function useVersionSwitch(branches: ReturnType<typeof useBranches>, busy: boolean) {
  const { store } = useChat();
  const messages = useShown((c) => c.messages);
  const refocus = useRef<{ key: string; step: VersionStep } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the switched path is on the page
  useEffect(() => {
    const want = refocus.current;
    if (!want || branches.switching) return;
    refocus.current = null;
    const group = document.querySelector(`[data-versions="${CSS.escape(want.key)}"]`);
    const other = want.step === "next" ? "previous" : "next";
    const button =
      group?.querySelector<HTMLButtonElement>(`[data-testid="version-${want.step}"]:not(:disabled)`) ??
      group?.querySelector<HTMLButtonElement>(`[data-testid="version-${other}"]:not(:disabled)`);
    button?.focus();
  }, [messages, branches.switching]);

  return async (message: ChatMessageView, step: VersionStep) => {
    const target = versionId(message.siblings, step === "next" ? 1 : -1);
    if (!target || !message.siblings || busy) return;
    store.dispatch({ type: "editChanged", key: store.getState().shown, editing: null });
    refocus.current = { key: message.siblings.ids[0] ?? "", step };
    if (!(await branches.showBranch(target))) refocus.current = null;
  };
}
