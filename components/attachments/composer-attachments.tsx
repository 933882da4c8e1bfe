"use client";

import { useT } from "@/lib/i18n/client";
import type { ComposerAttachments, PendingAttachment } from "./use-composer-attachments";
import { useFileSize } from "./use-file-size";

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

/** One file of the message being written: its thumbnail (or name), size or error, progress, and remove button. */
function PendingFile({ item, onRemove }: { item: PendingAttachment; onRemove: () => void }) {
  const t = useT("attachments");
  const size = useFileSize();
  return (
    <li
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
        onClick={onRemove}
        aria-label={t("remove", { name: item.name })}
        data-testid="attachment-remove"
        className="flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-zinc-900"
      >
        <span aria-hidden="true">×</span>
      </button>
      {item.status === "uploading" && <Progress item={item} />}
    </li>
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
            <PendingFile
              key={item.key}
              item={item}
              onRemove={() => {
                files.remove(item.key);
                onRemoved();
              }}
            />
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
