import "server-only";
import { getAttachmentsForUser } from "@/lib/db/attachments";
import { cloneItem, type MemoryItem } from "@/lib/memory";
import { parseAttachmentRef } from "@/lib/memory/attachments";
import { attachmentStore } from "./store";

/**
 * Data URLs of images recently sent, by attachment id. An id's bytes never change, so the images of a conversation
 * are read and encoded once rather than on every turn. Bounded in size and age (a deleted conversation's images
 * leave it within the age at most). Only bytes are cached, never access: the ownership query runs on every turn.
 */
const CACHE_MAX_CHARS = 32 * 1024 * 1024;
const CACHE_TTL_MS = 10 * 60 * 1000;
const cache = new Map<string, { url: string; at: number }>();
let cachedChars = 0;

function forget(id: string) {
  const entry = cache.get(id);
  if (!entry) return;
  cache.delete(id);
  cachedChars -= entry.url.length;
}

function cachedUrl(id: string, now: number): string | undefined {
  const entry = cache.get(id);
  if (!entry) return undefined;
  if (now - entry.at > CACHE_TTL_MS) {
    forget(id);
    return undefined;
  }
  return entry.url;
}

function remember(id: string, url: string, now: number) {
  if (url.length > CACHE_MAX_CHARS / 4) return;
  forget(id);
  cache.set(id, { url, at: now });
  cachedChars += url.length;
  for (const oldest of cache.keys()) {
    if (cachedChars <= CACHE_MAX_CHARS) break;
    forget(oldest);
  }
}

/** Drops an attachment's cached data (when it is deleted in this process). */
export function forgetAttachmentData(id: string) {
  forget(id);
}

/** Said to the model in place of an image whose file is gone (never expected: files go with their messages). */
export const MISSING_IMAGE_NOTE = "[An image attached here is no longer available.]";

/**
 * The items of one model call with every `attachment:` image reference of a user item replaced by the image as a
 * data URL. Only the user's own attachments are read (`userId`: ownership is part of the query). Called just before
 * the model call: memory, snapshot, context building and the recorded trace hold references only, and a context
 * without references costs no query at all. Returns new items; `items` is not changed.
 */
export async function resolveAttachmentRefs(
  items: readonly MemoryItem[],
  { userId }: { userId: string },
): Promise<MemoryItem[]> {
  const ids = new Set<string>();
  for (const item of items) {
    if (item.role !== "user") continue;
    for (const url of item.imageUrls ?? []) {
      const ref = parseAttachmentRef(url);
      if (ref) ids.add(ref.id);
    }
  }
  if (ids.size === 0) return [...items];

  const rows = await getAttachmentsForUser({ userId, ids: [...ids] });
  const store = attachmentStore();
  const dataUrls = new Map<string, string>();
  const now = Date.now();
  await Promise.all(
    rows
      .filter((row) => row.kind === "image")
      .map(async (row) => {
        const hit = cachedUrl(row.id, now);
        if (hit) {
          dataUrls.set(row.id, hit);
          return;
        }
        const data = await store.get(row.id);
        if (!data) return;
        const url = `data:${row.mime};base64,${Buffer.from(data).toString("base64")}`;
        dataUrls.set(row.id, url);
        remember(row.id, url, now);
      }),
  );

  return items.map((item) => {
    if (item.role !== "user" || !item.imageUrls?.some((url) => parseAttachmentRef(url))) return item;
    const copy = cloneItem(item);
    let missing = 0;
    copy.imageUrls = (item.imageUrls ?? []).flatMap((url) => {
      const ref = parseAttachmentRef(url);
      if (!ref) return [url];
      const data = dataUrls.get(ref.id);
      if (data) return [data];
      missing++;
      return [];
    });
    if (missing > 0) copy.text = [copy.text, MISSING_IMAGE_NOTE].filter(Boolean).join("\n\n");
    if (copy.imageUrls.length === 0) delete copy.imageUrls;
    return copy;
  });
}
