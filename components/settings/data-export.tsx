"use client";

import { useId, useState } from "react";
import { useT } from "@/lib/i18n/client";

/** Settings → Your data: download everything (GET /api/me/export), with the attachments' files or without. */
export function DataExport() {
  const t = useT("data");
  const id = useId();
  const [inline, setInline] = useState(false);
  const href = `/api/me/export${inline ? "?attachments=inline" : ""}`;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-zinc-200 p-4">
      <h2 id={`${id}-title`} className="font-semibold">
        {t("export.heading")}
      </h2>
      <p className="text-sm text-zinc-600">{t("export.body")}</p>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          checked={inline}
          onChange={(e) => setInline(e.target.checked)}
          aria-describedby={`${id}-hint`}
          data-testid="export-include-files"
        />
        <span>
          {t("export.includeFiles")}
          <span id={`${id}-hint`} className="block text-xs text-zinc-600">
            {t("export.includeFilesHint")}
          </span>
        </span>
      </label>
      <a
        href={href}
        download
        className="inline-flex items-center justify-center rounded-md bg-zinc-900 px-3 py-2 text-sm font-medium text-white hover:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900"
        data-testid="export-all"
      >
        {t("export.download")}
      </a>
    </section>
  );
}
