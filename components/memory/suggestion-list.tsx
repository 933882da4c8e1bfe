"use client";

import useSWR from "swr";
import { ExtractedFact } from "@/components/chat/extracted-fact";
import { getJson } from "@/lib/client/api";
import { useT } from "@/lib/i18n/client";
import type { MemoriesPage } from "./types";

const KEY = "/api/memories?status=suggested&limit=100";

/** The suggestions waiting for review (GET /api/memories?status=suggested): save, edit then save, or dismiss. */
export function SuggestionList({ onAccepted }: { onAccepted: () => void }) {
  const t = useT("memory");
  const { data, mutate } = useSWR(KEY, getJson<MemoriesPage>);
  if (!data || data.memories.length === 0) return null;
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4 text-sm" data-testid="suggestion-list">
      <h2 className="font-medium">{t("extraction.reviewHeading")}</h2>
      <ul className="mt-2 space-y-2">
        {data.memories.map((m) => (
          <ExtractedFact
            key={m.id}
            fact={{ id: m.id, text: m.text, status: "suggested" }}
            onChange={(next) => {
              void mutate();
              // A saved suggestion joins the list of facts.
              if (next) onAccepted();
            }}
          />
        ))}
      </ul>
    </section>
  );
}
