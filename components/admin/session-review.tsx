"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { getJson, sendJson } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import { AdminMessage, type ParentNote } from "./admin-message";
import { MemoryPanel } from "./memory-panel";
import type { AdminMessageView, SessionReviewView } from "./types";

const PAGE = 100;

/** Which messages the history shows: every branch, or only the path to the active leaf. */
type Branches = "all" | "path";

/**
 * What to say about a message's parent: nothing when it is the message shown just before it (or, at the top of
 * what is loaded, the message just before it by seq, not loaded yet).
 */
function parentNote(
  m: AdminMessageView,
  previous: AdminMessageView | undefined,
  loaded: Set<string>,
): ParentNote {
  const { parentId, parentSeq } = m.tree;
  if (parentId === null) return previous ? "root" : null;
  if (previous ? parentId === previous.id : parentSeq === null || parentSeq === m.seq - 1) return null;
  return parentSeq === null ? null : { seq: parentSeq, loaded: loaded.has(parentId) };
}

/**
 * The admin's view of one conversation: history beside memory, per-turn contexts, and deletion with a receipt.
 * The history is every message of every branch in seq order; when the conversation has branches each message
 * says whether it is on the active path, whom it replies to when that is not the message above, and how many
 * versions follow a branch point. Messages off the active path are indented behind a dashed line.
 */
export function SessionReview({ review }: { review: SessionReviewView }) {
  const t = useT("admin");
  const errorText = useErrorText();
  const format = useFormat();
  const messagesWord = (count: number) => t("review.messages", { count });
  const { session, snapshot, policy, nextContextSeqs, settings, memoryStartSeq } = review;
  const [messages, setMessages] = useState<AdminMessageView[]>(review.messages);
  const [hasMore, setHasMore] = useState(review.hasMore);
  const [pathNext, setPathNext] = useState(review.pathNext);
  const [branches, setBranches] = useState<Branches>("all");
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const receiptHeading = useRef<HTMLHeadingElement>(null);

  const inMemory = new Set(nextContextSeqs);
  const windowStart = nextContextSeqs.length > 0 ? Math.min(...nextContextSeqs) : null;
  const firstSeq = messages[0]?.seq;
  const branched = messages.some((m) => !m.tree.onPath || m.tree.children > 1 || m.tree.siblings > 1);
  const shown = branched && branches === "path" ? messages.filter((m) => m.tree.onPath) : messages;
  const loadedIds = new Set(shown.map((m) => m.id));

  async function loadOlder() {
    if (firstSeq === undefined) return;
    setLoadingOlder(true);
    setError(null);
    try {
      // pathFrom: where the active path continues, so this page walks only its own part of it.
      const data = await getJson<Pick<SessionReviewView, "messages" | "hasMore" | "pathNext">>(
        `/api/admin/sessions/${session.id}?before=${firstSeq}&limit=${PAGE}&pathFrom=${encodeURIComponent(pathNext ?? "")}`,
      );
      setMessages((prev) => [...data.messages, ...prev]);
      setHasMore(data.hasMore);
      setPathNext(data.pathNext);
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

          {branched && (
            <div
              className="mb-3 space-y-2 rounded-md bg-zinc-100 p-2 text-xs text-zinc-700"
              data-testid="tree-legend"
            >
              <p>{t("tree.legend")}</p>
              <fieldset className="flex flex-wrap items-center gap-1" data-testid="branch-filter">
                <legend className="float-left mr-1 font-medium">{t("tree.filterLabel")}</legend>
                {(["all", "path"] as const).map((choice) => (
                  <label
                    key={choice}
                    className="cursor-pointer rounded-md border border-zinc-300 bg-white px-2 py-1 has-[:checked]:border-zinc-900 has-[:checked]:bg-zinc-900 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-zinc-900"
                  >
                    <input
                      type="radio"
                      name="branches"
                      value={choice}
                      className="sr-only"
                      checked={branches === choice}
                      onChange={() => setBranches(choice)}
                      data-testid={`branches-${choice}`}
                    />
                    {choice === "all" ? t("tree.all") : t("tree.pathOnly")}
                  </label>
                ))}
              </fieldset>
              {shown.length < messages.length && (
                <p data-testid="branches-hidden">
                  {t("tree.hidden", { count: messages.length - shown.length })}
                </p>
              )}
            </div>
          )}

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
            {shown.map((m, i) => (
              <li
                key={m.id}
                className={
                  branched && !m.tree.onPath
                    ? "ml-4 border-l-2 border-dashed border-zinc-400 pl-3 sm:ml-8"
                    : undefined
                }
              >
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
                <AdminMessage
                  sessionId={session.id}
                  message={m}
                  inMemory={inMemory.has(m.seq)}
                  branched={branched}
                  parent={branched ? parentNote(m, shown[i - 1], loadedIds) : null}
                />
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
            lastSeq={session.activeLeaf?.seq ?? 0}
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
