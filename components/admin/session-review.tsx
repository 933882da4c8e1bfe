"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { fetchOlderMessages, sendJson } from "@/components/chat/api";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import { AdminMessage } from "./admin-message";
import { MemoryPanel } from "./memory-panel";
import type { AdminMessageView, SessionReviewView } from "./types";

const PAGE = 100;

/** The admin's view of one conversation: history beside memory, per-turn contexts, and deletion with a receipt. */
export function SessionReview({ review }: { review: SessionReviewView }) {
  const t = useT("admin");
  const errorText = useErrorText();
  const format = useFormat();
  const messagesWord = (count: number) => t("review.messages", { count });
  const { session, snapshot, policy, nextContextSeqs, settings, memoryStartSeq } = review;
  const [messages, setMessages] = useState<AdminMessageView[]>(review.messages);
  const [hasMore, setHasMore] = useState(review.hasMore);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const receiptHeading = useRef<HTMLHeadingElement>(null);

  const inMemory = new Set(nextContextSeqs);
  const windowStart = nextContextSeqs.length > 0 ? Math.min(...nextContextSeqs) : null;
  const firstSeq = messages[0]?.seq;

  async function loadOlder() {
    if (firstSeq === undefined) return;
    setLoadingOlder(true);
    setError(null);
    try {
      const data = await fetchOlderMessages<AdminMessageView>(
        `/api/admin/sessions/${session.id}?before=${firstSeq}&limit=${PAGE}`,
      );
      setMessages((prev) => [...data.messages, ...prev]);
      setHasMore(data.hasMore);
    } catch (e) {
      setError(errorText(e, t("review.loadOlderFailed")));
    } finally {
      setLoadingOlder(false);
    }
  }

  async function confirmDelete() {
    setDeleting(true);
    setError(null);
    try {
      const data = await sendJson<{ receipt: Receipt }>(`/api/admin/sessions/${session.id}`, "DELETE");
      setReceipt(data.receipt);
      setConfirming(false);
      requestAnimationFrame(() => receiptHeading.current?.focus());
    } catch (e) {
      setConfirming(false);
      setError(errorText(e, t("review.deleteFailed")));
    } finally {
      setDeleting(false);
    }
  }

  if (receipt) {
    return (
      <section
        className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-6"
        data-testid="admin-delete-done"
      >
        <h1 ref={receiptHeading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {t("review.deleted")}
        </h1>
        <p className="text-sm text-zinc-600">
          {t("review.deletedBody", { title: session.title, email: session.owner.email })}
        </p>
        <ReceiptView receipt={receipt} />
        <div className="flex gap-3 text-sm">
          <Link href="/admin/sessions" className="font-medium underline" data-testid="back-to-sessions">
            {t("review.backToSessions")}
          </Link>
          <Link href="/admin/audit" className="underline">
            {t("review.auditLog")}
          </Link>
        </div>
      </section>
    );
  }

  return (
    <div>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm">
            <Link href="/admin/sessions" className="text-zinc-600 underline">
              {t("review.sessions")}
            </Link>
          </p>
          <h1 className="truncate text-2xl font-semibold" data-testid="admin-session-title">
            {session.title || t("untitled")}
          </h1>
          <p className="mt-1 text-sm text-zinc-600">
            {t("review.meta", {
              name: session.owner.name,
              email: session.owner.email,
              messages: messagesWord(session.messageCount),
              created: format.dateTime(session.createdAt),
              updated: format.dateTime(session.updatedAt),
            })}
          </p>
        </div>
        <Button variant="danger" onClick={() => setConfirming(true)} data-testid="admin-delete-session">
          {t("review.delete")}
        </Button>
      </div>

      {session.turnInProgress && (
        <p role="status" className="mb-4 rounded-md bg-sky-50 p-3 text-sm text-sky-900">
          {t("review.turnInProgress")}
        </p>
      )}
      {error && (
        <p
          role="alert"
          className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="admin-error"
        >
          {error}
        </p>
      )}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="history-heading" className="min-w-0">
          <h2 id="history-heading" className="mb-2 font-semibold">
            {t("review.history")}{" "}
            <span className="text-sm font-normal text-zinc-500">
              {messages.length === session.messageCount
                ? t("review.historyAll", { messages: messagesWord(session.messageCount) })
                : t("review.historySome", {
                    shown: messages.length,
                    messages: messagesWord(session.messageCount),
                  })}
            </span>
          </h2>

          {messages.length === 0 && (
            <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-center text-sm text-zinc-600">
              {t("review.noMessages")}
            </p>
          )}

          {hasMore && (
            <div className="mb-3 text-center">
              <Button
                variant="secondary"
                onClick={loadOlder}
                disabled={loadingOlder}
                data-testid="load-older"
              >
                {loadingOlder
                  ? t("review.loadingOlder")
                  : t("review.loadOlder", { count: (firstSeq ?? 1) - 1 })}
              </Button>
            </div>
          )}

          {messages.length > 0 && windowStart === null && (
            <p className="mb-3 rounded-md bg-zinc-100 p-2 text-xs text-zinc-700" data-testid="window-empty">
              {t("review.windowEmpty", { policy })}
            </p>
          )}
          {windowStart !== null && firstSeq !== undefined && windowStart < firstSeq && (
            <p className="mb-3 rounded-md bg-emerald-50 p-2 text-xs text-emerald-900">
              {t("review.windowEarlier", { seq: windowStart })}
            </p>
          )}

          <ol className="space-y-2">
            {messages.map((m) => (
              <li key={m.id}>
                {m.seq === windowStart && (
                  <div
                    className="my-3 flex items-center gap-2 text-xs font-medium text-emerald-800"
                    data-testid="window-cutoff"
                  >
                    <span className="h-px flex-1 bg-emerald-400" />
                    {windowStart > 1
                      ? t("review.windowStartsAbove", { messages: messagesWord(windowStart - 1) })
                      : t("review.windowStartsAll")}
                    <span className="h-px flex-1 bg-emerald-400" />
                  </div>
                )}
                <AdminMessage sessionId={session.id} message={m} inMemory={inMemory.has(m.seq)} />
              </li>
            ))}
          </ol>
        </section>

        {/* Scrolls on its own on wide screens: focusable, so the keyboard can scroll it too. */}
        <aside
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
          aria-labelledby="memory-heading"
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-zinc-900 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto"
        >
          <MemoryPanel
            snapshot={snapshot}
            policy={policy}
            settings={settings}
            memoryStartSeq={memoryStartSeq}
            nextContextSeqs={nextContextSeqs}
            lastSeq={session.messageCount}
          />
        </aside>
      </div>

      <ConfirmDialog
        open={confirming}
        title={t("review.confirmTitle")}
        confirmLabel={t("review.confirmLabel")}
        pending={deleting}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
        body={
          <div className="space-y-2">
            <p>
              {t("review.confirmBody", {
                title: session.title,
                email: session.owner.email,
                messages: messagesWord(session.messageCount),
              })}
            </p>
            {session.turnInProgress && <p>{t("review.confirmStreaming")}</p>}
            <p className="font-medium text-zinc-900">{t("review.cannotUndo")}</p>
          </div>
        }
      />
    </div>
  );
}
