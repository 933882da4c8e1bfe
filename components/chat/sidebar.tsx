"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere";
import { LocaleSwitch } from "@/components/i18n/locale-switch";
import { MemoryLink } from "@/components/memory/memory-link";
import { SearchButton } from "@/components/search/search-dialog";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { sendJson } from "@/lib/client/api";
import type { SessionSummary } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { Shortcuts } from "./shortcuts";
import { setTabTitle } from "./tab-title";
import { forgetDraft } from "./use-draft";
import { useSessions } from "./use-sessions";

export function Sidebar({ user }: { user: { name: string; email: string; role: "USER" | "ADMIN" } }) {
  const t = useT("sidebar");
  const tAuth = useT("auth");
  const tData = useT("data");
  const errorText = useErrorText();
  const pathname = usePathname();
  const router = useRouter();
  const list = useSessions();
  const { sessions, mutate } = list;
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<SessionSummary | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  // Below the md breakpoint the sidebar is a drawer: the menu button opens it, choosing a conversation (any
  // navigation), Escape or the backdrop closes it, and focus goes back to the menu button.
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Rename and Delete give focus back to the button that started them (found by conversation id: the row
  // re-renders). The row's buttons only show on hover or focus, so they stay shown until focus is back.
  const [keepShown, setKeepShown] = useState<string | null>(null);
  const refocus = (id: string, what: "rename" | "delete") => {
    setKeepShown(id);
    requestAnimationFrame(() => {
      drawer.current?.querySelector<HTMLElement>(`[data-${what}-for="${CSS.escape(id)}"]`)?.focus();
      setKeepShown(null);
    });
  };
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const closeDrawer = (refocus: boolean) => {
    setDrawerOpen(false);
    if (refocus) menuButton.current?.focus();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (the path changed) closes the drawer
  useEffect(() => {
    setDrawerOpen(false);
  }, [pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    drawer.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector("dialog[open]")) {
        setDrawerOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  // redirect: false keeps the navigation on this host; next-auth would build it from NEXTAUTH_URL.
  async function signOutHere() {
    try {
      await signOut({ redirect: false });
      router.replace("/login");
      router.refresh();
    } catch (e) {
      setError(errorText(e));
    }
  }

  /** Shows the new title at once; a refusal or a lost connection puts the old one back and says why. */
  async function rename(id: string, title: string) {
    setEditing(null);
    setError(null);
    try {
      await mutate(
        async (pages) => {
          await sendJson(`/api/sessions/${id}`, "PATCH", { title });
          if (pathname === `/c/${id}`) setTabTitle(title);
          return pages;
        },
        {
          optimisticData: (pages) =>
            (pages ?? []).map((page) => ({
              ...page,
              sessions: page.sessions.map((s) => (s.id === id ? { ...s, title } : s)),
            })),
          rollbackOnError: true,
          populateCache: false,
          revalidate: true,
        },
      );
    } catch (e) {
      setError(t("renameFailed", { reason: errorText(e) }));
    }
  }

  async function confirmDelete() {
    if (!toDelete) return;
    const { id } = toDelete;
    setDeleting(true);
    setError(null);
    try {
      const data = await sendJson<{ receipt: Receipt }>(`/api/sessions/${id}`, "DELETE");
      forgetDraft(id);
      setReceipt(data.receipt);
      if (pathname === `/c/${id}`) router.push("/");
    } catch (e) {
      setError(t("deleteFailed", { reason: errorText(e) }));
    } finally {
      setDeleting(false);
      setToDelete(null);
      void mutate();
    }
  }

  return (
    <>
      <div className="flex items-center gap-2 border-b border-zinc-200 bg-white px-3 py-2 md:hidden">
        <button
          ref={menuButton}
          type="button"
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
          aria-expanded={drawerOpen}
          aria-controls="sidebar"
          onClick={() => setDrawerOpen(true)}
          data-testid="menu-button"
        >
          <span aria-hidden="true">☰</span> {t("menu")}
        </button>
        <span className="font-semibold">Recall</span>
      </div>
      {drawerOpen && (
        <button
          type="button"
          tabIndex={-1}
          aria-label={t("closeMenu")}
          className="fixed inset-0 z-30 bg-black/40 md:hidden"
          onClick={() => closeDrawer(true)}
          data-testid="drawer-backdrop"
        />
      )}
      <aside
        ref={drawer}
        id="sidebar"
        aria-label={t("label")}
        className={`${drawerOpen ? "flex" : "hidden"} fixed inset-y-0 left-0 z-40 w-80 max-w-[85vw] shrink-0 flex-col border-r border-zinc-200 bg-white shadow-xl md:static md:flex md:h-full md:w-72 md:max-w-none md:shadow-none`}
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
            onClick={() => setDrawerOpen(false)}
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
            {sessions?.map((s) => {
              const active = pathname === `/c/${s.id}`;
              return (
                <li
                  key={s.id}
                  className={`group flex items-center rounded-md ${active ? "bg-zinc-200" : "hover:bg-zinc-100"}`}
                >
                  {editing === s.id ? (
                    <form
                      className="flex-1 p-1"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const title = String(new FormData(e.currentTarget).get("title") ?? "").trim();
                        if (title) void rename(s.id, title);
                        refocus(s.id, "rename");
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
                          setEditing(null);
                          refocus(s.id, "rename");
                        }}
                        onBlur={(e) => {
                          setEditing(null);
                          if (e.relatedTarget) setKeepShown(null);
                        }}
                        className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
                      />
                    </form>
                  ) : (
                    <>
                      <Link
                        href={`/c/${s.id}`}
                        className="flex-1 truncate px-3 py-2 text-sm"
                        aria-current={active ? "page" : undefined}
                        data-testid="session-link"
                      >
                        {s.title}
                      </Link>
                      <button
                        type="button"
                        className={`${keepShown === s.id ? "block" : "hidden"} px-1 py-2 text-xs text-zinc-600 hover:text-zinc-900 group-focus-within:block group-hover:block max-md:block pointer-coarse:block`}
                        onClick={() => {
                          setEditing(s.id);
                          setKeepShown(s.id);
                        }}
                        aria-label={t("renameLabel", { title: s.title })}
                        data-rename-for={s.id}
                      >
                        {t("rename")}
                      </button>
                      <button
                        type="button"
                        className={`${keepShown === s.id ? "block" : "hidden"} px-2 py-2 text-xs text-red-700 hover:text-red-800 group-focus-within:block group-hover:block max-md:block pointer-coarse:block`}
                        onClick={() => {
                          setToDelete(s);
                          setKeepShown(s.id);
                        }}
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
            })}
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
            <Button variant="ghost" className="mt-2 w-full" onClick={() => setReceipt(null)}>
              {t("dismiss")}
            </Button>
          </div>
        )}
        <div className="border-t border-zinc-200 p-3 text-sm">
          <p className="truncate font-medium" data-testid="current-user">
            {user.name}
          </p>
          <p className="truncate text-xs text-zinc-500">{user.email}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {user.role === "ADMIN" && (
              <Link href="/admin" className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100">
                {t("admin")}
              </Link>
            )}
            <MemoryLink className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100" />
            <Link
              href="/settings/keys"
              className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100"
              data-testid="api-keys-link"
            >
              {t("apiKeys")}
            </Link>
            <Link
              href="/settings/data"
              className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100"
              data-testid="data-link"
            >
              {tData("link")}
            </Link>
            <Button variant="ghost" onClick={() => void signOutHere()} data-testid="sign-out">
              {tAuth("signOut.here")}
            </Button>
          </div>
          <SignOutEverywhereButton className="mt-1" />
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <ThemeSwitch />
            <LocaleSwitch />
            <Shortcuts className="px-2 py-1 text-xs" />
          </div>
        </div>
        <ConfirmDialog
          open={toDelete !== null}
          title={t("confirmTitle")}
          body={t("confirmBody", { title: toDelete?.title ?? "" })}
          confirmLabel={t("confirmLabel")}
          pending={deleting}
          onConfirm={() => void confirmDelete()}
          onCancel={() => {
            if (toDelete) refocus(toDelete.id, "delete");
            setToDelete(null);
          }}
        />
      </aside>
    </>
  );
}
