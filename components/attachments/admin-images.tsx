"use client";

import { attachmentUrl } from "@/lib/attachments/parts";
import { useT } from "@/lib/i18n/client";
import { parseAttachmentRef } from "@/lib/memory/attachments";

/**
 * The images of a stored message in the admin view: attachments as thumbnails linking to the file (admins may
 * read any), other image URLs as plain links (never loaded: they could point anywhere).
 */
export function AdminImages({ urls }: { urls: readonly string[] }) {
  const t = useT("attachments");
  if (urls.length === 0) return null;
  return (
    <ul
      className="mt-2 flex flex-wrap gap-2 text-xs"
      aria-label={t("admin.images")}
      data-testid="admin-images"
    >
      {urls.map((url) => {
        const ref = parseAttachmentRef(url);
        if (!ref) {
          return (
            <li key={url} className="w-full truncate">
              <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="underline">
                {url}
              </a>
            </li>
          );
        }
        const label =
          ref.width && ref.height
            ? t("admin.image", { width: ref.width, height: ref.height })
            : t("admin.imageUnknown");
        return (
          <li key={url}>
            <a
              href={attachmentUrl(ref.id)}
              target="_blank"
              rel="noopener noreferrer"
              className="block overflow-hidden rounded border border-zinc-200 hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-zinc-900"
            >
              {/* biome-ignore lint/performance/noImgElement: an authenticated API thumbnail; next/image would proxy it */}
              <img
                src={attachmentUrl(ref.id, { thumbnail: true })}
                alt={label}
                title={label}
                loading="lazy"
                className="block h-20 max-w-40 object-cover"
                data-testid="admin-image-thumbnail"
              />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
