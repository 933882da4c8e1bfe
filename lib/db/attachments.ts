import "server-only";
import { checkpointed } from "./checkpoint";
import { db, type TxOption } from "./client";

// Attachment rows and their database storage (AttachmentBlob). Every query a user can reach names the
// user; the few without one are marked `unsafe` (the upload's own compensation, the unsent-cleanup, blobs by id
// after the row was authorized). The bytes are read only by the storage functions at the end.

export const attachmentSelect = {
  id: true,
  messageId: true,
  kind: true,
  name: true,
  mime: true,
  bytes: true,
  width: true,
  height: true,
  createdAt: true,
} as const;

export type AttachmentKind = "image" | "text";

export interface AttachmentRow {
  id: string;
  messageId: string | null;
  kind: string;
  name: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  createdAt: Date;
}

export async function createAttachment(data: {
  userId: string;
  kind: AttachmentKind;
  name: string;
  mime: string;
  bytes: number;
  width?: number;
  height?: number;
}): Promise<AttachmentRow> {
  return db.attachment.create({ data, select: attachmentSelect });
}

/** Removes a row whose bytes could not be stored (the upload's compensation). */
export async function unsafeDeleteAttachmentById({ id }: { id: string }) {
  await db.attachment.deleteMany({ where: { id } });
  await checkpointed(undefined);
}

/** An attachment its owner may read, or (with `admin`) anyone's; null for everyone else. */
export async function getAttachmentForReader({
  id,
  userId,
  admin,
}: {
  id: string;
  userId: string;
  admin: boolean;
}): Promise<AttachmentRow | null> {
  return db.attachment.findFirst({ where: admin ? { id } : { id, userId }, select: attachmentSelect });
}

/** Removes one of the user's uploads that was never sent. False when there is no such upload. */
export async function deleteUnsentAttachmentForUser({ id, userId }: { id: string; userId: string }) {
  const { count } = await db.attachment.deleteMany({ where: { id, userId, messageId: null } });
  return checkpointed(count === 1);
}

export async function countUnsentAttachmentsForUser({ userId }: { userId: string }) {
  return db.attachment.count({ where: { userId, messageId: null } });
}

/** Uploads the user made since `since` (sent or not; deleted ones are gone). */
export async function countAttachmentsSinceForUser({ userId, since }: { userId: string; since: Date }) {
  return db.attachment.count({ where: { userId, createdAt: { gt: since } } });
}

/**
 * Gives the user's unsent uploads `ids` to `messageId` with one conditional UPDATE and returns their rows in the
 * order of `ids`. Ids that are not the user's, already sent or gone are simply not claimed: the caller compares.
 */
export async function claimAttachmentsForUser(
  { userId, messageId, ids }: { userId: string; messageId: string; ids: string[] },
  { tx = db }: TxOption = {},
): Promise<AttachmentRow[]> {
  const rows = await tx.attachment.updateManyAndReturn({
    where: { id: { in: ids }, userId, messageId: null },
    data: { messageId },
    select: attachmentSelect,
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/** Stores the parts a message's attachments add to it (ChatMessage.parts). */
export async function setMessageParts(
  { messageId, parts }: { messageId: string; parts: object },
  { tx = db }: TxOption = {},
) {
  await tx.chatMessage.update({ where: { id: messageId }, data: { parts }, select: { id: true } });
}

/** The user's attachments among `ids` (metadata only). */
export async function getAttachmentsForUser({
  userId,
  ids,
}: {
  userId: string;
  ids: string[];
}): Promise<AttachmentRow[]> {
  if (ids.length === 0) return [];
  return db.attachment.findMany({ where: { id: { in: ids }, userId }, select: attachmentSelect });
}

/** Deletes every upload that was never sent and is older than `before`; the bytes go with them (cascade). */
export async function unsafeDeleteUnsentAttachmentsBefore({ before }: { before: Date }) {
  const result = await db.$transaction(async (tx) => {
    const where = { messageId: null, createdAt: { lt: before } };
    const found = await tx.attachment.aggregate({ where, _count: true, _sum: { bytes: true } });
    if (found._count === 0) return { Attachment: 0, AttachmentBytes: 0 };
    const { count } = await tx.attachment.deleteMany({ where });
    return { Attachment: count, AttachmentBytes: found._sum.bytes ?? 0 };
  });
  return checkpointed(result);
}

// ------------------------------------------------------------------------- storage (lib/attachments/store.ts)

/** Bytes as Prisma's Bytes fields take them. */
const bytesOf = (data: Uint8Array) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

export async function putAttachmentBlob({
  attachmentId,
  data,
  thumbnail,
}: {
  attachmentId: string;
  data: Uint8Array;
  thumbnail: Uint8Array | null;
}) {
  await db.attachmentBlob.create({
    data: {
      attachmentId,
      data: bytesOf(data) as Uint8Array<ArrayBuffer>,
      thumbnail: thumbnail ? (bytesOf(thumbnail) as Uint8Array<ArrayBuffer>) : null,
    },
    select: { attachmentId: true },
  });
}

export async function getAttachmentBlobData(
  { attachmentId }: { attachmentId: string },
  { tx = db }: TxOption = {},
) {
  const row = await tx.attachmentBlob.findUnique({
    where: { attachmentId },
    select: { data: true },
  });
  return row?.data ?? null;
}

export async function getAttachmentBlobThumbnail({ attachmentId }: { attachmentId: string }) {
  const row = await db.attachmentBlob.findUnique({ where: { attachmentId }, select: { thumbnail: true } });
  return row?.thumbnail ?? null;
}

export async function deleteAttachmentBlob({ attachmentId }: { attachmentId: string }) {
  await db.attachmentBlob.deleteMany({ where: { attachmentId } });
}
