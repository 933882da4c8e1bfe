"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { SearchButton } from "@/components/search/search-button";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ReceiptView } from "@/components/ui/receipt";
import { useErrorText, useT } from "@/lib/i18n/client";
import { DeleteBody } from "./delete-body";
import { DrawerToggle } from "./drawer-toggle";
import { SessionRow } from "./session-row";
import { SidebarAccount } from "./sidebar-account";
import { useDrawer } from "./use-drawer";
import { useSessionActions } from "./use-session-actions";
import { useSessions } from "./use-sessions";

export function Sidebar({ user }: { user: { name: string; email: string; role: "USER" | "ADMIN" } }) {
  const t = useT("sidebar");
  const errorText = useErrorText();
  const pathname = usePathname();
  const list = useSessions();
  const { sessions, mutate } = list;
  const actions = useSessionActions(mutate);
  const { error, setError, receipt, toDelete } = actions;
  const drawer = useDrawer();
  // Rename and Delete give focus back to the button that started them (found by conversation id: the row
  // re-renders). The row's buttons only show on hover or focus, so they stay shown until focus is back.
  const [keepShown, setKeepShown] = useState<string | null>(null);
  const refocus = (id: string, what: "rename" | "delete") => {
    setKeepShown(id);
    requestAnimationFrame(() => {
      drawer.drawer.current?.querySelector<HTMLElement>(`[data-${what}-for="${CSS.escape(id)}"]`)?.focus();
      setKeepShown(null);
    });
  };

  return (
    <>
      <DrawerToggle drawer={drawer} />
      <aside
        ref={drawer.drawer}
        id="sidebar"
        aria-label={t("label")}
        className={`${drawer.open ? "flex" : "hidden"} fixed inset-y-0 left-0 z-40 w-80 max-w-[85vw] shrink-0 flex-col border-r border-zinc-200 bg-white shadow-xl md:static md:flex md:h-full md:w-72 md:max-w-none md:shadow-none`}
        data-testid="sidebar"
      >
        <div className="flex items-center justify-between gap-2 p-3">
          <Link href="/" className="text-lg font-semibold">
            Recall
          </Link>
          <a
            href="#composer"
            className="sr-only focus:not-sr-only focus:rounded-md focus:px-2 focus:py-1 focus:text-sm"
          >
            {t("skipToComposer")}
          </a>
          <Link
            href="/"
            onClick={() => drawer.setOpen(false)}
            data-testid="new-chat"
            className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100"
          >
            {t("newChat")}
          </Link>
          <SearchButton />
        </div>
        <nav className="flex-1 overflow-y-auto px-2" aria-label={t("conversations")}>
          {(error || list.error) && (
            <div
              role="alert"
              className="m-2 rounded bg-red-50 p-2 text-xs text-red-700"
              data-testid="sidebar-error"
            >
              <p>{error ?? t("loadFailed", { reason: errorText(list.error) })}</p>
              <button
                type="button"
                className="mt-1 underline"
                onClick={() => {
                  setError(null);
                  void mutate();
                }}
              >
                {error ? t("dismiss") : t("retry")}
              </button>
            </div>
          )}
          {list.isLoading && <p className="p-3 text-sm text-zinc-500">{t("loading")}</p>}
          {sessions?.length === 0 && <p className="p-3 text-sm text-zinc-500">{t("empty")}</p>}
          <ul className="space-y-0.5" data-testid="session-list">
            {sessions?.map((s) => (
              <SessionRow
                key={s.id}
                session={s}
                active={pathname === `/c/${s.id}`}
                renaming={actions.renaming === s.id}
                keepShown={keepShown === s.id}
                onRenameStart={() => {
                  actions.setRenaming(s.id);
                  setKeepShown(s.id);
                }}
                onRename={(title) => void actions.rename(s.id, title)}
                onRenameCancel={() => actions.setRenaming(null)}
                onRefocus={() => refocus(s.id, "rename")}
                onFocusElsewhere={() => setKeepShown(null)}
                onDelete={() => {
                  actions.setToDelete(s);
                  setKeepShown(s.id);
                }}
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
        </nav>
        {receipt && (
          <div className="m-2 rounded-md border border-zinc-200 bg-zinc-50 p-3" role="status">
            <ReceiptView receipt={receipt} />
            <Button variant="ghost" className="mt-2 w-full" onClick={() => actions.setReceipt(null)}>
              {t("dismiss")}
            </Button>
          </div>
        )}
        <SidebarAccount user={user} onError={setError} />
        <ConfirmDialog
          open={toDelete !== null}
          title={t("confirmTitle")}
          body={
            <DeleteBody
              session={toDelete}
              keepFacts={actions.keepFacts}
              onKeepFactsChange={actions.setKeepFacts}
            />
          }
          confirmLabel={t("confirmLabel")}
          pending={actions.deleting}
          onConfirm={() => void actions.confirmDelete()}
          onCancel={() => {
            if (toDelete) refocus(toDelete.id, "delete");
            actions.setToDelete(null);
          }}
        />
      </aside>
    </>
  );
}
