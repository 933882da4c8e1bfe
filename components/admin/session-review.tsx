"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { apiError, fetchOlderMessages } from "@/components/chat/api";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { AdminMessage } from "./admin-message";
import { formatDateTime, plural } from "./format";
import { MemoryPanel } from "./memory-panel";
import type { AdminMessageView, SessionReviewView } from "./types";

const PAGE = 100;

/** The admin's view of one conversation: history beside memory, per-turn contexts, and deletion with a receipt. */
export function SessionReview({ review }: { review: SessionReviewView }) {
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
      setError(e instanceof Error ? e.message : "Could not load earlier messages.");
    } finally {
      setLoadingOlder(false);
    }
  }

  async function confirmDelete() {
    setDeleting(true);
    setError(null);
    try {
      const res = await fetch(`/api/admin/sessions/${session.id}`, { method: "DELETE" });
      if (!res.ok) throw new Error(await apiError(res));
      const data = (await res.json()) as { receipt: Receipt };
      setReceipt(data.receipt);
      setConfirming(false);
      requestAnimationFrame(() => receiptHeading.current?.focus());
    } catch (e) {
      setConfirming(false);
      setError(e instanceof Error ? e.message : "The session could not be deleted.");
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
          Session deleted
        </h1>
        <p className="text-sm text-zinc-600">
          “{session.title}” of {session.owner.email} is gone, with everything derived from it. The audit log
          records this deletion (ids and counts only).
        </p>
        <ReceiptView receipt={receipt} />
        <div className="flex gap-3 text-sm">
          <Link href="/admin/sessions" className="font-medium underline" data-testid="back-to-sessions">
            Back to sessions
          </Link>
          <Link href="/admin/audit" className="underline">
            Audit log
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
              Sessions
            </Link>
          </p>
          <h1 className="truncate text-2xl font-semibold" data-testid="admin-session-title">
            {session.title || "(untitled)"}
          </h1>
          <p className="mt-1 text-sm text-zinc-600">
            {session.owner.name} · {session.owner.email} · {plural(session.messageCount, "message")} · created{" "}
            {formatDateTime(session.createdAt)} · last activity {formatDateTime(session.updatedAt)}
          </p>
        </div>
        <Button variant="danger" onClick={() => setConfirming(true)} data-testid="admin-delete-session">
          Delete session…
        </Button>
      </div>

      {session.turnInProgress && (
        <p role="status" className="mb-4 rounded-md bg-sky-50 p-3 text-sm text-sky-900">
          An answer is being written in this conversation right now; reload to see it once it is done.
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
            History{" "}
            <span className="text-sm font-normal text-zinc-500">
              ({messages.length === session.messageCount ? "all" : `${messages.length} of`}{" "}
              {plural(session.messageCount, "message")})
            </span>
          </h2>

          {messages.length === 0 && (
            <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-center text-sm text-zinc-600">
              No messages yet: this conversation is empty.
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
                  ? "Loading earlier messages…"
                  : `Load earlier messages (${(firstSeq ?? 1) - 1} more)`}
              </Button>
            </div>
          )}

          {messages.length > 0 && windowStart === null && (
            <p className="mb-3 rounded-md bg-zinc-100 p-2 text-xs text-zinc-700" data-testid="window-empty">
              The model will see none of this history on the next turn (policy {policy}).
            </p>
          )}
          {windowStart !== null && firstSeq !== undefined && windowStart < firstSeq && (
            <p className="mb-3 rounded-md bg-emerald-50 p-2 text-xs text-emerald-900">
              The memory window starts at #{windowStart}, among earlier messages.
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
                      ? `Memory window starts here: the model does not see the ${plural(windowStart - 1, "message")} above`
                      : "Memory window starts here: the model sees the whole history"}
                    <span className="h-px flex-1 bg-emerald-400" />
                  </div>
                )}
                <AdminMessage sessionId={session.id} message={m} inMemory={inMemory.has(m.seq)} />
              </li>
            ))}
          </ol>
        </section>

        <aside className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
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
        title="Delete this session?"
        confirmLabel="Delete session"
        pending={deleting}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
        body={
          <div className="space-y-2">
            <p>
              “{session.title}” of {session.owner.email} will be removed for everyone, with its{" "}
              {plural(session.messageCount, "message")}, its memory snapshot and every recorded context.
            </p>
            {session.turnInProgress && <p>An answer is being written right now; it will be discarded.</p>}
            <p className="font-medium text-zinc-900">This cannot be undone.</p>
          </div>
        }
      />
    </div>
  );
}
