"use client";

import { useId } from "react";
import { useFileSize } from "@/components/attachments/use-file-size";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { Imported, ImportFailed } from "./import-outcome";
import { useDataImport } from "./use-data-import";

// Settings → Your data: POST /api/import with an export file, showing the upload's progress, then what was
// imported (with links to the new conversations) or why nothing was.

export function DataImport({ maxBytes }: { maxBytes: number }) {
  const t = useT("data");
  const size = useFileSize();
  const id = useId();
  const { file, state, busy, inputRef, choose, start } = useDataImport(maxBytes);

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-zinc-200 p-4">
      <h2 id={`${id}-title`} className="font-semibold">
        {t("import.heading")}
      </h2>
      <p className="text-sm text-zinc-600">{t("import.body", { limit: size(maxBytes) })}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
        className="flex flex-wrap items-end gap-3"
      >
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-zinc-700">
          {t("import.choose")}
          <input
            ref={inputRef}
            id={`${id}-file`}
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
            className="mt-1 block text-sm"
            data-testid="import-file"
          />
        </label>
        <Button type="submit" disabled={!file || busy} data-testid="import-start">
          {t("import.start")}
        </Button>
      </form>

      <div aria-live="polite" className="text-sm">
        {state.phase === "uploading" && (
          <div data-testid="import-progress">
            <progress
              max={100}
              value={state.percent}
              className="w-full"
              aria-label={t("import.uploading", { percent: state.percent })}
            />
            <p>{t("import.uploading", { percent: state.percent })}</p>
          </div>
        )}
        {state.phase === "processing" && <p data-testid="import-progress">{t("import.processing")}</p>}
        {state.phase === "done" && <Imported result={state.result} />}
        {state.phase === "failed" && <ImportFailed failure={state.failure} />}
      </div>
    </section>
  );
}
