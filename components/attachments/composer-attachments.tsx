"use client";

import { type ClipboardEvent, type DragEvent, useRef, useState } from "react";
import { useT } from "@/lib/i18n/client";
import type { ComposerAttachments, PendingAttachment } from "./use-composer-attachments";
import { useFileSize } from "./use-file-size";

// The accept list only steers the file chooser; the server judges every file by its bytes.
const ACCEPT =
  "image/png,image/jpeg,image/webp,image/gif,text/*,.txt,.md,.markdown,.csv,.json,.log,.yaml,.yml,.toml,.ini,.xml,.sql,.py,.js,.jsx,.ts,.tsx,.java,.c,.h,.cpp,.hpp,.cs,.go,.rs,.rb,.php,.swift,.kt,.sh,.css,.scss";

/** Paper clip: opens the file chooser. The hidden input also takes files from tests (`setInputFiles`). */
export function AttachButton({ files, disabled }: { files: ComposerAttachments; disabled?: boolean }) {
  const t = useT("attachments");
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-label={t("attach")}
        title={t("attach")}
        data-testid="attach-button"
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-400"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path
            strokeLinecap="round"
            strokeLinejoin="round"
            d="m18.4 11.1-6.9 6.9a4.5 4.5 0 0 1-6.4-6.4l7.6-7.6a3 3 0 0 1 4.2 4.2l-7.6 7.6a1.5 1.5 0 0 1-2.1-2.1l6.9-6.9"
          />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(e) => {
          files.add(Array.from(e.target.files ?? []));
          e.target.value = "";
        }}
      />
    </>
  );
}

/** Drag-and-drop onto the composer and pasting files into its text area. */
export function useFileDrop(files: ComposerAttachments) {
  const [dragging, setDragging] = useState(false);
  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes("Files");
  return {
    dragging,
    dropProps: {
      onDragOver: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setDragging(true);
      },
      onDragLeave: (e: DragEvent) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      },
      onDrop: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        files.add(Array.from(e.dataTransfer.files));
      },
    },
    onPaste: (e: ClipboardEvent) => {
      const pasted = Array.from(e.clipboardData.files);
      if (pasted.length === 0) return;
      // A copied picture comes as a file; copied text (even with a picture beside it) stays text.
      if (!e.clipboardData.types.includes("text/plain")) e.preventDefault();
      files.add(pasted);
    },
  };
}

function Progress({ item }: { item: PendingAttachment }) {
  const t = useT("attachments");
  const percent = Math.round(item.progress * 100);
  return (
    <div
      role="progressbar"
      aria-label={t("uploading", { name: item.name })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={t("progress", { percent })}
      data-testid="attachment-progress"
      className="absolute inset-x-1 bottom-1 h-1.5 overflow-hidden rounded-full bg-zinc-200"
    >
      <div className="h-full bg-zinc-900 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The files of the message being written: thumbnails (or names), upload progress, errors, and remove buttons. */
export function PendingAttachments({
  files,
  dragging,
  onRemoved,
}: {
  files: ComposerAttachments;
  dragging: boolean;
  /** Where focus goes once a file is removed (the text area). */
  onRemoved: () => void;
}) {
  const t = useT("attachments");
  const size = useFileSize();
  if (files.items.length === 0 && !files.notice && !dragging) return null;
  return (
    <div className="mx-auto mb-2 max-w-3xl space-y-1">
      {dragging && (
        <p className="rounded-lg border-2 border-dashed border-zinc-400 p-3 text-center text-sm text-zinc-600">
          {t("dropHere")}
        </p>
      )}
      {files.items.length > 0 && (
        <ul aria-label={t("list")} data-testid="composer-attachments" className="flex flex-wrap gap-2">
          {files.items.map((item) => (
            <li
              key={item.key}
              data-testid="composer-attachment"
              data-status={item.status}
              data-name={item.name}
              className={`relative flex h-16 max-w-full items-center gap-2 rounded-lg border bg-white pr-1 ${item.status === "failed" ? "border-red-300" : "border-zinc-200"}`}
            >
              {item.preview ? (
                // biome-ignore lint/performance/noImgElement: a local object URL; next/image cannot serve it
                <img src={item.preview} alt="" className="h-full w-16 shrink-0 rounded-l-lg object-cover" />
              ) : (
                <span
                  aria-hidden="true"
                  className="flex h-full w-12 shrink-0 items-center justify-center rounded-l-lg bg-zinc-100 font-mono text-xs text-zinc-600"
                >
                  TXT
                </span>
              )}
              <span className="min-w-0 max-w-48 text-xs">
                <span className="block truncate font-medium text-zinc-900">{item.name}</span>
                {item.status === "failed" ? (
                  <span role="alert" className="block text-red-700" data-testid="attachment-error">
                    {t("failed", { name: item.name, reason: item.error ?? "" })}
                  </span>
                ) : (
                  <span className="block text-zinc-600">{size(item.view?.bytes ?? item.size)}</span>
                )}
              </span>
              <button
                type="button"
                onClick={() => {
                  files.remove(item.key);
                  onRemoved();
                }}
                aria-label={t("remove", { name: item.name })}
                data-testid="attachment-remove"
                className="flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-zinc-900"
              >
                <span aria-hidden="true">×</span>
              </button>
              {item.status === "uploading" && <Progress item={item} />}
            </li>
          ))}
        </ul>
      )}
      {files.notice && (
        <p role="status" className="text-xs text-amber-700" data-testid="attachment-notice">
          {files.notice}
        </p>
      )}
    </div>
  );
}
