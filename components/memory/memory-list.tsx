"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { MemoryItem } from "./memory-item";
import { SuggestionList } from "./suggestion-list";
import type { MemoryView } from "./types";
import { useMemories } from "./use-memories";

/** The user's facts, newest change first, with replaced ones under a toggle; edit and delete each. */
export function MemoryList() {
  const t = useT("memory");
  const errorText = useErrorText();
  const id = useId();
  const [showReplaced, setShowReplaced] = useState(false);
  const list = useMemories(showReplaced);
  const [toDelete, setToDelete] = useState<MemoryView | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    setFailure(null);
    setStatus(null);
    try {
      const { deleted } = await sendJson<{ deleted: { MemoryFact: number } }>(
        `/api/memories/${toDelete.id}`,
        "DELETE",
      );
      setStatus(t("list.deleted", { earlier: Math.max(0, deleted.MemoryFact - 1) }));
    } catch (e) {
      setFailure(t("list.deleteFailed", { reason: errorText(e) }));
    } finally {
      setDeleting(false);
      setToDelete(null);
      await list.mutate();
      // The row (and its buttons) may be gone: keep the keyboard in the list.
      heading.current?.focus();
    }
  }

  const { memories } = list;
  return (
    <>
      <SuggestionList onAccepted={() => void list.mutate()} />
      <section aria-labelledby={`${id}-heading`} className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 ref={heading} id={`${id}-heading`} tabIndex={-1} className="font-medium focus:outline-none">
            {t("list.heading")}
          </h2>
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={showReplaced}
              onChange={(e) => setShowReplaced(e.target.checked)}
              className="h-4 w-4 accent-zinc-900"
              data-testid="memory-show-replaced"
            />
            {t("list.showReplaced")}
          </label>
        </div>

        {status && (
          <p
            role="status"
            className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
            data-testid="memory-status"
          >
            {status}
          </p>
        )}
        {failure && (
          <p
            role="alert"
            className="rounded-md bg-red-50 p-3 text-sm text-red-800"
            data-testid="memory-error"
          >
            {failure}
          </p>
        )}

        {list.error && (
          <div
            role="alert"
            className="rounded-md bg-red-50 p-3 text-sm text-red-800"
            data-testid="memory-load-error"
          >
            <p>{t("list.loadFailed", { reason: errorText(list.error) })}</p>
            <Button variant="secondary" className="mt-2" onClick={() => void list.mutate()}>
              {t("list.retry")}
            </Button>
          </div>
        )}
        {!memories ? (
          list.error ? null : (
            <p className="text-sm text-zinc-500" data-testid="memory-loading">
              {t("list.loading")}
            </p>
          )
        ) : memories.length === 0 ? (
          <p
            className="rounded-md border border-dashed border-zinc-300 p-4 text-sm text-zinc-600"
            data-testid="memory-empty"
          >
            {t("list.empty")}
          </p>
        ) : (
          <ul
            className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white"
            data-testid="memory-list"
          >
            {memories.map((m) => (
              <MemoryItem key={m.id} memory={m} onSaved={() => list.mutate()} onDelete={setToDelete} />
            ))}
          </ul>
        )}

        {list.hasMore && (
          <Button
            variant="secondary"
            className="w-full"
            disabled={list.loadingMore}
            onClick={() => void list.loadMore()}
            data-testid="memory-load-more"
          >
            {list.loadingMore ? t("list.loadingMore") : t("list.loadMore")}
          </Button>
        )}

        <ConfirmDialog
          open={toDelete !== null}
          title={t("list.confirmTitle")}
          body={t("list.confirmBody", { text: toDelete?.text ?? "" })}
          confirmLabel={t("list.confirmDelete")}
          pending={deleting}
          onCancel={() => setToDelete(null)}
          onConfirm={() => void confirmDelete()}
        />
      </section>
    </>
  );
}
