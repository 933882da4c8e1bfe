"use client";

import { useEffect, useState } from "react";
import useSWR from "swr";
import { getJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { type ContextToolEntry, ContextTools } from "./context-tools";
import { formatCount } from "./format";
import { describePolicy, describeSummary } from "./memory-words";

interface ContextEntry {
  source: "system" | "summary" | "fact" | "history" | "current" | "tool";
  role: string;
  seq?: number;
  chars: number;
  tokens: number;
  preview: string;
  /** On a summary: the history range it covers, how many messages, its version, the model and when. */
  summary?: {
    fromSeq: number;
    throughSeq: number;
    messages: number;
    version: number;
    model: string;
    createdAt: string;
  };
  /** On the long-term memory section: each fact sent and the message it was learned from. */
  facts?: FactSent[];
}

interface TurnContextView {
  messageId: string;
  seq: number;
  entries: ContextEntry[];
  tools?: ContextToolEntry[] | null;
  tokenEstimate: number;
  policy: string;
  model: string;
  createdAt: string;
}

/** What one turn sent to the model, in order — read back from the server's record, never reconstructed. */
export function ContextPanel({ url, onClose }: { url: string; onClose: () => void }) {
  // Fetched each time the panel opens: a retried answer has a new context under the same message id.
  const { data, error } = useSWR(url, getJson<{ context: TurnContextView }>, { revalidateOnFocus: false });
  const context = data?.context;
  const t = useT("chat");
  const tm = useT("chatMemory");
  const tt = useT("tools");
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
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: entries are an immutable ordered record
                key={i}
                className="flex gap-2 rounded bg-white p-2"
                data-testid="context-entry"
                data-source={entry.source}
                data-seq={entry.seq ?? ""}
              >
                <span className="w-36 shrink-0 text-xs text-zinc-500">
                  {entry.source === "tool" ? tt("contextSource") : t(`context.source.${entry.source}`)}
                  {entry.seq !== undefined ? ` #${entry.seq}` : ""} · {entry.role}
                </span>
                <span className="min-w-0 flex-1">
                  {entry.summary && (
                    <span
                      className="block text-xs font-medium text-zinc-700"
                      data-testid="context-summary-range"
                    >
                      {describeSummary(tm, entry.summary)}
                    </span>
                  )}
                  <button
                    type="button"
                    onClick={() => toggle(i)}
                    aria-expanded={expanded.has(i)}
                    className={`block w-full text-left ${expanded.has(i) ? "whitespace-pre-wrap [overflow-wrap:anywhere]" : "truncate"}`}
                    title={entry.preview}
                    data-testid="context-entry-preview"
                  >
                    {entry.preview || <em className="text-zinc-500">{t("context.empty")}</em>}
                  </button>
                  {entry.facts && <FactsSent facts={entry.facts} />}
                </span>
                <span
                  className="shrink-0 text-xs tabular-nums text-zinc-500"
                  data-testid="context-entry-tokens"
                >
                  {t("context.entryTokens", { count: formatCount(entry.tokens) })}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

interface FactSent {
  id: string;
  sourceSessionId: string;
  sourceMessageId: string;
  /** The fact's text now (absent once deleted). */
  text?: string;
  deleted?: boolean;
  replaced?: boolean;
}

/** The long-term facts a turn was sent, each linking to the message it was learned from. */
function FactsSent({ facts }: { facts: FactSent[] }) {
  const t = useT("tools");
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label={t("factsSent")} data-testid="context-facts">
      {facts.map((f) => (
        <li key={f.id} data-testid="context-fact" data-fact-id={f.id} className="[overflow-wrap:anywhere]">
          {f.deleted ? (
            <em className="text-zinc-500">{t("factDeleted")}</em>
          ) : (
            <>
              <span className="text-zinc-800">{f.text}</span>
              {f.replaced && <em className="text-zinc-500"> ({t("factReplaced")})</em>} ·{" "}
              <a
                href={`/c/${f.sourceSessionId}?message=${f.sourceMessageId}`}
                className="underline"
                data-testid="context-fact-source"
              >
                {t("factSource")}
              </a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
