"use client";

import Link from "next/link";
import type { SessionSummary } from "@/lib/client/types";
import { useFormat, useT } from "@/lib/i18n/client";

const ACTION = "py-2 text-xs group-focus-within:block group-hover:block max-md:block pointer-coarse:block";

/** One conversation in the sidebar: its link, or the field that renames it, and its Rename and Delete buttons. */
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
}) {
  const t = useT("sidebar");
  const format = useFormat();
  const shown = keepShown ? "block" : "hidden";
  return (
    <li className={`group flex items-center rounded-md ${active ? "bg-zinc-200" : "hover:bg-zinc-100"}`}>
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
        </>
      )}
    </li>
  );
}
