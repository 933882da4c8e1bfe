"use client";

import { useRef, useState } from "react";
import type { Receipt } from "@/components/ui/receipt";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { Branches } from "./branch-filter";
import { MemoryPanel } from "./memory-panel";
import { ReviewDeleted } from "./review-deleted";
import { ReviewDeleteDialog, ReviewHeader } from "./review-header";
import { ReviewHistory } from "./review-history";
import type { SessionReviewView } from "./types";
import { useReviewHistory } from "./use-review-history";

/**
 * The admin's view of one conversation: history beside memory, per-turn contexts, and deletion with a receipt.
 * The history is every message of every branch in seq order; when the conversation has branches each message
 * says whether it is on the active path, whom it replies to when that is not the message above, and how many
 * versions follow a branch point. Messages off the active path are indented behind a dashed line.
 */
export function SessionReview({ review }: { review: SessionReviewView }) {
  const t = useT("admin");
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const { session, snapshot, policy, nextContextSeqs, settings, memoryStartSeq } = review;
  const { messages, hasMore, loadingOlder, loadOlder } = useReviewHistory(review, setError);
  const [branches, setBranches] = useState<Branches>("all");
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const receiptHeading = useRef<HTMLHeadingElement>(null);

  const branched = messages.some((m) => !m.tree.onPath || m.tree.children > 1 || m.tree.siblings > 1);
  const shown = branched && branches === "path" ? messages.filter((m) => m.tree.onPath) : messages;

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
    return <ReviewDeleted session={session} receipt={receipt} headingRef={receiptHeading} />;
  }

  return (
    <div>
      <ReviewHeader session={session} onDelete={() => setConfirming(true)} />

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
        <ReviewHistory
          session={session}
          messages={messages}
          shown={shown}
          branched={branched}
          branches={branches}
          onBranches={setBranches}
          hasMore={hasMore}
          loadingOlder={loadingOlder}
          loadOlder={loadOlder}
          policy={policy}
          nextContextSeqs={nextContextSeqs}
        />

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

      <ReviewDeleteDialog
        session={session}
        open={confirming}
        pending={deleting}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
