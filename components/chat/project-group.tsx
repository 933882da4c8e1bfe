"use client";

import Link from "next/link";
import { useId } from "react";
import type { ProjectView } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { SessionList, type SessionListContext } from "./session-list";
import { setProjectOpen, useProjectOpen } from "./use-open-projects";

/**
 * A project in the sidebar: a group that opens and closes (remembered in this browser), with its name and count,
 * its Edit button, and when open "New chat in project" and its conversations.
 */
export function ProjectGroup({
  project,
  ctx,
  onEdit,
  onNavigate,
}: {
  project: ProjectView;
  ctx: SessionListContext;
  onEdit: () => void;
  /** A link in it was followed (the phone's drawer closes). */
  onNavigate: () => void;
}) {
  const t = useT("sidebar");
  const id = useId();
  const [open, toggle] = useProjectOpen(project.id);
  return (
    <li data-testid="project-group" data-project-id={project.id} data-open={open ? "true" : "false"}>
      <div className="flex items-center rounded-md hover:bg-zinc-100">
        <button
          type="button"
          className="flex min-w-0 flex-1 items-center gap-1.5 px-2 py-2 text-left text-sm font-medium"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={toggle}
          data-testid="project-toggle"
        >
          <span aria-hidden="true" className="w-3 text-xs text-zinc-600">
            {open ? "▾" : "▸"}
          </span>
          <span className="truncate" data-testid="project-name-label">
            {project.name}
          </span>
          <span className="ml-auto pl-1 text-xs tabular-nums text-zinc-600" data-testid="project-count">
            <span aria-hidden="true">{project.sessionCount}</span>
            <span className="sr-only">{t("projects.count", { count: project.sessionCount })}</span>
          </span>
        </button>
        <button
          type="button"
          className="px-2 py-2 text-xs text-zinc-600 hover:text-zinc-900"
          onClick={onEdit}
          aria-label={t("projects.editLabel", { name: project.name })}
          data-testid="project-edit"
          data-edit-project={project.id}
        >
          {t("projects.edit")}
        </button>
      </div>
      {open && (
        <div id={`${id}-body`} className="mb-1 ml-3 border-l border-zinc-200 pl-1">
          <Link
            href={`/?project=${encodeURIComponent(project.id)}`}
            onClick={() => {
              setProjectOpen(project.id, true);
              onNavigate();
            }}
            className="block rounded-md px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100"
            data-testid="new-chat-in-project"
          >
            <span aria-hidden="true">+ </span>
            {t("projects.newChat")}
            <span className="sr-only"> {t("projects.inProject", { name: project.name })}</span>
          </Link>
          <SessionList
            filter={{ projectId: project.id }}
            ctx={ctx}
            empty={t("projects.empty")}
            testId="project-session-list"
          />
        </div>
      )}
    </li>
  );
}
