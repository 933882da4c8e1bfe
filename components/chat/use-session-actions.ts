"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import type { Receipt } from "@/components/ui/receipt";
import { sendJson } from "@/lib/client/api";
import type { SessionSummary } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { setTabTitle } from "./tab-title";
import { forgetDraft } from "./use-draft";
import { type SessionsMutate, useRevalidateSessions } from "./use-sessions";

/** What a project's organizing PATCH changes (decision 036). */
export interface Organize {
  projectId?: string | null;
  pinned?: boolean;
  archived?: boolean;
}

/**
 * Rename (optimistic in the list that shows it, rolled back on failure), delete (with its receipt), and pin,
 * archive or move of the sidebar's conversations.
 */
export function useSessionActions() {
  const t = useT("sidebar");
  const errorText = useErrorText();
  const pathname = usePathname();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [toDelete, setToDeleteState] = useState<SessionSummary | null>(null);
  const [keepFacts, setKeepFacts] = useState(false);
  // Each dialog starts from "delete them too".
  const setToDelete = (session: SessionSummary | null) => {
    setKeepFacts(false);
    setToDeleteState(session);
  };
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const revalidate = useRevalidateSessions();

  /** Shows the new title at once; a refusal or a lost connection puts the old one back and says why. */
  async function rename(id: string, title: string, mutate: SessionsMutate) {
    setRenaming(null);
    setError(null);
    try {
      await mutate(
        async (pages) => {
          await sendJson(`/api/sessions/${id}`, "PATCH", { title });
          if (pathname === `/c/${id}`) setTabTitle(title);
          return pages;
        },
        {
          optimisticData: (pages) =>
            (pages ?? []).map((page) => ({
              ...page,
              sessions: page.sessions.map((s) => (s.id === id ? { ...s, title } : s)),
            })),
          rollbackOnError: true,
          populateCache: false,
          revalidate: true,
        },
      );
    } catch (e) {
      setError(t("renameFailed", { reason: errorText(e) }));
    }
  }

  async function confirmDelete() {
    if (!toDelete) return;
    const { id } = toDelete;
    setDeleting(true);
    setError(null);
    try {
      const data = await sendJson<{ receipt: Receipt }>(
        `/api/sessions/${id}${keepFacts ? "?keepFacts=true" : ""}`,
        "DELETE",
      );
      forgetDraft(id);
      setReceipt(data.receipt);
      if (pathname === `/c/${id}`) router.push("/");
    } catch (e) {
      setError(t("deleteFailed", { reason: errorText(e) }));
    } finally {
      setDeleting(false);
      setToDelete(null);
      revalidate();
    }
  }

  /**
   * Pins, archives or moves a conversation; resolves once every list (and the projects' counts) has been read
   * again, so that the caller sees where the row went.
   */
  async function organize(id: string, change: Organize): Promise<boolean> {
    setError(null);
    let done = false;
    try {
      await sendJson(`/api/sessions/${id}`, "PATCH", change);
      done = true;
    } catch (e) {
      setError(t("organizeFailed", { reason: errorText(e) }));
    }
    await revalidate();
    return done;
  }

  return {
    error,
    setError,
    renaming,
    setRenaming,
    rename,
    toDelete,
    setToDelete,
    keepFacts,
    setKeepFacts,
    deleting,
    confirmDelete,
    organize,
    revalidate,
    receipt,
    setReceipt,
  };
}
