"use client";

import { useRef, useState } from "react";
import { MessageAttachments } from "@/components/attachments/message-attachments";
import { useT } from "@/lib/i18n/client";
import { ContextPanel } from "./context-panel";
import { Markdown } from "./markdown";
import { ToolSteps } from "./tool-steps";
import { type ChatMessageView, isTemporary } from "./types";

export function MessageBubble({
  message,
  sessionId,
  canRetry,
  onRetry,
}: {
  message: ChatMessageView;
  sessionId: string | null;
  canRetry: boolean;
  onRetry: () => void;
}) {
  const t = useT("chat");
  const [showContext, setShowContext] = useState(false);
  const contextButton = useRef<HTMLButtonElement>(null);
  const closeContext = () => {
    setShowContext(false);
    contextButton.current?.focus();
  };
  const isUser = message.role === "user";
  const persisted = !isTemporary(message);

  return (
    <article
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-seq={message.seq}
      aria-label={isUser ? t("message.you") : t("message.assistant")}
      className={`flex ${isUser ? "justify-end" : "justify-start"}`}
    >
      <div className={`min-w-0 max-w-[85%] ${isUser ? "" : "w-full"}`}>
        {!isUser && message.steps?.length ? <ToolSteps steps={message.steps} /> : null}
        <div
          className={`rounded-2xl px-4 py-2 ${isUser ? "bg-zinc-900 text-white" : "border border-zinc-200 bg-white"}`}
          data-testid="message-text"
        >
          {isUser ? (
            <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.text}</p>
          ) : message.text ? (
            <Markdown text={message.text} />
          ) : message.status === "streaming" ? (
            <p className="animate-pulse text-zinc-500">
              <span className="sr-only">{t("message.writing")}</span>
              <span aria-hidden="true">…</span>
            </p>
          ) : null}
        </div>
        {isUser && <MessageAttachments parts={message.parts} />}
        {!isUser && (
          <div className="mt-1 flex items-center gap-3 text-xs text-zinc-500">
            {message.status === "failed" && (
              <span className="font-medium text-red-700" data-testid="message-failed">
                {message.error ? t("message.failedWith", { reason: message.error }) : t("message.failed")}
              </span>
            )}
            {message.status === "interrupted" && (
              <span className="font-medium text-amber-700" data-testid="message-interrupted">
                {t("message.interrupted")}
              </span>
            )}
            {canRetry && (
              <button type="button" onClick={onRetry} className="underline" data-testid="retry-button">
                {t("message.retry")}
              </button>
            )}
            {sessionId && persisted && message.status !== "streaming" && (
              <button
                ref={contextButton}
                type="button"
                onClick={() => setShowContext((v) => !v)}
                className="-my-1 py-1 underline"
                data-testid="context-button"
                aria-expanded={showContext}
              >
                {showContext ? t("message.hideContext") : t("message.context")}
              </button>
            )}
          </div>
        )}
        {showContext && sessionId && (
          <ContextPanel
            url={`/api/sessions/${sessionId}/turns/${message.id}/context`}
            onClose={closeContext}
          />
        )}
      </div>
    </article>
  );
}
