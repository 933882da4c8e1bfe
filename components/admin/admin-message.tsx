"use client";

import { useState } from "react";
import { AdminImages } from "@/components/attachments/admin-images";
import { ContextPanel } from "@/components/chat/context-panel";
import { useFormat, useT } from "@/lib/i18n/client";
import type { AdminMessageView } from "./types";

const statusStyle: Record<AdminMessageView["status"], string> = {
  complete: "text-zinc-500",
  streaming: "text-sky-700",
  interrupted: "text-amber-700",
  failed: "text-red-700",
};

/**
 * Where a message hangs in the tree, when that is not plain from the list: its parent is not the message shown
 * just before it (`seq`; `loaded` when the parent is on the page, so it can be linked), or it starts a new root
 * while others came before it.
 */
export type ParentNote = { seq: number; loaded: boolean } | "root" | null;

/** One history message as stored, with everything an admin may need to judge it; text is shown raw, not rendered. */
export function AdminMessage({
  sessionId,
  message,
  inMemory,
  branched = false,
  parent = null,
}: {
  sessionId: string;
  message: AdminMessageView;
  inMemory: boolean;
  /** The conversation has branches: show the message's place in the tree. */
  branched?: boolean;
  parent?: ParentNote;
}) {
  const t = useT("admin");
  const format = useFormat();
  const [showContext, setShowContext] = useState(false);
  const { tree } = message;
  const tokens =
    message.promptTokens !== null || message.completionTokens !== null
      ? t("message.tokens", {
          prompt: message.promptTokens ?? "?",
          completion: message.completionTokens ?? "?",
        })
      : null;
  return (
    <article
      className={`scroll-mt-4 rounded-lg border border-zinc-200 bg-white p-3 ${inMemory ? "border-l-4 border-l-emerald-500" : ""}`}
      data-testid="admin-message"
      data-role={message.role}
      data-seq={message.seq}
      data-status={message.status}
      data-in-memory={inMemory}
      data-on-path={tree.onPath}
      data-children={tree.children}
      data-parent-seq={tree.parentSeq ?? undefined}
      id={`msg-${message.seq}`}
      aria-label={t("message.label", { seq: message.seq, role: message.role })}
    >
      <header className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <span className="font-mono font-medium text-zinc-900">#{message.seq}</span>
        <span
          className={`rounded px-1.5 py-0.5 font-medium ${message.role === "user" ? "bg-zinc-900 text-white" : "bg-zinc-100 text-zinc-800"}`}
        >
          {message.role}
        </span>
        <span className={`font-medium ${statusStyle[message.status]}`} data-testid="admin-message-status">
          {message.status}
        </span>
        <time dateTime={message.createdAt} className="text-zinc-500">
          {format.dateTimeSeconds(message.createdAt)}
        </time>
        {tokens && <span className="text-zinc-500">{tokens}</span>}
        {message.model && <span className="font-mono text-zinc-500">{message.model}</span>}
        <span className="flex-1" />
        <span
          className={`rounded px-1.5 py-0.5 ${inMemory ? "bg-emerald-50 text-emerald-800" : "bg-zinc-50 text-zinc-500"}`}
          data-testid="memory-badge"
          title={inMemory ? t("message.inMemoryTitle") : t("message.historyOnlyTitle")}
        >
          {inMemory ? t("message.inMemory") : t("message.historyOnly")}
        </span>
      </header>
      {branched && (
        <p className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs" data-testid="tree-marks">
          {tree.onPath ? (
            <span
              className="rounded bg-sky-50 px-1.5 py-0.5 font-medium text-sky-900"
              title={t("tree.onPathTitle")}
              data-testid="path-badge"
            >
              {tree.activeLeaf ? t("tree.leaf") : t("tree.onPath")}
            </span>
          ) : (
            <span
              className="rounded border border-dashed border-zinc-400 px-1.5 py-0.5 text-zinc-700"
              title={t("tree.offPathTitle")}
              data-testid="path-badge"
            >
              {t("tree.offPath")}
            </span>
          )}
          {parent === "root" && (
            <span className="text-zinc-700" data-testid="parent-note">
              {t("tree.newRoot")}
            </span>
          )}
          {parent !== null && parent !== "root" && (
            <span className="text-zinc-700" data-testid="parent-note">
              {t.rich("tree.replyTo", {
                seq: parent.seq,
                link: (chunks) =>
                  parent.loaded ? (
                    <a
                      href={`#msg-${parent.seq}`}
                      className="font-mono underline hover:text-zinc-950 focus-visible:outline-2 focus-visible:outline-zinc-900"
                    >
                      {chunks}
                    </a>
                  ) : (
                    <span className="font-mono">{chunks}</span>
                  ),
              })}
            </span>
          )}
          {tree.siblings > 1 && (
            <span className="text-zinc-700" data-testid="version-note">
              {t("tree.versionOf", { count: tree.siblings })}
            </span>
          )}
          {tree.children > 1 && (
            <span
              className="rounded bg-amber-50 px-1.5 py-0.5 font-medium text-amber-900"
              data-testid="branch-point"
            >
              {t("tree.versionsFollow", { count: tree.children })}
            </span>
          )}
        </p>
      )}
      <p className="whitespace-pre-wrap [overflow-wrap:anywhere] text-sm" data-testid="admin-message-text">
        {message.text || <em className="text-zinc-500">{t("empty")}</em>}
      </p>
      {message.toolCallId && (
        <p className="mt-1 text-xs text-zinc-600">
          {t.rich("message.answersTool", {
            id: message.toolCallId,
            code: (chunks) => <code className="font-mono">{chunks}</code>,
          })}
        </p>
      )}
      {message.toolCalls.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label={t("message.toolCalls")}>
          {message.toolCalls.map((call) => (
            <li
              key={call.id}
              className="rounded bg-zinc-50 p-2 font-mono text-xs break-all"
              data-testid="tool-call"
            >
              <span className="text-zinc-500">{call.id}</span> {call.name}({call.arguments})
            </li>
          ))}
        </ul>
      )}
      <AdminImages urls={message.imageUrls} />
      {message.role === "assistant" && (
        <div className="mt-2">
          <button
            type="button"
            onClick={() => setShowContext((v) => !v)}
            aria-expanded={showContext}
            className="text-xs font-medium text-zinc-700 underline hover:text-zinc-950 focus-visible:outline-2 focus-visible:outline-zinc-900"
            data-testid="admin-context-button"
          >
            {showContext ? t("message.hideSent") : t("message.showSent")}
          </button>
          {showContext && (
            <ContextPanel
              url={`/api/admin/sessions/${sessionId}/turns/${message.id}/context`}
              onClose={() => setShowContext(false)}
            />
          )}
        </div>
      )}
    </article>
  );
}
