"use client";

import { useFormat, useT } from "@/lib/i18n/client";
import type { AdminMessageView } from "./types";

const statusStyle: Record<AdminMessageView["status"], string> = {
  complete: "text-zinc-500",
  streaming: "text-sky-700",
  interrupted: "text-amber-700",
  failed: "text-red-700",
};

/** A stored message's line of facts: seq, role, status, time, tokens, model, and whether memory holds it. */
export function AdminMessageHeader({ message, inMemory }: { message: AdminMessageView; inMemory: boolean }) {
  const t = useT("admin");
  const format = useFormat();
  const tokens =
    message.promptTokens !== null || message.completionTokens !== null
      ? t("message.tokens", {
          prompt: message.promptTokens ?? "?",
          completion: message.completionTokens ?? "?",
        })
      : null;
  return (
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
  );
}
