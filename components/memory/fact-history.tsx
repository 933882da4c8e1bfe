"use client";

import Link from "next/link";
import { useState } from "react";
import { type FactVersionView, getMemoryHistory } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import { FactExpiry } from "./fact-expiry";

type Loaded = { expiresAt: string | null; sourceSessionId: string | null; history: FactVersionView[] };

/**
 * A fact's history (GET /api/memories/:id), read when first opened: each version with when, what changed, by whom
 * and a link to the message it came from; then the expiry control.
 */
export function FactHistory({ memoryId, onSaved }: { memoryId: string; onSaved: () => Promise<unknown> }) {
  const t = useT("memory");
  const format = useFormat();
  const errorText = useErrorText();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function load() {
    setFailure(null);
    try {
      setLoaded((await getMemoryHistory(memoryId)).memory);
    } catch (e) {
      setFailure(t("history.loadFailed", { reason: errorText(e) }));
    }
  }

  return (
    <details
      className="mt-2"
      data-testid="memory-history"
      onToggle={(e) => {
        if (e.currentTarget.open && !loaded) void load();
      }}
    >
      <summary className="cursor-pointer text-xs font-medium text-zinc-700 hover:text-zinc-900">
        {t("history.summary")}
      </summary>
      {failure && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {failure}
        </p>
      )}
      {!loaded && !failure && <p className="mt-1 text-xs text-zinc-600">{t("history.loading")}</p>}
      {loaded && (
        <div className="mt-2 flex flex-col gap-2">
          <ol
            className="flex flex-col gap-1 border-l border-zinc-300 pl-3 text-xs"
            aria-label={t("history.versions")}
          >
            {loaded.history.map((v) => (
              <li
                key={`${v.changedAt}-${v.change}-${v.text}`}
                data-testid="memory-version"
                data-change={v.change}
              >
                <span className="font-medium text-zinc-900">{t("history.change", { change: v.change })}</span>{" "}
                <span className="text-zinc-600">
                  {t("history.by", { by: v.by })} · {format.dateTime(v.changedAt)}
                </span>
                {v.sourceMessageId && loaded.sourceSessionId && (
                  <>
                    {" · "}
                    <Link
                      className="text-zinc-700 underline hover:text-zinc-900"
                      href={`/c/${loaded.sourceSessionId}?message=${encodeURIComponent(v.sourceMessageId)}`}
                    >
                      {t("history.fromMessage")}
                    </Link>
                  </>
                )}
                <p className="whitespace-pre-wrap text-zinc-800 [overflow-wrap:anywhere]">{v.text}</p>
              </li>
            ))}
          </ol>
          <FactExpiry
            memoryId={memoryId}
            expiresAt={loaded.expiresAt}
            onSaved={async (expiresAt) => {
              setLoaded({ ...loaded, expiresAt });
              await onSaved();
            }}
          />
        </div>
      )}
    </details>
  );
}
