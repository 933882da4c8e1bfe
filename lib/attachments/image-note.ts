// The line of text that goes with every image sent to the model (docs/decisions/015-attachments.md):
//
//   [Attached image: photo.jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]
//
// Images are sent at the model's working resolution (lib/attachments/model-image.ts), so the pixels a model receives
// no longer say how big the picture was; this line keeps the original facts: the name the user gave it, its type
// and its size as stored, and the size it is shown at when that differs. lib/attachments/resolve.ts appends one
// line per image to the user item's text for the model call only, after the message and any text files, in the
// order of the image parts that follow it; memory, the snapshot and the recorded context keep the references.
// The demo model reads these lines (lib/llm/demo/attachments.ts). Pure: no imports.

export type ImageType = "PNG" | "JPEG" | "WebP" | "GIF";

export interface ImageNote {
  name: string;
  type: ImageType;
  width: number;
  height: number;
  /** The size the image is sent at, when it was scaled down. */
  shown?: { width: number; height: number };
}

/** Said to the model in place of an image whose file is gone (never expected: files go with their messages). */
export const MISSING_IMAGE_NOTE = "[An image attached here is no longer available.]";

export const IMAGE_TYPE_OF_MIME: Record<string, ImageType> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
  "image/gif": "GIF",
};

/** `[Attached image: <name>, <type>, <w> × <h> pixels]`, with `, shown at <w> × <h>` when scaled. */
export function imageNote({ name, type, width, height, shown }: ImageNote): string {
  const scaled = shown && (shown.width !== width || shown.height !== height);
  const at = scaled ? `, shown at ${shown.width} × ${shown.height}` : "";
  // Names are cleaned at upload (no line breaks); one is made safe here too, since the line must stay one line.
  const safe = name.replace(/[\r\n]+/g, " ").trim() || "image";
  return `[Attached image: ${safe}, ${type}, ${width} × ${height} pixels${at}]`;
}

/** The model's text for a message: its own text (with any files), then the image lines, one per line. */
export function withImageNotes(text: string, lines: readonly string[]): string {
  if (lines.length === 0) return text;
  return [text, lines.join("\n")].filter((part) => part !== "").join("\n\n");
}

const NOTE =
  /^\[Attached image: (.+), (PNG|JPEG|WebP|GIF), (\d+) × (\d+) pixels(?:, shown at (\d+) × (\d+))?\]$/;

function parseNote(line: string): ImageNote | null {
  const m = NOTE.exec(line);
  if (!m) return null;
  const width = Number(m[3]);
  const height = Number(m[4]);
  if (!(width > 0 && height > 0)) return null;
  const note: ImageNote = { name: m[1] ?? "", type: m[2] as ImageType, width, height };
  if (m[5] && m[6]) note.shown = { width: Number(m[5]), height: Number(m[6]) };
  return note;
}

/**
 * The inverse of `withImageNotes`: the message's text without its image lines, and the notes of the images sent,
 * in order (a missing image's line has no note: its image is not sent either). Only a last paragraph made of
 * nothing but such lines counts.
 */
export function readImageNotes(text: string): { text: string; notes: ImageNote[] } {
  const cut = text.lastIndexOf("\n\n");
  const block = cut === -1 ? text : text.slice(cut + 2);
  const notes: ImageNote[] = [];
  for (const line of block.split("\n")) {
    if (line === MISSING_IMAGE_NOTE) continue;
    const note = parseNote(line);
    if (!note) return { text, notes: [] };
    notes.push(note);
  }
  return { text: cut === -1 ? "" : text.slice(0, cut), notes };
}
