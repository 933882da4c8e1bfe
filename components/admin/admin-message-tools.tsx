"use client";

import { useState } from "react";
import { ContextPanel } from "@/components/chat/context-panel";
import { useT } from "@/lib/i18n/client";
import type { AdminMessageView } from "./types";

/** The tool call a message answers, and the tool calls it made, as stored. */
export function AdminToolCalls({ message }: { message: AdminMessageView }) {
  const t = useT("admin");
  return (
    <>
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
    </>
  );
}

/** An answer's "what was sent to the model" toggle and the context inspector it opens. */
export function AdminSentContext({ sessionId, messageId }: { sessionId: string; messageId: string }) {
  const t = useT("admin");
  const [showContext, setShowContext] = useState(false);
  return (
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
          url={`/api/admin/sessions/${sessionId}/turns/${messageId}/context`}
          onClose={() => setShowContext(false)}
        />
      )}
    </div>
  );
}
