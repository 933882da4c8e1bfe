"use client";

import { Button } from "@/components/ui/button";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import type { ApiKeyView } from "./use-api-keys";

/** The working keys, each with its prefix, when it was created and last used, and Revoke. */
export function ApiKeyList({
  keys,
  error,
  isLoading,
  onRevoke,
}: {
  keys: ApiKeyView[] | undefined;
  error: unknown;
  isLoading: boolean;
  onRevoke: (key: ApiKeyView) => void;
}) {
  const t = useT("settings");
  const errorText = useErrorText();
  const format = useFormat();
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : t("keys.never"));
  return (
    <section aria-label={t("keys.yours")}>
      <h2 className="mb-2 text-sm font-semibold text-zinc-700">{t("keys.yourKeys")}</h2>
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          {errorText(error)}
        </p>
      ) : isLoading || !keys ? (
        <p className="text-sm text-zinc-500">{t("keys.loading")}</p>
      ) : keys.length === 0 ? (
        <p className="text-sm text-zinc-500" data-testid="api-keys-empty">
          {t("keys.empty")}
        </p>
      ) : (
        <ul
          className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white"
          data-testid="api-keys"
        >
          {keys.map((k) => (
            <li key={k.id} className="flex items-center gap-3 px-3 py-2 text-sm" data-testid="api-key-row">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{k.name}</p>
                <p className="text-xs text-zinc-500">
                  <span className="font-mono">{k.prefix}…</span> ·{" "}
                  {t("keys.meta", { created: when(k.createdAt), used: when(k.lastUsedAt) })}
                </p>
              </div>
              <Button variant="ghost" onClick={() => onRevoke(k)} data-testid="api-key-revoke">
                {t("keys.revoke")}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
