"use client";

import { useEffect, useState } from "react";
import useSWR from "swr";
import { getJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ContextEntryRow, type ContextEntryView, type MessageHref } from "./context-entry";
import { type ContextToolEntry, ContextTools } from "./context-tools";
import { describePolicy } from "./memory-words";

interface TurnContextView {
  messageId: string;
  seq: number;
  entries: ContextEntryView[];
  tools?: ContextToolEntry[] | null;
  tokenEstimate: number;
  policy: string;
  model: string;
  createdAt: string;
}

/**
 * Where an item's message opens: the user's own chat, or for the admin (whose contexts come from /api/admin/…)
 * the review of that conversation. Read from the context's address, which names the conversation either way.
 */
function linksOf(url: string): { sessionId: string; messageHref: MessageHref } {
  const admin = url.startsWith("/api/admin/");
  const sessionId = decodeURIComponent(/\/sessions\/([^/]+)\//.exec(url)?.[1] ?? "");
  const messageHref: MessageHref = admin
    ? (session) => `/admin/sessions/${session}`
    : (session, message) => `/c/${session}?message=${message}`;
  return { sessionId, messageHref };
}

/** What one turn sent to the model, in order — read back from the server's record, never reconstructed. */
export function ContextPanel({ url, onClose }: { url: string; onClose: () => void }) {
  // Fetched each time the panel opens: a retried answer has a new context under the same message id.
  const { data, error } = useSWR(url, getJson<{ context: TurnContextView }>, { revalidateOnFocus: false });
  const context = data?.context;
  const links = linksOf(url);
  const t = useT("chat");
  const tm = useT("chatMemory");
  const errorText = useErrorText();
  // Entries show one line each; a click (or Enter) on one shows all of it.
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (i: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(i)) next.add(i);
      return next;
    });

  // Escape closes the panel from anywhere on the page (the caller puts focus back on the panel's trigger).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("dialog[open]")) onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    <section
      className="mt-2 rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-sm"
      data-testid="context-panel"
      aria-label={t("context.label")}
    >
      <div className="mb-2 flex items-center justify-between">
        <h3 className="font-medium">{t("context.title")}</h3>
        <button type="button" onClick={onClose} className="text-xs text-zinc-500 hover:text-zinc-900">
          {t("context.close")}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-red-700">
          {t("context.loadFailed", { reason: errorText(error) })}
        </p>
      )}
      {!context && !error && <p className="text-zinc-500">{t("context.loading")}</p>}
      {context && (
        <>
          <p className="mb-2 text-xs text-zinc-500" data-testid="context-summary">
            {t("context.items", { count: context.entries.length })} ·{" "}
            <span data-testid="context-tokens">{t("context.tokens", { count: context.tokenEstimate })}</span>{" "}
            · {t("context.memory")}{" "}
            <span
              className="text-zinc-700"
              title={t("context.policyTitle", { policy: context.policy })}
              data-testid="context-policy"
            >
              {describePolicy(tm, context.policy)}
            </span>{" "}
            · {t("context.model", { model: context.model })}
          </p>
          <ContextTools tools={context.tools ?? []} />
          <ol className="space-y-1">
            {context.entries.map((entry, i) => (
              <ContextEntryRow
                // biome-ignore lint/suspicious/noArrayIndexKey: entries are an immutable ordered record
                key={i}
                entry={entry}
                expanded={expanded.has(i)}
                onToggle={() => toggle(i)}
                {...links}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
