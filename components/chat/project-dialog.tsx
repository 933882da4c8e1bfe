"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { sendJson } from "@/lib/client/api";
import type { ProjectView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ProjectFiles } from "./project-files";

/** The most characters of a project's instructions (MAX_INSTRUCTION_CHARS on the server). */
const MAX_INSTRUCTIONS = 4000;

/**
 * Creates a project (`project` "new") or edits one: its name and instructions (POST /api/projects,
 * PATCH /api/projects/:id). Editing also lists its files (add, delete) and offers to delete it. A modal on the
 * native <dialog>; Escape cancels.
 */
export function ProjectDialog({
  project,
  fileMaxBytes,
  onSaved,
  onDelete,
  onClose,
}: {
  project: ProjectView | "new";
  fileMaxBytes: number;
  onSaved: (project: ProjectView, created: boolean) => void;
  onDelete: (project: ProjectView) => void;
  onClose: () => void;
}) {
  const t = useT("sidebar");
  const tCommon = useT("common");
  const errorText = useErrorText();
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editing = project === "new" ? null : project;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  async function save(form: HTMLFormElement) {
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    const instructions = String(data.get("instructions") ?? "");
    if (!name) {
      setError(t("projects.nameRequired"));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { project: saved } = editing
        ? await sendJson<{ project: ProjectView }>(`/api/projects/${editing.id}`, "PATCH", {
            name,
            instructions,
          })
        : await sendJson<{ project: ProjectView }>("/api/projects", "POST", { name, instructions });
      onSaved(saved, editing === null);
    } catch (e) {
      setError(t("projects.saveFailed", { reason: errorText(e) }));
    } finally {
      setPending(false);
    }
  }

  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        // React passes the cancel of a dialog opened inside this one (a file's delete confirmation) up to here.
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-full max-w-lg rounded-xl p-0 shadow-xl backdrop:bg-black/40"
      aria-labelledby={`${id}-title`}
      data-testid="project-dialog"
    >
      <form
        className="space-y-4 p-6"
        onSubmit={(e) => {
          e.preventDefault();
          void save(e.currentTarget);
        }}
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {editing ? t("projects.editTitle") : t("projects.newTitle")}
        </h2>
        <Field
          id={`${id}-name`}
          name="name"
          label={t("projects.name")}
          defaultValue={editing?.name ?? ""}
          maxLength={100}
          required
          autoComplete="off"
          data-testid="project-name"
        />
        <label htmlFor={`${id}-instructions`} className="block text-sm font-medium text-zinc-700">
          {t("projects.instructions")}
          <textarea
            id={`${id}-instructions`}
            name="instructions"
            defaultValue={editing?.instructions ?? ""}
            maxLength={MAX_INSTRUCTIONS}
            rows={5}
            aria-describedby={`${id}-instructions-hint`}
            className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900"
            data-testid="project-instructions"
          />
        </label>
        <p id={`${id}-instructions-hint`} className="text-xs text-zinc-600">
          {t("projects.instructionsHint")}
        </p>
        {/* Saved at once, apart from the name and instructions: Cancel does not undo an upload or a deletion. */}
        {editing && <ProjectFiles projectId={editing.id} maxBytes={fileMaxBytes} />}
        {error && (
          <p
            role="alert"
            className="rounded bg-red-50 px-3 py-2 text-sm text-red-700"
            data-testid="project-error"
          >
            {error}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-end gap-2">
          {editing && (
            <Button
              variant="ghost"
              className="mr-auto text-red-700"
              onClick={() => onDelete(editing)}
              disabled={pending}
              data-testid="project-delete"
            >
              {t("projects.delete")}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            {tCommon("actions.cancel")}
          </Button>
          <Button type="submit" disabled={pending} data-testid="project-save">
            {pending ? tCommon("actions.working") : editing ? t("projects.save") : t("projects.create")}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
