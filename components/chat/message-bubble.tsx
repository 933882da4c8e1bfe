"use client";

import { useEffect, useRef, useState } from "react";
import { MessageAttachments } from "@/components/attachments/message-attachments";
import { hasVersions } from "@/lib/client/branches";
import type { EditState } from "@/lib/client/conversation-store";
import { type ChatMessageView, isTemporary } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { AnswerMeta } from "./answer-meta";
import { ContextButton } from "./context-button";
import { ContextPanel } from "./context-panel";
import { CopyButton } from "./copy-button";
import { ExtractedFacts } from "./extracted-facts";
import { MemoryUsedLine } from "./memory-used";
import { ACTION } from "./message-actions";
import { MessageEditor } from "./message-editor";
import { AnswerStatus, MessageText } from "./message-text";
import { QuestionActions } from "./question-actions";
import { RegenerateActions } from "./regenerate-actions";
import { ToolSteps } from "./tool-steps";
import { type VersionStep, VersionSwitcher } from "./version-switcher";

export function MessageBubble({
  message,
  sessionId,
  canRetry,
  onRetry,
  busy,
  editing,
  onEditChange,
  onEditSend,
  onRegenerate,
  onVersion,
  questionId,
}: {
  message: ChatMessageView;
  sessionId: string | null;
  canRetry: boolean;
  onRetry: () => void;
  /** An answer is being written or a version is being switched to: no new versions meanwhile. */
  busy: boolean;
  /** This question's edit in progress, if it is being edited. */
  editing: EditState | null;
  /** Starts (text), changes (text) or cancels (null) the edit of this question. */
  onEditChange: (edit: EditState | null) => void;
  onEditSend: () => void;
  /** No model: the conversation's. */
  onRegenerate: (model?: string) => void;
  onVersion: (step: VersionStep) => void;
  /** On an answer: its question's id (the source of facts extracted after it). */
  questionId?: string | undefined;
}) {
  const t = useT("chat");
  const [showContext, setShowContext] = useState(false);
  const contextButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeContext = () => {
    setShowContext(false);
    contextButton.current?.focus();
  };
  const cancelEdit = () => {
    onEditChange(null);
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const isUser = message.role === "user";
  const persisted = !isTemporary(message);
  const settled = persisted && message.status !== "streaming";
  // Only an answer written while the page is open offers the facts found after it; older ones are on /memory.
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (message.status === "streaming") setLive(true);
  }, [message.status]);
  const versions = hasVersions(message.siblings) ? (
    <VersionSwitcher siblings={message.siblings} disabled={busy} onStep={onVersion} />
  ) : null;
  const copy = message.text ? (
    <CopyButton text={message.text} label={t("message.copyLabel")} className={ACTION} testId="message-copy" />
  ) : null;

  return (
    <article
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-seq={message.seq}
      data-message-id={persisted ? message.id : undefined}
      aria-label={isUser ? t("message.you") : t("message.assistant")}
      className={`flex ${isUser ? "justify-end" : "justify-start"}`}
    >
      <div className={`min-w-0 max-w-[85%] ${isUser && !editing ? "" : "w-full"}`}>
        {!isUser && message.steps?.length ? <ToolSteps steps={message.steps} /> : null}
        {editing ? (
          <MessageEditor
            text={editing.text}
            onChange={(text) => onEditChange({ id: message.id, text })}
            onSend={onEditSend}
            onCancel={cancelEdit}
            disabled={busy}
          />
        ) : (
          <MessageText message={message} />
        )}
        {isUser && <MessageAttachments parts={message.parts} />}
        {isUser && !editing && (
          <QuestionActions
            versions={versions}
            copy={copy}
            canEdit={Boolean(sessionId && persisted)}
            busy={busy}
            editButton={editButton}
            onEdit={() => onEditChange({ id: message.id, text: message.text })}
          />
        )}
        {!isUser && sessionId && settled && message.memoryUsed && (
          <MemoryUsedLine used={message.memoryUsed} sessionId={sessionId} />
        )}
        {!isUser && live && settled && questionId && <ExtractedFacts messageId={questionId} />}
        {!isUser && (
          <div className="mt-1 flex flex-wrap items-center gap-3 text-xs text-zinc-600">
            <AnswerStatus message={message} />
            {versions}
            {canRetry && (
              <button type="button" onClick={onRetry} className="underline" data-testid="retry-button">
                {t("message.retry")}
              </button>
            )}
            {settled && copy}
            {sessionId && settled && <RegenerateActions busy={busy} onRegenerate={onRegenerate} />}
            {sessionId && settled && (
              <ContextButton
                buttonRef={contextButton}
                open={showContext}
                onToggle={() => setShowContext((v) => !v)}
              />
            )}
            {settled && <AnswerMeta message={message} />}
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
