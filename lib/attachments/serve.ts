import "server-only";
import type { CurrentUser } from "@/lib/auth/session";
import { deleteUnsentAttachmentForUser, getAttachmentForReader } from "@/lib/db/attachments";
import { AppError } from "@/lib/errors";
import { API_CSP } from "@/lib/security/headers";
import { THUMBNAIL_MIME } from "./image";
import { forgetAttachmentData } from "./resolve";
import { attachmentStore } from "./store";

const notFound = () => new AppError("not_found", "This file does not exist or is not yours.");

/** `Content-Disposition` with an ASCII fallback name and the exact one in RFC 5987 form. */
function contentDisposition(name: string, disposition: "inline" | "attachment" = "inline"): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/attachments/:id: the file (or its thumbnail) for its owner or an admin, 404 for everyone else. Served
 * with the type decided at upload (text as UTF-8), `nosniff`, a file name, a sandboxing CSP and an ETag (an id's
 * bytes never change), revalidated on every use so a deleted file is gone at once.
 */
export async function serveAttachment({
  id,
  user,
  thumbnail,
  ifNoneMatch,
}: {
  id: string;
  user: CurrentUser;
  thumbnail: boolean;
  ifNoneMatch: string | null;
}): Promise<Response> {
  const row = await getAttachmentForReader({ id, userId: user.id, admin: user.role === "ADMIN" });
  if (!row || (thumbnail && row.kind !== "image")) throw notFound();
  const etag = `"${row.id}${thumbnail ? "-thumb" : ""}"`;
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-cache",
    "content-security-policy": API_CSP,
    etag,
  };
  if (ifNoneMatch === etag) return new Response(null, { status: 304, headers });
  const store = attachmentStore();
  const data = thumbnail ? await store.getThumbnail(row.id) : await store.get(row.id);
  if (!data) throw notFound();
  const type = thumbnail ? THUMBNAIL_MIME : row.kind === "text" ? `${row.mime}; charset=utf-8` : row.mime;
  return new Response(new Uint8Array(data), {
    headers: {
      ...headers,
      "content-type": type,
      "content-length": String(data.byteLength),
      "content-disposition": contentDisposition(row.name),
    },
  });
}

/** DELETE /api/attachments/:id: removes one of the user's uploads that was not sent (404 otherwise). */
export async function removeUnsentAttachment({ id, userId }: { id: string; userId: string }) {
  if (!(await deleteUnsentAttachmentForUser({ id, userId }))) {
    throw new AppError("not_found", "This file does not exist, is not yours, or was already sent.");
  }
  forgetAttachmentData(id);
}
