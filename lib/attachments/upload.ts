import "server-only";
import {
  type AttachmentRow,
  countAttachmentsSinceForUser,
  countUnsentAttachmentsForUser,
  createAttachment,
  unsafeDeleteAttachmentById,
} from "@/lib/db/attachments";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readMultipartFile } from "@/lib/http";
import { processImage } from "./image";
import { MAX_NAME_CHARS, MAX_TEXT_BYTES, MAX_UNSENT_PER_USER, MULTIPART_OVERHEAD_BYTES } from "./limits";
import { IMAGE_EXTENSION, type ImageFormat, sniff } from "./sniff";
import { attachmentStore } from "./store";

/** What POST /api/attachments answers, and what the composer keeps until the message is sent. */
export interface AttachmentView {
  id: string;
  kind: "image" | "text";
  name: string;
  mime: string;
  bytes: number;
  width?: number;
  height?: number;
}

export function attachmentView(row: AttachmentRow): AttachmentView {
  const view: AttachmentView = {
    id: row.id,
    kind: row.kind === "image" ? "image" : "text",
    name: row.name,
    mime: row.mime,
    bytes: row.bytes,
  };
  if (row.width !== null && row.height !== null) {
    view.width = row.width;
    view.height = row.height;
  }
  return view;
}

export const ACCEPTED =
  "Attach a PNG, JPEG, WebP or GIF image, or a text file (plain text, Markdown, CSV, JSON or source code).";

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function tooLarge(what: string, size: number | null, limit: number): AppError {
  const is = size === null ? "is too large" : `is ${mb(size)}`;
  return new AppError("payload_too_large", `This ${what} ${is}; the limit is ${mb(limit)}.`, {
    details: { maxBytes: limit },
  });
}

/** The one file in the multipart field `file`, its body abandoned as soon as it passes the larger limit (413). */
function readFile(req: Request): Promise<File> {
  const limit = Math.max(env.MAX_IMAGE_BYTES, MAX_TEXT_BYTES) + MULTIPART_OVERHEAD_BYTES;
  return readMultipartFile(req, {
    limit,
    tooLarge: () => tooLarge("file", null, limit - MULTIPART_OVERHEAD_BYTES),
    oneFile: "Attach exactly one file, in a field named `file`.",
  });
}

/** A file name safe to store and show: no path, no control characters, bounded, with the real extension. */
export function cleanName(raw: string, image: ImageFormat | null): string {
  const base = raw.split(/[\\/]/).at(-1) ?? "";
  let name = base
    .replace(/\s+/g, " ")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    // Direction overrides and invisible marks would make a name read as something else ("gpj.exe" as "exe.jpg").
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, "")
    .toWellFormed()
    .trim()
    // No name of only dots ("." or ".."), no leading dots (hidden files) and no trailing dots or spaces.
    .replace(/^[.\s]+|[.\s]+$/g, "");
  // An image keeps its name with the extension of what it really is (photo.txt holding a PNG is photo.png).
  if (image && !(image === "jpeg" ? /\.jpe?g$/i : new RegExp(`\\.${image}$`, "i")).test(name)) {
    name = `${name.replace(/\.[^.]*$/, "") || "image"}.${IMAGE_EXTENSION[image]}`;
  }
  if (name === "") name = image ? `image.${IMAGE_EXTENSION[image]}` : "file.txt";
  const chars = [...name];
  if (chars.length > MAX_NAME_CHARS) {
    const ext = /\.[a-z0-9]{1,8}$/i.exec(name)?.[0] ?? "";
    name = `${chars.slice(0, MAX_NAME_CHARS - ext.length).join("")}${ext}`;
  }
  return name;
}

/** Uploads per user and hour (sent or not), counted from the rows themselves so every instance agrees. */
const MAX_UPLOADS_PER_HOUR = 200;

async function assertUploadAllowed(userId: string) {
  const [unsent, lastHour] = await Promise.all([
    countUnsentAttachmentsForUser({ userId }),
    countAttachmentsSinceForUser({ userId, since: new Date(Date.now() - 3600_000) }),
  ]);
  if (unsent >= MAX_UNSENT_PER_USER) {
    throw new AppError(
      "rate_limited",
      `You have ${unsent} files waiting to be sent. Send them or remove some before attaching more.`,
    );
  }
  if (lastHour >= MAX_UPLOADS_PER_HOUR) {
    throw new AppError(
      "rate_limited",
      "You have attached too many files in the last hour. Try again later.",
      {
        details: { retryAfterSeconds: 600 },
      },
    );
  }
}

/**
 * Stores one uploaded file for `userId`, unsent: the type decided from its bytes (415 for anything but the four
 * image formats and inert text), images decoded and encoded again without metadata and with a thumbnail (413 over
 * MAX_IMAGE_BYTES or the pixel limit), text files at most 1 MB (413).
 */
export async function uploadAttachment({
  userId,
  req,
}: {
  userId: string;
  req: Request;
}): Promise<AttachmentView> {
  await assertUploadAllowed(userId);
  const file = await readFile(req);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength === 0) throw new AppError("bad_request", "This file is empty.");
  const sniffed = sniff(bytes, file.name);
  if (sniffed.kind === "refused") {
    throw new AppError("unsupported_media_type", `${sniffed.reason} ${ACCEPTED}`);
  }

  let stored: { data: Uint8Array; thumbnail: Uint8Array | null };
  let row: Parameters<typeof createAttachment>[0];
  if (sniffed.kind === "image") {
    if (bytes.byteLength > env.MAX_IMAGE_BYTES)
      throw tooLarge("image", bytes.byteLength, env.MAX_IMAGE_BYTES);
    const image = await processImage(bytes, sniffed.format);
    stored = { data: image.data, thumbnail: image.thumbnail };
    row = {
      userId,
      kind: "image",
      name: cleanName(file.name, sniffed.format),
      mime: image.mime,
      bytes: image.data.byteLength,
      width: image.width,
      height: image.height,
    };
  } else {
    if (bytes.byteLength > MAX_TEXT_BYTES) throw tooLarge("text file", bytes.byteLength, MAX_TEXT_BYTES);
    const data = new TextEncoder().encode(sniffed.text);
    stored = { data, thumbnail: null };
    row = {
      userId,
      kind: "text",
      name: cleanName(file.name, null),
      mime: sniffed.mime,
      bytes: data.byteLength,
    };
  }

  const created = await createAttachment(row);
  try {
    await attachmentStore().put(created.id, stored);
  } catch (e) {
    await unsafeDeleteAttachmentById({ id: created.id }).catch(() => {});
    throw e;
  }
  return attachmentView(created);
}
