"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGES_PER_MESSAGE } from "@/lib/attachments/limits";
import { isAbort, RequestError, request } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { type AttachmentView, uploadFile } from "./upload-file";

export interface PendingAttachment {
  /** Local key (the server id is known only once uploaded). */
  key: string;
  name: string;
  size: number;
  /** What the browser guesses; the server decides by the bytes. */
  isImage: boolean;
  /** A local preview of an image while it uploads (an object URL). */
  preview: string | null;
  status: "uploading" | "ready" | "failed";
  /** 0…1 while uploading. */
  progress: number;
  error?: string;
  view?: AttachmentView;
}

let keys = 0;

/**
 * The files of the message being written: each uploads as soon as it is added (attach button, paste, drop), with
 * its progress; the message may be sent once none is still uploading. `take()` hands the uploaded ones to the send
 * and clears the list; `restore()` puts them back when the message was not sent. Removing an uploaded file deletes
 * it on the server too.
 */
export function useComposerAttachments() {
  const t = useT("attachments");
  const errorText = useErrorText();
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const uploads = useRef(new Map<string, AbortController>());
  const itemsRef = useRef(items);
  itemsRef.current = items;

  // Leaving the page cancels uploads and frees previews (uploaded files stay until sent or a day old).
  useEffect(
    () => () => {
      for (const controller of uploads.current.values()) controller.abort();
      for (const item of itemsRef.current) if (item.preview) URL.revokeObjectURL(item.preview);
    },
    [],
  );

  const update = useCallback((key: string, change: Partial<PendingAttachment>) => {
    setItems((prev) => prev.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      if (files.length === 0) return;
      const current = itemsRef.current.filter((item) => item.status !== "failed");
      let images = current.filter((item) => item.isImage).length;
      let total = current.length;
      const accepted: { file: File; item: PendingAttachment }[] = [];
      let refusal: string | null = null;
      for (const file of files) {
        const isImage = file.type.startsWith("image/");
        if (total >= MAX_ATTACHMENTS_PER_MESSAGE) {
          refusal = t("tooManyFiles", { max: MAX_ATTACHMENTS_PER_MESSAGE });
          continue;
        }
        if (isImage && images >= MAX_IMAGES_PER_MESSAGE) {
          refusal = t("tooManyImages", { max: MAX_IMAGES_PER_MESSAGE });
          continue;
        }
        total++;
        if (isImage) images++;
        accepted.push({
          file,
          item: {
            key: `file-${++keys}`,
            name: file.name || "file",
            size: file.size,
            isImage,
            preview: isImage ? URL.createObjectURL(file) : null,
            status: "uploading",
            progress: 0,
          },
        });
      }
      setNotice(refusal);
      setItems((prev) => [...prev, ...accepted.map((a) => a.item)]);
      for (const { file, item } of accepted) {
        const controller = new AbortController();
        uploads.current.set(item.key, controller);
        uploadFile(file, {
          signal: controller.signal,
          onProgress: (progress) => update(item.key, { progress }),
        })
          .then((view) =>
            update(item.key, { status: "ready", progress: 1, view, isImage: view.kind === "image" }),
          )
          .catch((e: unknown) => {
            if (isAbort(e)) return;
            const reason =
              e instanceof RequestError && e.status === 0 ? t("unreachable") : errorText(e, t("unreachable"));
            update(item.key, { status: "failed", error: reason });
          })
          .finally(() => uploads.current.delete(item.key));
      }
    },
    [t, errorText, update],
  );

  const remove = useCallback((key: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item) return;
    uploads.current.get(key)?.abort();
    if (item.preview) URL.revokeObjectURL(item.preview);
    // The server keeps an unsent upload a day at most; removing it says it is not wanted now.
    if (item.view) {
      void request(`/api/attachments/${encodeURIComponent(item.view.id)}`, { method: "DELETE" }).catch(
        () => {},
      );
    }
    setItems((prev) => prev.filter((i) => i.key !== key));
    setNotice(null);
  }, []);

  /** The uploaded files, handed to the message being sent; the list is cleared (failed ones too). */
  const take = useCallback((): PendingAttachment[] => {
    const taken = itemsRef.current.filter((item) => item.status === "ready");
    for (const item of itemsRef.current)
      if (item.status === "failed" && item.preview) URL.revokeObjectURL(item.preview);
    setItems([]);
    setNotice(null);
    return taken;
  }, []);

  /** Puts files taken for a message that was not sent back in front of anything added since. */
  const restore = useCallback((taken: PendingAttachment[]) => {
    if (taken.length) setItems((prev) => [...taken, ...prev]);
  }, []);

  const ready = items.filter((item) => item.status === "ready");
  return {
    items,
    ready,
    uploading: items.some((item) => item.status === "uploading"),
    notice,
    add,
    remove,
    take,
    restore,
  };
}

export type ComposerAttachments = ReturnType<typeof useComposerAttachments>;

/** What the send needs of a taken attachment: its server view. */
export function viewsOf(items: readonly PendingAttachment[]): AttachmentView[] {
  return items.flatMap((item) => (item.view ? [item.view] : []));
}
