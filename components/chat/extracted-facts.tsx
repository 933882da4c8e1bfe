"use client";

import { useEffect, useState } from "react";
import { type ExtractedFactView, getExtractedFacts } from "@/lib/client/api";
import { useT } from "@/lib/i18n/client";
import { ExtractedFact } from "./extracted-fact";

/** A second look after this long, for a server whose extraction ran in another instance. */
const AGAIN_MS = 1500;

/**
 * Under an answer written while the page was open: the facts the extraction found in its question, as
 * "Save to memory?" chips or "Remembered: …" lines. The server answers once that message's extraction is done, so
 * the chips never race it; when it finds none, one later look covers an extraction still running elsewhere.
 */
export function ExtractedFacts({ messageId }: { messageId: string }) {
  const t = useT("memory");
  const [facts, setFacts] = useState<ExtractedFactView[]>([]);
  useEffect(() => {
    let live = true;
    const look = async (again: boolean) => {
      const { memories } = await getExtractedFacts(messageId);
      if (!live) return;
      if (memories.length > 0 || !again) setFacts(memories);
      else setTimeout(() => void look(false).catch(ignore), AGAIN_MS);
    };
    // Chips are an offer, not the answer: when they cannot be loaded the review list on /memory still has them.
    const ignore = () => undefined;
    void look(true).catch(ignore);
    return () => {
      live = false;
    };
  }, [messageId]);

  if (facts.length === 0) return null;
  const change = (id: string) => (next: ExtractedFactView | null) =>
    setFacts((all) => all.flatMap((f) => (f.id !== id ? [f] : next ? [next] : [])));
  const suggested = facts.some((f) => f.status === "suggested");
  return (
    <section
      className="mt-1 text-xs text-zinc-600"
      data-testid="extracted-facts"
      aria-label={t("extraction.heading")}
    >
      {suggested && <p className="font-medium text-zinc-700">{t("extraction.heading")}</p>}
      <ul className="mt-1 space-y-1">
        {facts.map((f) => (
          <ExtractedFact key={f.id} fact={f} onChange={change(f.id)} />
        ))}
      </ul>
    </section>
  );
}
