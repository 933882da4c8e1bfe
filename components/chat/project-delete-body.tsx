"use client";

import { useId } from "react";
import type { ProjectView } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";

export type ProjectDeleteMode = "delete" | "keepFacts" | "keep";

/**
 * The project deletion dialog's text: what it holds, and the choice the issue asks for — its conversations and
 * memories go with it (the default), only its memories are kept (global, ?keepFacts=true), or both are kept, moved
 * out of it (DELETE /api/projects/:id?keep=true).
 */
export function ProjectDeleteBody({
  project,
  mode,
  onMode,
}: {
  project: ProjectView | null;
  mode: ProjectDeleteMode;
  onMode: (mode: ProjectDeleteMode) => void;
}) {
  const t = useT("sidebar");
  const id = useId();
  if (!project) return null;
  const option = (value: ProjectDeleteMode, label: string) => (
    <label className="flex items-start gap-2 py-1 text-zinc-800">
      <input
        type="radio"
        name={`${id}-mode`}
        value={value}
        checked={mode === value}
        onChange={() => onMode(value)}
        className="mt-1"
        data-testid={`project-delete-${value}`}
      />
      <span>{label}</span>
    </label>
  );
  return (
    <>
      <span className="block" data-testid="project-delete-summary">
        {t("projects.deleteBody", {
          name: project.name,
          sessions: project.sessionCount,
          facts: project.factCount,
        })}
      </span>
      <fieldset className="mt-3">
        <legend className="font-medium text-zinc-800">{t("projects.deleteChoice")}</legend>
        {option("delete", t("projects.deleteAll"))}
        {option("keepFacts", t("projects.keepFacts"))}
        {option("keep", t("projects.keepAll"))}
      </fieldset>
    </>
  );
}
