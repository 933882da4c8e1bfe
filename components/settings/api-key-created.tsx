"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import type { CreatedKey } from "./use-api-keys";

/** A key just created: its secret, shown this once, with Copy and Done. */
export function ApiKeyCreated({
  created,
  copied,
  onCopy,
  onDone,
}: {
  created: CreatedKey;
  copied: boolean;
  onCopy: () => void;
  onDone: () => void;
}) {
  const t = useT("settings");
  return (
    <section className="rounded-md border border-emerald-200 bg-emerald-50 p-4" aria-label={t("keys.newKey")}>
      <p className="text-sm font-medium text-emerald-900">{t("keys.newKeyNote", { name: created.name })}</p>
      <div className="mt-2 flex items-center gap-2">
        <code
          className="flex-1 break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900"
          data-testid="api-key-secret"
        >
          {created.key}
        </code>
        <Button variant="secondary" onClick={onCopy} data-testid="api-key-copy">
          {copied ? t("keys.copied") : t("keys.copy")}
        </Button>
      </div>
      <Button variant="ghost" className="mt-2" onClick={onDone}>
        {t("keys.done")}
      </Button>
    </section>
  );
}
