"use client";

import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { receiptSentence } from "@/components/ui/receipt";
import { deleteProjectFile, listProjectFiles, uploadProjectFile } from "@/lib/client/api";
import type { ProjectFileView } from "@/lib/client/types";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import { PROJECT_FILE_ACCEPT } from "@/lib/projects/chunk";
import { fileDetails, fileSize, uploadRefusal } from "./project-file-words";

interface Notice {
  id: number;
  kind: "added" | "deleted" | "error";
  text: string;
}

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes("Files");

/**
 * A project's files in its dialog (GET/POST /api/projects/:id/files, DELETE …/files/:fileId): the list with each
 * file's size, parts and date; "Add files…" (or a drop on the panel) uploads them one after another with their
 * progress; Delete asks first and then says what went. Every outcome is announced.
 */
export function ProjectFiles({ projectId, maxBytes }: { projectId: string; maxBytes: number }) {
  const t = useT("projectFiles");
  const tReceipt = useT("receipt");
  const errorText = useErrorText();
  const format = useFormat();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const noticeId = useRef(0);
  const { data, error, isLoading, mutate } = useSWR(
    ["project-files", projectId],
    () => listProjectFiles(projectId),
    { revalidateOnFocus: false },
  );
  const [pending, setPending] = useState<{ name: string; progress: number } | null>(null);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [toDelete, setToDelete] = useState<ProjectFileView | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [dragging, setDragging] = useState(false);
  // Where focus goes once the confirmation has closed (the closing dialog would put it back on a removed button).
  const [refocus, setRefocus] = useState<{ fileId: string } | "add" | null>(null);
  const limit = fileSize(t, format, maxBytes);

  const notice = (kind: Notice["kind"], text: string): Notice => ({ id: ++noticeId.current, kind, text });
  const refusal = (name: string, e: unknown) =>
    notice("error", t("failed", { name, reason: uploadRefusal(t, format, e, maxBytes, errorText) }));

  async function add(files: File[]) {
    if (pending || files.length === 0) return;
    setNotices([]);
    for (const file of files) {
      // Refused here without a request: the server would say the same after reading the whole body.
      if (file.size === 0 || file.size > maxBytes) {
        const code = file.size === 0 ? "bad_request" : "payload_too_large";
        setNotices((n) => [...n, refusal(file.name, { code, details: { maxBytes } })]);
        continue;
      }
      setPending({ name: file.name, progress: 0 });
      try {
        const added = await uploadProjectFile(projectId, file, (progress) =>
          setPending({ name: file.name, progress }),
        );
        await mutate((list) => [added, ...(list ?? []).filter((f) => f.id !== added.id)], {
          revalidate: false,
        });
        setNotices((n) => [
          ...n,
          notice("added", t("added", { name: added.name, parts: t("parts", { n: added.chunkCount }) })),
        ]);
      } catch (e) {
        setNotices((n) => [...n, refusal(file.name, e)]);
      }
    }
    setPending(null);
  }

  async function confirmDelete() {
    const file = toDelete;
    if (!file) return;
    setDeleting(true);
    try {
      const receipt = await deleteProjectFile(projectId, file.id);
      await mutate((list) => (list ?? []).filter((f) => f.id !== file.id), { revalidate: false });
      const sentence = tReceipt("deletedForGood", { sentence: receiptSentence(tReceipt, receipt.deleted) });
      setNotices([notice("deleted", t("deleted", { name: file.name, receipt: sentence }))]);
    } catch (e) {
      setNotices([notice("error", t("deleteFailed", { name: file.name, reason: errorText(e) }))]);
      void mutate();
    } finally {
      setDeleting(false);
      setToDelete(null);
      setRefocus("add");
    }
  }

  function cancelDelete() {
    if (toDelete) setRefocus({ fileId: toDelete.id });
    setToDelete(null);
  }

  // After the commit that closed the confirmation (its own effect, a child's, has run first).
  useEffect(() => {
    if (toDelete !== null || refocus === null) return;
    const target =
      refocus === "add"
        ? addRef.current
        : listRef.current?.querySelector<HTMLElement>(`[data-delete-file="${CSS.escape(refocus.fileId)}"]`);
    (target ?? addRef.current)?.focus();
    setRefocus(null);
  }, [toDelete, refocus]);

  const onDrag = (e: DragEvent<HTMLElement>) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = pending ? "none" : "copy";
    setDragging(true);
  };

  const successes = notices.filter((n) => n.kind !== "error");
  const failures = notices.filter((n) => n.kind === "error");

  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`space-y-2 rounded-md border p-3 ${dragging ? "border-dashed border-zinc-900 bg-zinc-50" : "border-zinc-200"}`}
      onDragEnter={onDrag}
      onDragOver={onDrag}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        void add(Array.from(e.dataTransfer.files));
      }}
      data-testid="project-files"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-sm font-medium text-zinc-700">
          {t("title")}
        </h3>
        <Button
          ref={addRef}
          variant="secondary"
          onClick={() => inputRef.current?.click()}
          disabled={pending !== null}
          aria-describedby={`${id}-hint`}
          data-testid="project-file-add"
        >
          {t("add")}
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={PROJECT_FILE_ACCEPT}
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const files = Array.from(e.currentTarget.files ?? []);
            // Picking the same file again must fire change again.
            e.currentTarget.value = "";
            void add(files);
          }}
          data-testid="project-file-input"
        />
      </div>
      <p id={`${id}-hint`} className="text-xs text-zinc-600">
        {dragging ? t("dropHere") : t("hint", { limit })}
      </p>

      <div role="status" className="space-y-1 text-sm empty:hidden">
        {pending && (
          <div data-testid="project-file-pending">
            <p className="text-zinc-700 [overflow-wrap:anywhere]">
              {pending.progress < 1
                ? t("uploading", { name: pending.name })
                : t("reading", { name: pending.name })}
            </p>
            <progress
              value={pending.progress}
              max={1}
              aria-label={t("progress", { percent: Math.round(pending.progress * 100) })}
              className="h-1.5 w-full accent-zinc-900"
            />
          </div>
        )}
        {successes.map((n) => (
          <p
            key={n.id}
            className="rounded bg-emerald-50 px-3 py-2 text-emerald-900 [overflow-wrap:anywhere]"
            data-testid="project-file-notice"
            data-kind={n.kind}
          >
            {n.text}
          </p>
        ))}
      </div>
      {failures.length > 0 && (
        <div role="alert" className="space-y-1 text-sm">
          {failures.map((n) => (
            <p
              key={n.id}
              className="rounded bg-red-50 px-3 py-2 text-red-700 [overflow-wrap:anywhere]"
              data-testid="project-file-notice"
              data-kind="error"
            >
              {n.text}
            </p>
          ))}
        </div>
      )}
      {notices.length > 0 && !pending && (
        <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setNotices([])}>
          {t("dismiss")}
        </Button>
      )}

      {data === undefined && isLoading && (
        <p className="text-sm text-zinc-600" data-testid="project-files-loading">
          {t("loading")}
        </p>
      )}
      {data === undefined && error && (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-700">
          <span data-testid="project-files-error">{t("loadFailed", { reason: errorText(error) })}</span>
          <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => void mutate()}>
            {t("retry")}
          </Button>
        </div>
      )}
      {data?.length === 0 && (
        <p className="text-sm text-zinc-600" data-testid="project-files-empty">
          {t("empty")}
        </p>
      )}
      {data && data.length > 0 && (
        <ul
          ref={listRef}
          aria-label={t("list")}
          className="divide-y divide-zinc-200"
          data-testid="project-file-list"
        >
          {data.map((file) => (
            <li
              key={file.id}
              className="flex items-center gap-2 py-1.5"
              data-testid="project-file"
              data-file-id={file.id}
            >
              <div className="min-w-0 flex-1">
                <p
                  className="text-sm font-medium text-zinc-900 [overflow-wrap:anywhere]"
                  data-testid="project-file-name"
                >
                  {file.name}
                </p>
                <p className="text-xs text-zinc-600" data-testid="project-file-details">
                  {fileDetails(t, format, file)}
                </p>
              </div>
              <Button
                variant="ghost"
                className="shrink-0 px-2 py-1 text-red-700"
                aria-label={t("deleteLabel", { name: file.name })}
                onClick={() => setToDelete(file)}
                disabled={deleting}
                data-delete-file={file.id}
                data-testid="project-file-delete"
              >
                {t("delete")}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title={t("deleteTitle")}
        body={
          toDelete && (
            <p className="[overflow-wrap:anywhere]">
              {t("deleteBody", { name: toDelete.name, parts: t("parts", { n: toDelete.chunkCount }) })}
            </p>
          )
        }
        confirmLabel={t("confirmDelete")}
        pending={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={cancelDelete}
      />
    </section>
  );
}
