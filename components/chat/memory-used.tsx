"use client";

import { useId, useState } from "react";
import type { MemoryUsed } from "@/lib/context/memory-used";
import { useFormat, useT } from "@/lib/i18n/client";
import { describeFileUsed, describeMemoryUsed, describeSummaryUsed } from "./memory-words";

const LINK = "underline underline-offset-2 hover:text-zinc-900";
const messageHref = (sessionId: string, messageId: string) => `/c/${sessionId}?message=${messageId}`;

/**
 * The line under an answer naming what it used beyond its window — earlier messages and project file passages
 * recalled, long-term memories, a summary — which opens to the items, each message linking to where it came from
 * (a passage names its file and part: the file itself is not kept to link to).
 */
export function MemoryUsedLine({ used, sessionId }: { used: MemoryUsed; sessionId: string }) {
  const t = useT("chatMemory");
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mt-1 text-xs text-zinc-600" data-testid="memory-used">
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        className="-my-1 rounded py-1 text-left underline-offset-2 hover:text-zinc-900 hover:underline focus-visible:outline-2 focus-visible:outline-zinc-900"
        data-testid="memory-used-toggle"
      >
        <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
        {describeMemoryUsed(t, used)}
      </button>
      {open && (
        <ul
          id={id}
          aria-label={t("used.label")}
          className="mt-1 space-y-1 border-l-2 border-zinc-200 pl-3"
          data-testid="memory-used-items"
        >
          {used.recalled.map((r) => (
            <li key={r.messageId} data-testid="memory-used-item" data-kind="recalled" data-seq={r.seq}>
              <a href={messageHref(r.sessionId, r.messageId)} className={LINK} data-testid="memory-used-link">
                {r.role === "user" ? t("used.roleUser") : t("used.roleAssistant")} · #{r.seq} ·{" "}
                {format.dateTime(r.createdAt)}
                {r.sessionId !== sessionId ? ` · ${t("used.otherConversation")}` : ""}
              </a>
              {r.preview && (
                <span className="block text-zinc-800 [overflow-wrap:anywhere]" title={r.preview}>
                  {r.preview}
                </span>
              )}
            </li>
          ))}
          {used.files.map((f) => (
            <li key={f.chunkId} data-testid="memory-used-item" data-kind="file" data-file-id={f.fileId}>
              <span className="[overflow-wrap:anywhere]" data-testid="memory-used-file">
                {describeFileUsed(t, f)}
              </span>
              {f.preview && (
                <span className="block text-zinc-800 [overflow-wrap:anywhere]" title={f.preview}>
                  {f.preview}
                </span>
              )}
            </li>
          ))}
          {used.facts.map((f) => (
            <li key={f.id} data-testid="memory-used-item" data-kind="fact">
              {t("used.fact")} ·{" "}
              <a href={messageHref(f.sessionId, f.messageId)} className={LINK} data-testid="memory-used-link">
                {t("used.factSource")}
              </a>
            </li>
          ))}
          {used.summary && (
            <li data-testid="memory-used-item" data-kind="summary">
              {describeSummaryUsed(t, used.summary)}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
