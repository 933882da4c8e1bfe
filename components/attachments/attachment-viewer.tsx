"use client";

import { useEffect, useId, useRef, useState } from "react";
import { attachmentUrl } from "@/lib/attachments/parts";
import { request } from "@/lib/client/api";
import { useT } from "@/lib/i18n/client";
import { useFileSize } from "./use-file-size";

export interface ViewedAttachment {
  id: string;
  kind: "image" | "text";
  name: string;
  bytes: number;
  width?: number;
  height?: number;
}

/**
 * A modal view of one attachment on the native <dialog> (focus stays inside, Escape closes): the image at full size,
 * or the text file's content. Closing hands focus back to `returnFocus`, the thumbnail that opened it.
 */
export function AttachmentViewer({
  attachment,
  onClose,
  returnFocus,
}: {
  attachment: ViewedAttachment | null;
  onClose: () => void;
  returnFocus: () => void;
}) {
  const t = useT("attachments");
  const size = useFileSize();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [text, setText] = useState<{ id: string; value: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (attachment && !dialog.open) dialog.showModal();
    if (!attachment && dialog.open) dialog.close();
  }, [attachment]);

  useEffect(() => {
    if (attachment?.kind !== "text" || text?.id === attachment.id) return;
    const controller = new AbortController();
    request(attachmentUrl(attachment.id), { signal: controller.signal })
      .then(async (res) => {
        setText({ id: attachment.id, value: await res.text() });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(attachment.id);
      });
    return () => controller.abort();
  }, [attachment, text?.id]);

  const close = () => {
    onClose();
    returnFocus();
  };
  const error = attachment && failed === attachment.id;

  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      aria-labelledby={titleId}
      data-testid="attachment-viewer"
      className="m-auto max-h-[90vh] w-[min(56rem,calc(100vw-1rem))] overflow-hidden rounded-xl bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/60"
    >
      {attachment && (
        <div className="flex max-h-[90vh] flex-col">
          <header className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2">
            <div className="min-w-0 flex-1">
              <h2 id={titleId} className="truncate text-sm font-semibold">
                {attachment.name}
              </h2>
              <p className="text-xs text-zinc-600">
                {t("viewer.details", {
                  kind:
                    attachment.kind === "image" && attachment.width && attachment.height
                      ? t("viewer.image", { width: attachment.width, height: attachment.height })
                      : t("viewer.text"),
                  size: size(attachment.bytes),
                })}
              </p>
            </div>
            <a
              href={attachmentUrl(attachment.id)}
              target="_blank"
              rel="noopener noreferrer"
              className="text-xs text-zinc-700 underline hover:text-zinc-950"
            >
              {t("viewer.newTab")}
            </a>
            <button
              type="button"
              onClick={close}
              data-testid="attachment-viewer-close"
              className="rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
            >
              {t("viewer.close")}
            </button>
          </header>
          <div className="min-h-0 flex-1 overflow-auto p-4">
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {t("viewer.error")}
              </p>
            ) : attachment.kind === "image" ? (
              // biome-ignore lint/performance/noImgElement: an authenticated API file; next/image would proxy it
              <img
                src={attachmentUrl(attachment.id)}
                alt={attachment.name}
                onError={() => setFailed(attachment.id)}
                className="mx-auto max-h-[75vh] max-w-full object-contain"
              />
            ) : text?.id === attachment.id ? (
              <pre
                className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
                data-testid="attachment-text"
              >
                {text.value || t("viewer.empty")}
              </pre>
            ) : (
              <p className="text-sm text-zinc-600">{t("viewer.loading")}</p>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
