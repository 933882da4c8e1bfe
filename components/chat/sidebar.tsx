"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { SearchButton } from "@/components/search/search-button";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { getJson, sendJson } from "@/lib/client/api";
import type { ProjectView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ArchivedSection } from "./archived-section";
import { DeleteBody } from "./delete-body";
import { DrawerToggle } from "./drawer-toggle";
import { ProjectDeleteBody, type ProjectDeleteMode } from "./project-delete-body";
import { ProjectDialog } from "./project-dialog";
import { ProjectGroup } from "./project-group";
import { SessionList, type SessionListContext } from "./session-list";
import { SidebarAccount } from "./sidebar-account";
import { useDrawer } from "./use-drawer";
import { setProjectOpen } from "./use-open-projects";
import { useSessionActions } from "./use-session-actions";
import { useProjects } from "./use-sessions";

export function Sidebar({
  user,
  projectFileMaxBytes,
}: {
  user: { name: string; email: string; role: "USER" | "ADMIN" };
  /** The largest project file the server takes (PROJECT_FILE_MAX_BYTES). */
  projectFileMaxBytes: number;
}) {
  const t = useT("sidebar");
  const errorText = useErrorText();
  const pathname = usePathname();
  const router = useRouter();
  const headingId = useId();
  const projectList = useProjects();
  const { projects } = projectList;
  const actions = useSessionActions();
  const { error, setError, receipt, toDelete } = actions;
  const drawer = useDrawer();
  const nav = useRef<HTMLElement>(null);
  // Rename, Delete and the row's menu give focus back to the button that started them (found by conversation id:
  // the row re-renders, or moved to another list). The row's buttons only show on hover or focus, so they stay
  // shown until focus is back. A row that left every list shown gives focus to the list itself.
  const [keepShown, setKeepShown] = useState<string | null>(null);
  const refocus: SessionListContext["refocus"] = (id, what, { onlyIfLost = false } = {}) => {
    setKeepShown(id);
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (onlyIfLost && active && active !== document.body && active.isConnected) {
        setKeepShown(null);
        return;
      }
      const target = drawer.drawer.current?.querySelector<HTMLElement>(
        `[data-${what}-for="${CSS.escape(id)}"]`,
      );
      if (target) target.focus();
      else if (what === "menu" && !nav.current?.contains(document.activeElement)) nav.current?.focus();
      setKeepShown(null);
    });
  };
  const ctx: SessionListContext = { actions, projects, pathname, keepShown, setKeepShown, refocus };

  const [projectDialog, setProjectDialog] = useState<ProjectView | "new" | null>(null);
  const [projectToDelete, setProjectToDelete] = useState<ProjectView | null>(null);
  const [deleteMode, setDeleteMode] = useState<ProjectDeleteMode>("delete");
  const [deletingProject, setDeletingProject] = useState(false);
  const [moved, setMoved] = useState<Record<string, number> | null>(null);

  async function confirmProjectDelete() {
    if (!projectToDelete) return;
    setDeletingProject(true);
    setError(null);
    const keep = deleteMode === "keep";
    const query = { delete: "", keepFacts: "?keepFacts=true", keep: "?keep=true" }[deleteMode];
    try {
      const data = await sendJson<{ receipt: Receipt & { moved: Record<string, number> } }>(
        `/api/projects/${projectToDelete.id}${query}`,
        "DELETE",
      );
      actions.setReceipt(data.receipt);
      setMoved(deleteMode === "delete" ? null : data.receipt.moved);
      setProjectOpen(projectToDelete.id, false);
      // The conversation on screen may have gone with the project.
      const shown = /^\/c\/([^/]+)$/.exec(pathname)?.[1];
      if (!keep && shown) {
        await getJson(`/api/sessions/${shown}`).catch(() => router.push("/"));
      }
    } catch (e) {
      setError(t("projects.deleteFailed", { reason: errorText(e) }));
    } finally {
      setDeletingProject(false);
      setProjectToDelete(null);
      actions.revalidate();
    }
  }

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
        <nav
          ref={nav}
          tabIndex={-1}
          className="flex-1 overflow-y-auto px-2 pb-2 focus:outline-none"
          aria-label={t("conversations")}
        >
          {error && (
            <div
              role="alert"
              className="m-2 rounded bg-red-50 p-2 text-xs text-red-700"
              data-testid="sidebar-error"
            >
              <p>{error}</p>
              <button type="button" className="mt-1 underline" onClick={() => setError(null)}>
                {t("dismiss")}
              </button>
            </div>
          )}
          <section aria-labelledby={headingId} className="mb-2" data-testid="projects">
            <div className="flex items-center justify-between gap-2 px-2 pt-1">
              <h2 id={headingId} className="text-xs font-semibold text-zinc-600">
                {t("projects.title")}
              </h2>
              <button
                type="button"
                className="rounded-md px-2 py-1 text-xs text-zinc-700 hover:bg-zinc-100"
                onClick={() => setProjectDialog("new")}
                data-testid="new-project"
              >
                <span aria-hidden="true">+ </span>
                {t("projects.new")}
              </button>
            </div>
            {projectList.error && (
              <div role="alert" className="m-2 rounded bg-red-50 p-2 text-xs text-red-700">
                <p>{t("projects.loadFailed", { reason: errorText(projectList.error) })}</p>
                <button type="button" className="mt-1 underline" onClick={() => void projectList.mutate()}>
                  {t("retry")}
                </button>
              </div>
            )}
            {projects?.length === 0 && (
              <p className="px-2 py-1 text-xs text-zinc-600">{t("projects.none")}</p>
            )}
            <ul data-testid="project-list">
              {projects?.map((p) => (
                <ProjectGroup
                  key={p.id}
                  project={p}
                  ctx={ctx}
                  onEdit={() => setProjectDialog(p)}
                  onNavigate={() => drawer.setOpen(false)}
                />
              ))}
            </ul>
          </section>
          <h2 className="px-2 pt-1 pb-1 text-xs font-semibold text-zinc-600">{t("chats")}</h2>
          <SessionList
            filter={{ projectId: "none" }}
            ctx={ctx}
            empty={projects?.length ? t("emptyOutside") : t("empty")}
            testId="session-list"
          />
          <ArchivedSection ctx={ctx} />
        </nav>
        {receipt && (
          <div className="m-2 rounded-md border border-zinc-200 bg-zinc-50 p-3" role="status">
            <ReceiptView receipt={receipt} moved={moved} />
            <Button
              variant="ghost"
              className="mt-2 w-full"
              onClick={() => {
                actions.setReceipt(null);
                setMoved(null);
              }}
            >
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
          onConfirm={() => {
            setMoved(null);
            void actions.confirmDelete();
          }}
          onCancel={() => {
            if (toDelete) refocus(toDelete.id, "delete");
            actions.setToDelete(null);
          }}
        />
        {projectDialog && (
          <ProjectDialog
            project={projectDialog}
            fileMaxBytes={projectFileMaxBytes}
            onClose={() => setProjectDialog(null)}
            onSaved={(saved, created) => {
              setProjectDialog(null);
              if (created) setProjectOpen(saved.id, true);
              actions.revalidate();
            }}
            onDelete={(p) => {
              setProjectDialog(null);
              setDeleteMode("delete");
              setProjectToDelete(p);
            }}
          />
        )}
        <ConfirmDialog
          open={projectToDelete !== null}
          title={t("projects.deleteTitle")}
          body={<ProjectDeleteBody project={projectToDelete} mode={deleteMode} onMode={setDeleteMode} />}
          confirmLabel={deleteMode === "keep" ? t("projects.confirmKeep") : t("projects.confirmDelete")}
          pending={deletingProject}
          onConfirm={() => void confirmProjectDelete()}
          onCancel={() => {
            const id = projectToDelete?.id;
            setProjectToDelete(null);
            if (id) {
              requestAnimationFrame(() =>
                drawer.drawer.current
                  ?.querySelector<HTMLElement>(`[data-edit-project="${CSS.escape(id)}"]`)
                  ?.focus(),
              );
            }
          }}
        />
      </aside>
    </>
  );
}
