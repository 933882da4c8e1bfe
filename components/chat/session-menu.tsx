"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { ProjectView, SessionSummary } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import type { Organize } from "./use-session-actions";

const ITEM =
  "block w-full px-3 py-2 text-left text-sm text-zinc-800 hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none";

/**
 * A conversation's menu in the sidebar: Pin/Unpin, Archive/Restore, and "Move to project…" (its projects and "No
 * project"). An ARIA menu: arrows move, Home/End jump, Escape closes and gives focus back to its button, Tab leaves.
 */
export function SessionMenu({
  session: s,
  projects,
  className,
  onOrganize,
}: {
  session: SessionSummary;
  projects: ProjectView[] | undefined;
  className: string;
  onOrganize: (change: Organize) => void;
}) {
  const t = useT("sidebar");
  const id = useId();
  const [view, setView] = useState<"closed" | "main" | "move">("closed");
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const open = view !== "closed";

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setView("closed");
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setView("closed");
    if (refocus) trigger.current?.focus();
  };
  const choose = (change: Organize) => {
    close(true);
    onOrganize(change);
  };

  function onKeyDown(e: React.KeyboardEvent) {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === "ArrowDown") focus(at + 1);
    else if (e.key === "ArrowUp") focus(at - 1);
    else if (e.key === "Home") focus(0);
    else if (e.key === "End") focus(items.length - 1);
    else if (e.key === "Escape") {
      e.stopPropagation();
      if (view === "move") setView("main");
      else close(true);
    } else if (e.key === "Tab") {
      setView("closed");
      return;
    } else return;
    e.preventDefault();
  }

  const pinned = Boolean(s.pinnedAt);
  const archived = Boolean(s.archivedAt);
  return (
    <div className="relative" ref={wrapper}>
      <button
        ref={trigger}
        type="button"
        className={`${open ? "block" : className} px-2 text-zinc-600 hover:text-zinc-900`}
        aria-label={t("row.label", { title: s.title })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => setView(open ? "closed" : "main")}
        data-testid="session-menu"
        data-menu-for={s.id}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={`${id}-menu`}
          role="menu"
          aria-label={view === "move" ? t("row.moveTitle") : t("row.label", { title: s.title })}
          tabIndex={-1}
          onKeyDown={onKeyDown}
          className="absolute right-0 top-full z-30 mt-1 max-h-72 w-56 overflow-y-auto rounded-lg border border-zinc-200 bg-white py-1 shadow-lg"
          data-testid="session-menu-items"
        >
          {view === "main" ? (
            <>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={ITEM}
                onClick={() => choose({ pinned: !pinned })}
                data-testid={pinned ? "menu-unpin" : "menu-pin"}
              >
                {pinned ? t("row.unpin") : t("row.pin")}
              </button>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={ITEM}
                onClick={() => choose({ archived: !archived })}
                data-testid={archived ? "menu-restore" : "menu-archive"}
              >
                {archived ? t("row.restore") : t("row.archive")}
              </button>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-haspopup="menu"
                className={ITEM}
                onClick={() => setView("move")}
                data-testid="menu-move"
              >
                {t("row.move")}
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={`${ITEM} text-zinc-600`}
                onClick={() => setView("main")}
              >
                {t("row.back")}
              </button>
              <hr className="my-1 border-zinc-200" />
              {[{ id: null, name: t("row.noProject") }, ...(projects ?? [])].map((p) => (
                <button
                  key={p.id ?? ""}
                  type="button"
                  role="menuitemradio"
                  aria-checked={(s.projectId ?? null) === p.id}
                  tabIndex={-1}
                  className={`${ITEM} truncate aria-checked:font-semibold`}
                  onClick={() => choose({ projectId: p.id })}
                  data-testid="menu-move-to"
                  data-project-id={p.id ?? "none"}
                >
                  {(s.projectId ?? null) === p.id && <span aria-hidden="true">✓ </span>}
                  {p.name}
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}
