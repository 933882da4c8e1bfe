"use client";

import type { ChatMessageView } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { Markdown } from "./markdown";

/** A message's text: a question as typed, an answer as Markdown, or the sign that it is being written. */
export function MessageText({ message }: { message: ChatMessageView }) {
  const t = useT("chat");
  const isUser = message.role === "user";
  return (
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
  );
}

/** How an answer ended when it did not complete: failed (and why) or interrupted. */
export function AnswerStatus({ message }: { message: ChatMessageView }) {
  const t = useT("chat");
  return (
    <>
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
    </>
  );
}
