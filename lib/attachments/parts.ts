// How a sent message records its attachments in ChatMessage.parts (beside `imageUrls` and `toolCalls`):
// `attachments` lists them for people (thumbnails, names, sizes) and holds the text of text files, which the memory
// item of the message carries as text (lib/chat/items.ts messageToItem). Pure: the chat UI reads it too.

export interface AttachmentPart {
  id: string;
  kind: "image" | "text";
  name: string;
  mime: string;
  bytes: number;
  width?: number;
  height?: number;
  /** A text file's content (never on images: their bytes stay in the store). */
  text?: string;
}

/** What a message's attachments add to ChatMessage.parts. */
export interface AttachmentParts {
  /** `attachment:<id>?w=&h=` references of its images, in order. */
  imageUrls: string[];
  attachments: AttachmentPart[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const positive = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/** The `attachments` of stored parts, skipping anything malformed (stored data is never trusted blindly). */
export function readAttachmentParts(parts: unknown): AttachmentPart[] {
  const list = isRecord(parts) && Array.isArray(parts.attachments) ? parts.attachments : [];
  const out: AttachmentPart[] = [];
  for (const value of list) {
    if (!isRecord(value)) continue;
    const { id, kind, name, mime, bytes, width, height, text } = value;
    if (typeof id !== "string" || (kind !== "image" && kind !== "text")) continue;
    if (typeof name !== "string" || typeof mime !== "string" || typeof bytes !== "number") continue;
    const part: AttachmentPart = { id, kind, name, mime, bytes };
    if (positive(width) && positive(height)) {
      part.width = width;
      part.height = height;
    }
    if (kind === "text" && typeof text === "string") part.text = text;
    out.push(part);
  }
  return out;
}

/** The text files of a message as the memory item carries them. */
export function attachedFiles(parts: readonly AttachmentPart[]): { name: string; text: string }[] {
  return parts.flatMap((p) =>
    p.kind === "text" && p.text !== undefined ? [{ name: p.name, text: p.text }] : [],
  );
}

/** The URL of an attachment's file or thumbnail (GET /api/attachments/:id). */
export function attachmentUrl(id: string, { thumbnail = false }: { thumbnail?: boolean } = {}): string {
  return `/api/attachments/${encodeURIComponent(id)}${thumbnail ? "?thumb=1" : ""}`;
}
