"use client";

import { useId, useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { getJson, sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { UserSettingsView } from "./types";

const KEY = "/api/me/settings";

/**
 * The user's long-term memory switch (PATCH /api/me/settings). The new position shows at once; if the server
 * refuses or cannot be reached, the old one comes back with the reason.
 */
export function LongTermSwitch() {
  const t = useT("memory");
  const errorText = useErrorText();
  const id = useId();
  const { data, error, isLoading, mutate } = useSWR(KEY, getJson<UserSettingsView>);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function toggle() {
    if (!data) return;
    const next = { ...data, longTermMemory: !data.longTermMemory };
    setSaving(true);
    setFailure(null);
    try {
      await mutate(sendJson<UserSettingsView>(KEY, "PATCH", { longTermMemory: next.longTermMemory }), {
        optimisticData: next,
        rollbackOnError: true,
        populateCache: true,
        revalidate: false,
      });
    } catch (e) {
      setFailure(t("setting.failed", { reason: errorText(e) }));
    } finally {
      setSaving(false);
    }
  }

  const on = data?.longTermMemory ?? false;
  return (
    <section
      aria-labelledby={`${id}-label`}
      className="rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="long-term-memory-setting"
    >
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id={`${id}-label`} className="font-medium">
            {t("setting.label")}
          </h2>
          {data && (
            <p
              id={`${id}-desc`}
              className="mt-1 text-sm text-zinc-600"
              data-testid="long-term-memory-explain"
            >
              {on ? t("setting.on") : t("setting.off")}
            </p>
          )}
        </div>
        {data && (
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby={`${id}-label`}
            aria-describedby={`${id}-desc`}
            aria-busy={saving}
            // Not `disabled` while saving: a disabled button drops the keyboard focus.
            onClick={() => {
              if (!saving) void toggle();
            }}
            className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900 aria-busy:cursor-wait ${on ? "border-zinc-900 bg-zinc-900" : "border-zinc-300 bg-zinc-200"}`}
            data-testid="long-term-memory-switch"
          >
            <span
              aria-hidden="true"
              className={`inline-block h-5 w-5 rounded-full shadow transition-transform ${on ? "translate-x-6 bg-white" : "translate-x-1 bg-zinc-500"}`}
            />
          </button>
        )}
      </div>
      {isLoading && <p className="mt-1 text-sm text-zinc-500">{t("setting.loading")}</p>}
      {error && !data && (
        <div role="alert" className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
          <p>{t("setting.loadFailed", { reason: errorText(error) })}</p>
          <Button variant="ghost" className="mt-1 -ml-3" onClick={() => void mutate()}>
            {t("list.retry")}
          </Button>
        </div>
      )}
      {failure && (
        <p
          role="alert"
          className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="long-term-memory-error"
        >
          {failure}
        </p>
      )}
    </section>
  );
}
