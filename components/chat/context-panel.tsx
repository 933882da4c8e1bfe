"use client";

import { useEffect } from "react";
import useSWR from "swr";
import { getJson, messageOf } from "./api";
import { formatCount } from "./format";
import { describePolicy, describeSummary } from "./memory-words";

interface ContextEntry {
  source: "system" | "summary" | "fact" | "history" | "current";
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
}

interface TurnContextView {
  messageId: string;
  seq: number;
  entries: ContextEntry[];
  tokenEstimate: number;
  policy: string;
  model: string;
  createdAt: string;
}

const sourceLabel: Record<ContextEntry["source"], string> = {
  system: "system prompt",
  summary: "summary",
  fact: "fact",
  history: "history",
  current: "current question",
};

/** What one turn sent to the model, in order — read back from the server's record, never reconstructed. */
export function ContextPanel({ url, onClose }: { url: string; onClose: () => void }) {
  // Fetched each time the panel opens: a retried answer has a new context under the same message id.
  const { data, error } = useSWR(url, getJson<{ context: TurnContextView }>, { revalidateOnFocus: false });
  const context = data?.context;

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
      aria-label="Context sent to the model"
    >
      <div className="mb-2 flex items-center justify-between">
        <h3 className="font-medium">Sent to the model for this answer</h3>
        <button type="button" onClick={onClose} className="text-xs text-zinc-500 hover:text-zinc-900">
          Close
        </button>
      </div>
      {error && (
        <p role="alert" className="text-red-700">
          Could not load the context: {messageOf(error)}
        </p>
      )}
      {!context && !error && <p className="text-zinc-500">Loading…</p>}
      {context && (
        <>
          <p className="mb-2 text-xs text-zinc-500" data-testid="context-summary">
            {context.entries.length} items ·{" "}
            <span data-testid="context-tokens">{formatCount(context.tokenEstimate)} tokens</span> · memory:{" "}
            <span className="text-zinc-700" title={`policy ${context.policy}`} data-testid="context-policy">
              {describePolicy(context.policy)}
            </span>{" "}
            · model {context.model}
          </p>
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
                  {sourceLabel[entry.source]}
                  {entry.seq !== undefined ? ` #${entry.seq}` : ""} · {entry.role}
                </span>
                <span className="min-w-0 flex-1">
                  {entry.summary && (
                    <span
                      className="block text-xs font-medium text-zinc-700"
                      data-testid="context-summary-range"
                    >
                      {describeSummary(entry.summary)}
                    </span>
                  )}
                  <span className="block truncate" title={entry.preview}>
                    {entry.preview || <em className="text-zinc-500">(empty)</em>}
                  </span>
                </span>
                <span
                  className="shrink-0 text-xs tabular-nums text-zinc-500"
                  data-testid="context-entry-tokens"
                >
                  {formatCount(entry.tokens)} tok
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
