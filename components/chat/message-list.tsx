"use client";

import { Fragment, useEffect, useMemo, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { EditState } from "@/lib/client/conversation-store";
import { foldToolSteps } from "@/lib/client/tool-steps-fold";
import { type ChatMessageView, isTemporary } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { MessageBubble } from "./message-bubble";
import type { VersionStep } from "./version-switcher";

const EXAMPLES = ["list.example1", "list.example2", "list.example3", "list.example4"] as const;

/** The conversation: "load earlier" on top, the messages, and the view kept at the newest line. */
export function MessageList({
  messages,
  sessionId,
  hasMore,
  loadingOlder,
  onLoadOlder,
  retryable,
  onRetry,
  clearedThroughSeq,
  onExample,
  busy,
  editing,
  onEditChange,
  onEditSend,
  onRegenerate,
  onVersion,
}: {
  messages: ChatMessageView[];
  sessionId: string | null;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** The id of the one answer that offers Retry, if any. */
  retryable: string | null;
  onRetry: (message: ChatMessageView) => void;
  /** Messages up to this seq were said before the memory was cleared (0: never cleared). */
  clearedThroughSeq: number;
  /** An example prompt was picked on the empty page: put it in the composer. */
  onExample: (text: string) => void;
  /** An answer is being written or a version is being switched to: versions cannot change meanwhile. */
  busy: boolean;
  /** The question being edited, if any. */
  editing: EditState | null;
  onEditChange: (edit: EditState | null) => void;
  onEditSend: (message: ChatMessageView) => void;
  onRegenerate: (answer: ChatMessageView, model?: string) => void;
  onVersion: (message: ChatMessageView, step: VersionStep) => void;
}) {
  const t = useT("chat");
  const bottomRef = useRef<HTMLDivElement>(null);
  const lastText = messages.at(-1)?.text;
  const shown = useMemo(() => foldToolSteps(messages), [messages]);
  const questionIds = useMemo(() => questionsOf(shown), [shown]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the last message grows
  useEffect(() => {
    bottomRef.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastText]);

  return (
    <div className="flex-1 overflow-y-auto" data-testid="message-list" aria-live="polite">
      <div className="mx-auto max-w-3xl space-y-4 px-3 py-6 sm:px-4">
        {hasMore && (
          <div className="text-center">
            <Button variant="secondary" onClick={onLoadOlder} disabled={loadingOlder}>
              {loadingOlder ? t("list.loading") : t("list.loadEarlier")}
            </Button>
          </div>
        )}
        {messages.length === 0 && (
          <div className="py-24 text-center text-zinc-500" data-testid="empty-state">
            <p className="text-lg font-medium text-zinc-700">{t("list.emptyTitle")}</p>
            <p className="mt-1 text-sm">{t("list.emptyBody")}</p>
            <ul className="mt-6 grid gap-2 text-left sm:grid-cols-2" aria-label={t("list.examples")}>
              {EXAMPLES.map((key) => (
                <li key={key}>
                  <button
                    type="button"
                    onClick={() => onExample(t(key))}
                    className="h-full w-full rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
                    data-testid="example-prompt"
                  >
                    {t(key)}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {shown.map((m) => (
          <Fragment key={m.id}>
            <MessageBubble
              message={m}
              sessionId={sessionId}
              canRetry={m.id === retryable}
              onRetry={() => onRetry(m)}
              busy={busy}
              editing={editing?.id === m.id ? editing : null}
              onEditChange={onEditChange}
              onEditSend={() => onEditSend(m)}
              onRegenerate={(model) => onRegenerate(m, model)}
              onVersion={(step) => onVersion(m, step)}
              questionId={questionIds.get(m.id)}
            />
            {clearedThroughSeq > 0 && m.seq === clearedThroughSeq && !isTemporary(m) && (
              <p
                className="flex items-center gap-2 py-1 text-xs font-medium text-amber-800"
                data-testid="memory-cleared-divider"
              >
                <span aria-hidden="true" className="h-px flex-1 bg-amber-300" />
                {t("list.cleared")}
                <span aria-hidden="true" className="h-px flex-1 bg-amber-300" />
              </p>
            )}
          </Fragment>
        ))}
        <div ref={bottomRef} />
      </div>
    </div>
  );
}

/** Each answer's question: the user message before it, once the server has named it. */
function questionsOf(shown: readonly ChatMessageView[]): Map<string, string> {
  const map = new Map<string, string>();
  let question: ChatMessageView | null = null;
  for (const m of shown) {
    if (m.role === "user") question = m;
    else if (m.role === "assistant" && question && !isTemporary(question)) map.set(m.id, question.id);
  }
  return map;
}
