"use client";

import { useState } from "react";
import { acceptFact, deleteFact, type ExtractedFactView } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ACTION } from "./message-actions";

/**
 * One fact found in the user's message: a suggestion (save, edit then save, dismiss) or, once saved, "Remembered: …"
 * with Undo. `onChange` hands back the fact as it is now, or null once it is gone.
 */
export function ExtractedFact({
  fact,
  onChange,
}: {
  fact: ExtractedFactView;
  onChange: (fact: ExtractedFactView | null) => void;
}) {
  const t = useT("memory");
  const errorText = useErrorText();
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function run(work: () => Promise<ExtractedFactView | null>) {
    setBusy(true);
    setFailure(null);
    try {
      onChange(await work());
      setEditing(null);
    } catch (e) {
      setFailure(t("extraction.failed", { reason: errorText(e) }));
    } finally {
      setBusy(false);
    }
  }
  const save = (text?: string) => run(async () => (await acceptFact(fact.id, text)).memory);
  const remove = () =>
    run(async () => {
      await deleteFact(fact.id);
      return null;
    });
  const values = { text: fact.text };

  if (fact.status === "active") {
    return (
      <li className="flex flex-wrap items-center gap-2" data-testid="extracted-fact" data-status="active">
        <span className="[overflow-wrap:anywhere]">{t("extraction.remembered", values)}</span>
        <button
          type="button"
          className={ACTION}
          disabled={busy}
          aria-label={t("extraction.undoAria", values)}
          onClick={() => void remove()}
          data-testid="extracted-fact-undo"
        >
          {t("extraction.undo")}
        </button>
        {failure && <span role="alert">{failure}</span>}
      </li>
    );
  }
  return (
    <li className="flex flex-wrap items-center gap-2" data-testid="extracted-fact" data-status="suggested">
      {editing === null ? (
        <span className="rounded-full border border-zinc-300 bg-white px-2 py-0.5 text-zinc-800 [overflow-wrap:anywhere]">
          {fact.text}
        </span>
      ) : (
        <input
          className="min-w-0 flex-1 rounded border border-zinc-300 px-2 py-0.5 text-zinc-900"
          aria-label={t("extraction.fieldLabel")}
          value={editing}
          maxLength={500}
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") void save(editing);
            if (e.key === "Escape") setEditing(null);
          }}
          data-testid="extracted-fact-input"
        />
      )}
      <button
        type="button"
        className={ACTION}
        disabled={busy}
        aria-label={t("extraction.saveAria", values)}
        onClick={() => void save(editing ?? undefined)}
        data-testid="extracted-fact-save"
      >
        {t("extraction.save")}
      </button>
      {editing === null ? (
        <button
          type="button"
          className={ACTION}
          disabled={busy}
          aria-label={t("extraction.editAria", values)}
          onClick={() => setEditing(fact.text)}
          data-testid="extracted-fact-edit"
        >
          {t("extraction.edit")}
        </button>
      ) : (
        <button type="button" className={ACTION} disabled={busy} onClick={() => setEditing(null)}>
          {t("extraction.cancel")}
        </button>
      )}
      <button
        type="button"
        className={ACTION}
        disabled={busy}
        aria-label={t("extraction.dismissAria", values)}
        onClick={() => void remove()}
        data-testid="extracted-fact-dismiss"
      >
        {t("extraction.dismiss")}
      </button>
      {failure && <span role="alert">{failure}</span>}
    </li>
  );
}
