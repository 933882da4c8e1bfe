"use client";

import { useId, useState } from "react";
import useSWR from "swr";
import { getJson, sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { UserSettingsView } from "./types";

const KEY = "/api/me/settings";
const MODES = ["off", "suggest", "auto"] as const;

/** What happens to facts found in the user's messages after each answer (PATCH /api/me/settings). */
export function ExtractionMode() {
  const t = useT("memory");
  const errorText = useErrorText();
  const id = useId();
  const { data, mutate } = useSWR(KEY, getJson<UserSettingsView>);
  const [failure, setFailure] = useState<string | null>(null);

  async function choose(memoryExtraction: UserSettingsView["memoryExtraction"]) {
    if (!data) return;
    setFailure(null);
    try {
      await mutate(sendJson<UserSettingsView>(KEY, "PATCH", { memoryExtraction }), {
        optimisticData: { ...data, memoryExtraction },
        rollbackOnError: true,
        populateCache: true,
        revalidate: false,
      });
    } catch (e) {
      setFailure(t("extraction.modeFailed", { reason: errorText(e) }));
    }
  }

  if (!data) return null;
  return (
    <fieldset className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="extraction-mode">
      <legend className="px-1 font-medium">{t("extraction.modeLabel")}</legend>
      <p id={`${id}-desc`} className="text-sm text-zinc-600">
        {t("extraction.modeExplain")}
      </p>
      <div className="mt-2 space-y-1 text-sm">
        {MODES.map((mode) => (
          <label key={mode} className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={data.memoryExtraction === mode}
              aria-describedby={`${id}-desc`}
              onChange={() => void choose(mode)}
              data-testid={`extraction-mode-${mode}`}
            />
            {t(`extraction.${mode}`)}
          </label>
        ))}
      </div>
      {failure && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      )}
    </fieldset>
  );
}
