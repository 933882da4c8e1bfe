"use client";

import { useRef, useState } from "react";
import { attachmentUrl, readAttachmentParts } from "@/lib/attachments/parts";
import { useT } from "@/lib/i18n/client";
import { AttachmentViewer, type ViewedAttachment } from "./attachment-viewer";
import { useFileSize } from "./use-file-size";

/**
 * The attachments of a history message (from its stored `parts`, which GET /api/sessions/:id returns): image
 * thumbnails and text-file names, each opening the viewer. Nothing when the message has none.
 */
export function MessageAttachments({ parts, align = "end" }: { parts: unknown; align?: "start" | "end" }) {
  const t = useT("attachments");
  const size = useFileSize();
  const [open, setOpen] = useState<ViewedAttachment | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const attachments = readAttachmentParts(parts);
  if (attachments.length === 0) return null;

  return (
    <>
      <ul
        aria-label={t("inMessage")}
        data-testid="message-attachments"
        className={`mt-1 flex flex-wrap gap-2 ${align === "end" ? "justify-end" : "justify-start"}`}
      >
        {attachments.map((a) => (
          <li key={a.id}>
            <button
              type="button"
              onClick={(e) => {
                opener.current = e.currentTarget;
                setOpen(a);
              }}
              aria-label={t("open", { name: a.name })}
              data-testid="message-attachment"
              data-kind={a.kind}
              data-id={a.id}
              className="block overflow-hidden rounded-lg border border-zinc-200 bg-white text-left hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900"
            >
              {a.kind === "image" ? (
                // biome-ignore lint/performance/noImgElement: an authenticated API thumbnail; next/image would proxy it
                <img
                  src={attachmentUrl(a.id, { thumbnail: true })}
                  alt={
                    a.width && a.height
                      ? t("imageAlt", { name: a.name, width: a.width, height: a.height })
                      : a.name
                  }
                  loading="lazy"
                  className="block h-24 max-w-48 object-cover"
                  data-testid="message-attachment-thumbnail"
                />
              ) : (
                <span className="flex h-12 items-center gap-2 px-3 text-xs">
                  <span
                    aria-hidden="true"
                    className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-zinc-600"
                  >
                    TXT
                  </span>
                  <span className="max-w-40 truncate font-medium text-zinc-900">{a.name}</span>
                  <span className="text-zinc-600">{size(a.bytes)}</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <AttachmentViewer
        attachment={open}
        onClose={() => setOpen(null)}
        returnFocus={() => opener.current?.focus()}
      />
    </>
  );
}
