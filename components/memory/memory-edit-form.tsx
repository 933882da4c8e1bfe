"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { MAX_FACT_CHARS } from "./types";
import type { FactEdit } from "./use-fact-edit";

/** A fact's text being edited: Enter saves, Shift+Enter starts a line, Escape cancels. */
export function MemoryEditForm({ edit }: { edit: FactEdit }) {
  const t = useT("memory");
  const id = useId();
  const { draft, saving, failure } = edit;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void edit.save();
      }}
      className="space-y-2"
    >
      <label htmlFor={`${id}-text`} className="sr-only">
        {t("list.fieldLabel")}
      </label>
      <textarea
        ref={edit.field}
        id={`${id}-text`}
        value={draft}
        maxLength={MAX_FACT_CHARS}
        rows={2}
        readOnly={saving}
        aria-describedby={`${id}-hint`}
        aria-invalid={failure ? true : undefined}
        onChange={(e) => edit.setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void edit.save();
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            edit.stop();
          }
        }}
        className="block w-full resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus:border-zinc-900 focus:ring-1 focus:ring-zinc-900 focus:outline-none"
        data-testid="memory-edit-input"
      />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={saving} data-testid="memory-save">
          {saving ? t("list.saving") : t("list.save")}
        </Button>
        <Button variant="secondary" disabled={saving} onClick={edit.stop}>
          {t("list.cancel")}
        </Button>
        <span id={`${id}-hint`} className="text-xs text-zinc-500">
          {t("list.editHint")}
        </span>
      </div>
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-2 text-red-800" data-testid="memory-edit-error">
          {failure}
        </p>
      )}
    </form>
  );
}
