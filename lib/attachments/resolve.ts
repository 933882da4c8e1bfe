import "server-only";
import type { AttachmentRow } from "@/lib/db/attachments";
import { getAttachmentsForUser } from "@/lib/db/attachments";
import { cloneItem, type MemoryItem } from "@/lib/memory";
import { parseAttachmentRef } from "@/lib/memory/attachments";
import { IMAGE_TYPE_OF_MIME, imageNote, MISSING_IMAGE_NOTE, withImageNotes } from "./image-note";
import { type ModelImage, toModelImage } from "./model-image";
import { attachmentStore } from "./store";

/** An image as it is sent to the model: its data URL at the model's working resolution, and the sizes. */
interface SentImage {
  url: string;
  width: number;
  height: number;
  original: { width: number; height: number };
}

/**
 * Sent images by attachment id. An id's bytes never change, so each image of a conversation is read, scaled and
 * encoded once rather than on every turn. Bounded in bytes (the data URLs are ASCII: one byte a character) and in
 * age (a deleted conversation's images leave it within the age at most); the least recently used go first. Only
 * bytes are cached, never access: the ownership query runs on every turn.
 */
const SENT_IMAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const CACHE_TTL_MS = 10 * 60 * 1000;
const cache = new Map<string, { image: SentImage; at: number }>();
let cachedBytes = 0;
/** Images being prepared, so that two turns needing the same image at once scale it once. */
const pending = new Map<string, Promise<SentImage | null>>();

function forget(id: string) {
  const entry = cache.get(id);
  if (!entry) return;
  cache.delete(id);
  cachedBytes -= entry.image.url.length;
}

function cached(id: string, now: number): SentImage | undefined {
  const entry = cache.get(id);
  if (!entry) return undefined;
  if (now - entry.at > CACHE_TTL_MS) {
    forget(id);
    return undefined;
  }
  cache.delete(id); // most recently used last
  cache.set(id, entry);
  return entry.image;
}

function remember(id: string, image: SentImage, now: number) {
  if (image.url.length > SENT_IMAGE_CACHE_MAX_BYTES / 4) return;
  forget(id);
  cache.set(id, { image, at: now });
  cachedBytes += image.url.length;
  for (const oldest of cache.keys()) {
    if (cachedBytes <= SENT_IMAGE_CACHE_MAX_BYTES) break;
    forget(oldest);
  }
}

/** Drops an attachment's cached data (when it is deleted in this process). */
export function forgetAttachmentData(id: string) {
  forget(id);
}

/** What the cache holds: entries and bytes (tests). */
export function sentImageCacheStats(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}

const dataUrl = (mime: string, data: Uint8Array) =>
  `data:${mime};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64")}`;

async function prepare(row: AttachmentRow): Promise<SentImage | null> {
  const data = await attachmentStore().get(row.id);
  if (!data) return null;
  let image: ModelImage | null = null;
  try {
    image = await toModelImage(data);
  } catch (e) {
    // Never expected (the stored file was encoded by us); the model still gets the picture, at its full size.
    console.warn(`[attachments] could not scale image ${row.id} for the model, sending it as stored`, e);
  }
  if (!image) {
    const size = { width: row.width ?? 0, height: row.height ?? 0 };
    return { url: dataUrl(row.mime, data), ...size, original: size };
  }
  return {
    url: dataUrl(image.mime, image.data),
    width: image.width,
    height: image.height,
    original: image.original,
  };
}

/** The sent image of `row`: from the cache, or read and scaled once (shared by concurrent turns). */
async function sentImage(row: AttachmentRow, now: number): Promise<SentImage | null> {
  const hit = cached(row.id, now);
  if (hit) return hit;
  let work = pending.get(row.id);
  if (!work) {
    work = prepare(row).finally(() => pending.delete(row.id));
    pending.set(row.id, work);
  }
  const image = await work;
  if (image) remember(row.id, image, now);
  return image;
}

/** The line naming an image for the model, with its original facts (lib/attachments/image-note.ts). */
function noteOf(row: AttachmentRow, image: SentImage): string {
  const width = row.width ?? image.original.width;
  const height = row.height ?? image.original.height;
  return imageNote({
    name: row.name,
    type: IMAGE_TYPE_OF_MIME[row.mime] ?? "PNG",
    width,
    height,
    shown: { width: image.width, height: image.height },
  });
}

/**
 * The items of one model call with every `attachment:` image reference of a user item replaced by the image as a
 * data URL at the model's working resolution (lib/attachments/model-image.ts), and one line per image appended to
 * the item's text naming it with its original type and size (lib/attachments/image-note.ts). Only the user's own
 * attachments are read (`userId`: ownership is part of the query). Called just before the model call: memory,
 * snapshot, context building and the recorded trace hold references only, and a context without references costs
 * no query at all. Returns new items; `items` is not changed.
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
  const sent = new Map<string, { url: string; note: string }>();
  const now = Date.now();
  await Promise.all(
    rows
      .filter((row) => row.kind === "image")
      .map(async (row) => {
        const image = await sentImage(row, now);
        if (image) sent.set(row.id, { url: image.url, note: noteOf(row, image) });
      }),
  );

  return items.map((item) => {
    if (item.role !== "user" || !item.imageUrls?.some((url) => parseAttachmentRef(url))) return item;
    const copy = cloneItem(item);
    const notes: string[] = [];
    copy.imageUrls = (item.imageUrls ?? []).flatMap((url) => {
      const ref = parseAttachmentRef(url);
      if (!ref) return [url];
      const image = sent.get(ref.id);
      notes.push(image ? image.note : MISSING_IMAGE_NOTE);
      return image ? [image.url] : [];
    });
    copy.text = withImageNotes(copy.text, notes);
    if (copy.imageUrls.length === 0) delete copy.imageUrls;
    return copy;
  });
}
