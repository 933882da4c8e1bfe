"use client";

import type { ChatMessageView } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { answerLabel } from "./answer-label";

/** Beside an answer's actions: which model wrote it and its tokens, muted; nothing when it names no model. */
export function AnswerMeta({ message }: { message: ChatMessageView }) {
  const t = useT("models");
  const label = answerLabel(t, message);
  if (!label) return null;
  const model = message.modelName || message.model || "";
  return (
    <span
      className="text-zinc-500"
      title={t("writtenBy", { model })}
      data-testid="answer-meta"
      data-model={message.model ?? undefined}
    >
      {label}
    </span>
  );
}
