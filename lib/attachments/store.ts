import "server-only";
import {
  deleteAttachmentBlob,
  getAttachmentBlobData,
  getAttachmentBlobThumbnail,
  putAttachmentBlob,
} from "@/lib/db/attachments";
import type { Tx } from "@/lib/db/client";

/**
 * Where the bytes of attachments live, by attachment id. Rows (ownership, type, size) stay in the database
 * whatever the store; the store only holds bytes, so an S3-compatible one can replace the database one without
 * touching uploads, the turn or deletion receipts. Callers authorize through the row before they ask the store.
 */
export interface AttachmentStore {
  put(id: string, file: { data: Uint8Array; thumbnail: Uint8Array | null }): Promise<void>;
  /**
   * `within`: the database transaction the caller is in. The database store reads through it (a second connection
   * could wait on the transaction's lock); a store elsewhere ignores it.
   */
  get(id: string, within?: Tx): Promise<Uint8Array | null>;
  getThumbnail(id: string): Promise<Uint8Array | null>;
  delete(id: string): Promise<void>;
}

/**
 * The default store: AttachmentBlob rows next to the Attachment rows, on SQLite and PostgreSQL alike. Deleting an
 * attachment row (its message, conversation or user) deletes its blob by cascade, in the same transaction.
 */
export const databaseStore: AttachmentStore = {
  put: (id, { data, thumbnail }) => putAttachmentBlob({ attachmentId: id, data, thumbnail }),
  get: (id, within) => getAttachmentBlobData({ attachmentId: id }, { tx: within }),
  getThumbnail: (id) => getAttachmentBlobThumbnail({ attachmentId: id }),
  delete: (id) => deleteAttachmentBlob({ attachmentId: id }),
};

/** The configured store (only the database one exists today). */
export function attachmentStore(): AttachmentStore {
  return databaseStore;
}
