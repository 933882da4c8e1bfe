"use client";

import { Button } from "@/components/ui/button";
import type { ProjectView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { SessionRow } from "./session-row";
import type { Organize, useSessionActions } from "./use-session-actions";
import { type SessionListFilter, useSessions } from "./use-sessions";

/** What every list of the sidebar shares: the actions, which row keeps its buttons shown, where focus goes back. */
export interface SessionListContext {
  actions: ReturnType<typeof useSessionActions>;
  projects: ProjectView[] | undefined;
  pathname: string;
  keepShown: string | null;
  setKeepShown: (id: string | null) => void;
  /** Focus goes back to a row's button; with `onlyIfLost`, only when the focus was lost (its row re-rendered away). */
  refocus: (id: string, what: "rename" | "delete" | "menu", options?: { onlyIfLost?: boolean }) => void;
}

/** One list of conversations (a project's, those outside any, or the archived ones), with its loading states. */
export function SessionList({
  filter,
  ctx,
  empty,
  testId,
}: {
  filter: SessionListFilter;
  ctx: SessionListContext;
  /** Said when the list has no conversation. */
  empty: string;
  testId: string;
}) {
  const t = useT("sidebar");
  const errorText = useErrorText();
  const list = useSessions(filter);
  const { actions, keepShown, setKeepShown, refocus } = ctx;

  async function organize(id: string, change: Organize) {
    setKeepShown(id);
    await actions.organize(id, change);
    // The row may have left this list (archived, moved), taking the focus with it: focus then goes to the list
    // that shows it, if any. A user who has gone on (opened the menu again, moved elsewhere) keeps their focus.
    refocus(id, "menu", { onlyIfLost: true });
  }

  return (
    <>
      {list.error && (
        <div
          role="alert"
          className="m-2 rounded bg-red-50 p-2 text-xs text-red-700"
          data-testid="sidebar-error"
        >
          <p>{t("loadFailed", { reason: errorText(list.error) })}</p>
          <button type="button" className="mt-1 underline" onClick={() => void list.mutate()}>
            {t("retry")}
          </button>
        </div>
      )}
      {list.isLoading && <p className="px-3 py-2 text-sm text-zinc-600">{t("loading")}</p>}
      {list.sessions?.length === 0 && <p className="px-3 py-2 text-sm text-zinc-600">{empty}</p>}
      <ul className="space-y-0.5" data-testid={testId}>
        {list.sessions?.map((s) => (
          <SessionRow
            key={s.id}
            session={s}
            active={ctx.pathname === `/c/${s.id}`}
            renaming={actions.renaming === s.id}
            keepShown={keepShown === s.id}
            onRenameStart={() => {
              actions.setRenaming(s.id);
              setKeepShown(s.id);
            }}
            onRename={(title) => void actions.rename(s.id, title, list.mutate)}
            onRenameCancel={() => actions.setRenaming(null)}
            onRefocus={() => refocus(s.id, "rename")}
            onFocusElsewhere={() => setKeepShown(null)}
            onDelete={() => {
              actions.setToDelete(s);
              setKeepShown(s.id);
            }}
            projects={ctx.projects}
            onOrganize={(change) => void organize(s.id, change)}
          />
        ))}
      </ul>
      {list.hasMore && (
        <Button
          variant="ghost"
          className="my-2 w-full"
          disabled={list.loadingMore}
          onClick={() => void list.loadMore()}
        >
          {list.loadingMore ? t("loadingOlder") : t("showOlder")}
        </Button>
      )}
    </>
  );
}
