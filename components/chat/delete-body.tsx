"use client";

import { useEffect, useState } from "react";
import { getSessionFactCount } from "@/lib/client/api";
import type { SessionSummary } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";

type Count = { sessionId: string; facts: number | "failed" };

/**
 * The deletion dialog's text, naming how many long-term facts learned in the conversation go with it, with the
 * choice to keep them instead (unticked: the default stays "delete them").
 */
export function DeleteBody({
  session,
  keepFacts,
  onKeepFactsChange,
}: {
  session: SessionSummary | null;
  keepFacts: boolean;
  onKeepFactsChange: (keep: boolean) => void;
}) {
  const t = useT("sidebar");
  const [count, setCount] = useState<Count | null>(null);
  const sessionId = session?.id ?? null;

  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    getSessionFactCount(sessionId).then(
      (facts) => live && setCount({ sessionId, facts }),
      () => live && setCount({ sessionId, facts: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [sessionId]);

  const facts = count && count.sessionId === sessionId ? count.facts : null;
  return (
    <>
      <span className="block">{t("confirmBody", { title: session?.title ?? "" })}</span>
      <span className="mt-2 block" data-testid="delete-fact-count">
        {facts === null
          ? t("factCountLoading")
          : facts === "failed"
            ? t("factCountFailed")
            : t("factCount", { count: facts })}
      </span>
      {typeof facts === "number" && facts > 0 && (
        <label className="mt-2 flex items-start gap-2 text-zinc-800">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-zinc-900"
            checked={keepFacts}
            onChange={(e) => onKeepFactsChange(e.target.checked)}
            data-testid="delete-keep-facts"
          />
          <span>{t("keepFacts", { count: facts })}</span>
        </label>
      )}
    </>
  );
}
