"use client";

import { useT } from "@/lib/i18n/client";
import { AdminMessage } from "./admin-message";
import type { ParentNote } from "./tree-marks";
import type { AdminMessageView } from "./types";

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

/** The reviewed history as shown: each message, where the memory window starts, and how branches hang. */
export function ReviewMessages({
  sessionId,
  shown,
  branched,
  windowStart,
  inMemory,
}: {
  sessionId: string;
  shown: AdminMessageView[];
  branched: boolean;
  windowStart: number | null;
  inMemory: Set<number>;
}) {
  const t = useT("admin");
  const messagesWord = (count: number) => t("review.messages", { count });
  const loadedIds = new Set(shown.map((m) => m.id));
  return (
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
            sessionId={sessionId}
            message={m}
            inMemory={inMemory.has(m.seq)}
            branched={branched}
            parent={branched ? parentNote(m, shown[i - 1], loadedIds) : null}
          />
        </li>
      ))}
    </ol>
  );
}
