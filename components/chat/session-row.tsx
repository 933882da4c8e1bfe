"use client";

import Link from "next/link";
import type { ProjectView, SessionSummary } from "@/lib/client/types";
import { useFormat, useT } from "@/lib/i18n/client";
import { SessionMenu } from "./session-menu";
import type { Organize } from "./use-session-actions";

const ACTION = "py-2 text-xs group-focus-within:block group-hover:block max-md:block pointer-coarse:block";

/**
 * One conversation in the sidebar: its link (marked when pinned), or the field that renames it, its Rename and
 * Delete buttons and its menu (pin, archive, move to a project).
 */
export function SessionRow({
  session: s,
  active,
  renaming,
  keepShown,
  onRenameStart,
  onRename,
  onRenameCancel,
  onRefocus,
  onFocusElsewhere,
  onDelete,
  projects,
  onOrganize,
}: {
  session: SessionSummary;
  active: boolean;
  renaming: boolean;
  /** The buttons stay shown (they only show on hover or focus) until focus is back on them. */
  keepShown: boolean;
  onRenameStart: () => void;
  onRename: (title: string) => void;
  onRenameCancel: () => void;
  /** Focus goes back to the Rename button. */
  onRefocus: () => void;
  /** The field lost focus to another element: the buttons need not stay shown. */
  onFocusElsewhere: () => void;
  onDelete: () => void;
  projects: ProjectView[] | undefined;
  onOrganize: (change: Organize) => void;
}) {
  const t = useT("sidebar");
  const format = useFormat();
  const shown = keepShown ? "block" : "hidden";
  return (
    <li
      className={`group flex items-center rounded-md ${active ? "bg-zinc-200" : "hover:bg-zinc-100"}`}
      data-testid="session-row"
      data-session-id={s.id}
      data-pinned={s.pinnedAt ? "true" : undefined}
    >
      {renaming ? (
        <form
          className="flex-1 p-1"
          onSubmit={(e) => {
            e.preventDefault();
            const title = String(new FormData(e.currentTarget).get("title") ?? "").trim();
            if (title) onRename(title);
            onRefocus();
          }}
        >
          <input
            name="title"
            defaultValue={s.title}
            aria-label={t("titleField")}
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
            autoFocus
            onKeyDown={(e) => {
              if (e.key !== "Escape") return;
              onRenameCancel();
              onRefocus();
            }}
            onBlur={(e) => {
              onRenameCancel();
              if (e.relatedTarget) onFocusElsewhere();
            }}
            className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
          />
        </form>
      ) : (
        <>
          <Link
            href={`/c/${s.id}`}
            className="flex min-w-0 flex-1 items-center gap-2 px-3 py-2 text-sm"
            aria-current={active ? "page" : undefined}
            data-testid="session-link"
          >
            {s.pinnedAt && (
              <>
                <PinMark />
                <span className="sr-only">{t("pinned")} </span>
              </>
            )}
            <span className="truncate">{s.title}</span>
            {s.importedAt && (
              <span
                className="shrink-0 rounded-full bg-sky-50 px-1.5 text-xs font-medium text-sky-900"
                data-testid="imported-badge"
                title={t("importedTitle", { date: format.dateTime(s.importedAt) })}
              >
                {t("imported")}
              </span>
            )}
          </Link>
          <button
            type="button"
            className={`${shown} ${ACTION} px-1 text-zinc-600 hover:text-zinc-900`}
            onClick={onRenameStart}
            aria-label={t("renameLabel", { title: s.title })}
            data-rename-for={s.id}
          >
            {t("rename")}
          </button>
          <button
            type="button"
            className={`${shown} ${ACTION} px-2 text-red-700 hover:text-red-800`}
            onClick={onDelete}
            aria-label={t("deleteLabel", { title: s.title })}
            data-testid="delete-session"
            data-delete-for={s.id}
          >
            {t("delete")}
          </button>
          <SessionMenu
            session={s}
            projects={projects}
            className={`${shown} ${ACTION}`}
            onOrganize={onOrganize}
          />
        </>
      )}
    </li>
  );
}

function PinMark() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="mr-1 inline-block size-3 align-[-1px] text-zinc-600"
      fill="currentColor"
      data-testid="pin-mark"
    >
      <path d="M9.8 1.2a.75.75 0 0 1 1.06 0l3.94 3.94a.75.75 0 0 1-.33 1.25l-2.1.6-2.3 2.3.4 3a.75.75 0 0 1-1.27.63L6.7 10.4l-3.42 3.42a.75.75 0 1 1-1.06-1.06L5.64 9.3 3.12 6.8a.75.75 0 0 1 .63-1.27l3 .4 2.3-2.3.6-2.1a.75.75 0 0 1 .15-.33Z" />
    </svg>
  );
}
