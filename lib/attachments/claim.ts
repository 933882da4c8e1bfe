import "server-only";
import { claimAttachmentsForUser, setMessageParts } from "@/lib/db/attachments";
import type { TxOption } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { attachmentRef } from "@/lib/memory/attachments";
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGES_PER_MESSAGE } from "./limits";
import type { AttachmentPart, AttachmentParts } from "./parts";
import { attachmentStore } from "./store";
import { attachmentView } from "./upload";

const invalid = (message: string) => new AppError("validation_failed", message);

/**
 * Inside the turn's transaction, right after the user message was appended: gives the user's unsent uploads `ids`
 * to that message (one conditional UPDATE: each must be the user's and not yet sent), and stores and returns the
 * parts they add to it — image references in `imageUrls`, and every attachment in `attachments` (text files with
 * their text, read here once). At most 4 images and 8 attachments; anything wrong is a 422 and, thrown inside the
 * transaction, takes the user message back with it.
 *
 * The returned parts are what `messageToItem` (lib/chat/items.ts) turns into the question's memory item.
 */
export async function claimAttachments(
  { userId, messageId, ids }: { userId: string; messageId: string; ids: readonly string[] },
  { tx }: TxOption,
): Promise<AttachmentParts> {
  if (ids.length === 0) return { imageUrls: [], attachments: [] };
  if (new Set(ids).size !== ids.length) throw invalid("The same file is attached twice.");
  if (ids.length > MAX_ATTACHMENTS_PER_MESSAGE) {
    throw invalid(`A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`);
  }
  const rows = await claimAttachmentsForUser({ userId, messageId, ids: [...ids] }, { tx });
  if (rows.length !== ids.length) {
    throw invalid(
      "An attached file is no longer available (removed, already sent, or older than a day). Attach it again.",
    );
  }
  const images = rows.filter((row) => row.kind === "image");
  if (images.length > MAX_IMAGES_PER_MESSAGE) {
    throw invalid(`A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images.`);
  }
  const store = attachmentStore();
  const attachments: AttachmentPart[] = [];
  for (const row of rows) {
    const part: AttachmentPart = attachmentView(row);
    if (part.kind === "text") {
      const data = await store.get(row.id, tx);
      if (!data) throw invalid(`The file ${row.name} could not be read. Attach it again.`);
      part.text = new TextDecoder().decode(data);
    }
    attachments.push(part);
  }
  const parts: AttachmentParts = {
    imageUrls: images.map((row) =>
      attachmentRef({ id: row.id, width: row.width ?? undefined, height: row.height ?? undefined }),
    ),
    attachments,
  };
  await setMessageParts({ messageId, parts }, { tx });
  return parts;
}
