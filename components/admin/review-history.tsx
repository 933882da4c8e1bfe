"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { type Branches, BranchFilter } from "./branch-filter";
import { ReviewMessages } from "./review-messages";
import type { AdminMessageView, SessionReviewView } from "./types";

/**
 * The reviewed history: how much of it is loaded, the branch filter, older pages, and where the memory window
 * starts when that is above what is loaded.
 */
export function ReviewHistory({
  session,
  messages,
  shown,
  branched,
  branches,
  onBranches,
  hasMore,
  loadingOlder,
  loadOlder,
  policy,
  nextContextSeqs,
}: {
  session: SessionReviewView["session"];
  messages: AdminMessageView[];
  shown: AdminMessageView[];
  branched: boolean;
  branches: Branches;
  onBranches: (branches: Branches) => void;
  hasMore: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  policy: string;
  nextContextSeqs: number[];
}) {
  const t = useT("admin");
  const messagesWord = (count: number) => t("review.messages", { count });
  const inMemory = new Set(nextContextSeqs);
  const windowStart = nextContextSeqs.length > 0 ? Math.min(...nextContextSeqs) : null;
  const firstSeq = messages[0]?.seq;
  return (
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
        <BranchFilter branches={branches} onChange={onBranches} hidden={messages.length - shown.length} />
      )}

      {messages.length === 0 && (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-center text-sm text-zinc-600">
          {t("review.noMessages")}
        </p>
      )}

      {hasMore && (
        <div className="mb-3 text-center">
          <Button variant="secondary" onClick={loadOlder} disabled={loadingOlder} data-testid="load-older">
            {loadingOlder ? t("review.loadingOlder") : t("review.loadOlder", { count: (firstSeq ?? 1) - 1 })}
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

      <ReviewMessages
        sessionId={session.id}
        shown={shown}
        branched={branched}
        windowStart={windowStart}
        inMemory={inMemory}
      />
    </section>
  );
}
