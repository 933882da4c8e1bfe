// The offline model's eyes (issue 12): pure functions of the request it received. Images arrive as data URLs in
// user messages (Chat Completions `image_url` parts, Responses `input_image` parts), scaled to the model's working
// resolution; each comes with a line in the message's text naming it with its original type and size
// (`[Attached image: photo.jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]`, lib/attachments/image-note.ts),
// which is what it reports. An image without such a line is described from its own header bytes. Text files arrive
// as text between marker lines (lib/memory/attachments.ts). Like the rest of the offline model it only knows what
// the request holds: a picture that memory no longer sends is a picture it cannot describe, whatever its own
// earlier answers said.

import { type ImageNote, type ImageType, readImageNotes } from "@/lib/attachments/image-note";
import { splitAttachedFiles } from "@/lib/memory/attachments";
import { isSummaryRequest } from "./offline-summary";

export type { ImageType } from "@/lib/attachments/image-note";

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 0x10000 + u16be(b, i + 2);
const tag = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // markers without a segment
      continue;
    }
    // Start of frame: every SOFn except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  const chunk = tag(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const b1 = b[21] ?? 0;
    const b2 = b[22] ?? 0;
    const b3 = b[23] ?? 0;
    const b4 = b[24] ?? 0;
    return {
      width: 1 + (((b2 & 0x3f) << 8) | b1),
      height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)),
    };
  }
  if (chunk === "VP8X" && b.length >= 30) return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  return null;
}

/** Type and size of a PNG, JPEG, WebP or GIF from its header; null for anything else or a header cut short. */
export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  let size: { width: number; height: number } | null = null;
  let type: ImageType | null = null;
  if (bytes.length >= 24 && tag(bytes, 1, 3) === "PNG" && tag(bytes, 12, 4) === "IHDR") {
    type = "PNG";
    size = { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  } else if (bytes.length >= 10 && (tag(bytes, 0, 6) === "GIF87a" || tag(bytes, 0, 6) === "GIF89a")) {
    type = "GIF";
    size = { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  } else if (bytes.length >= 16 && tag(bytes, 0, 4) === "RIFF" && tag(bytes, 8, 4) === "WEBP") {
    type = "WebP";
    size = webpSize(bytes);
  } else if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    type = "JPEG";
    size = jpegSize(bytes);
  }
  if (!type || !size || size.width <= 0 || size.height <= 0) return null;
  return { type, ...size };
}

/** The image inside a base64 `data:` URL; null for other URLs or bytes that are no image. */
export function imageInfoFromDataUrl(url: string): ImageInfo | null {
  const match = /^data:[^,]*;base64,/i.exec(url);
  if (!match) return null;
  // Every format's size is in its first bytes; a JPEG's frame header follows its tables, which re-encoding keeps
  // short, so the whole image is decoded only when the first 3 KB do not hold it.
  const start = match[0].length;
  const head = imageInfo(new Uint8Array(Buffer.from(url.slice(start, start + 4096), "base64")));
  return head ?? imageInfo(new Uint8Array(Buffer.from(url.slice(start), "base64")));
}

// ---------------------------------------------------------------------------------------------------------
// The request, with its images.
// ---------------------------------------------------------------------------------------------------------

export interface AttachmentMessage {
  role: string;
  text: string;
  /** Image URLs of the message, in order. */
  images: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function partsOf(content: unknown): { text: string; images: string[] } {
  if (typeof content === "string") return { text: content, images: [] };
  if (!Array.isArray(content)) return { text: "", images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (typeof part.text === "string") texts.push(part.text);
    if (part.type === "image_url" && isObject(part.image_url) && typeof part.image_url.url === "string") {
      images.push(part.image_url.url);
    }
    if (part.type === "input_image" && typeof part.image_url === "string") images.push(part.image_url);
  }
  return { text: texts.filter(Boolean).join("\n"), images };
}

const roleOf = (role: unknown) => (role === "developer" ? "system" : String(role ?? "user"));

/** The messages of a Chat Completions or Responses request body with their text and images. */
export function attachmentMessages(body: unknown): AttachmentMessage[] {
  if (!isObject(body)) return [];
  const out: AttachmentMessage[] = [];
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) {
      if (isObject(m)) out.push({ role: roleOf(m.role), ...partsOf(m.content) });
    }
    return out;
  }
  if (typeof body.instructions === "string")
    out.push({ role: "system", text: body.instructions, images: [] });
  if (typeof body.input === "string") return [...out, { role: "user", text: body.input, images: [] }];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (!isObject(item)) continue;
    if (item.type === "message" || (item.type === undefined && "role" in item)) {
      out.push({ role: roleOf(item.role), ...partsOf(item.content) });
    } else {
      out.push({ role: item.type === "function_call_output" ? "tool" : "assistant", text: "", images: [] });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// What it says.
// ---------------------------------------------------------------------------------------------------------

const ARTICLE: Record<ImageType, string> = { PNG: "a PNG", JPEG: "a JPEG", WebP: "a WebP", GIF: "a GIF" };

/**
 * "a PNG image, 64 × 48 pixels": from the image's line (`note`: its original type and size) when the message has
 * one, otherwise from the image's header; an image it cannot read says so.
 */
export function describeImage(url: string, note?: ImageNote): string {
  const info = note ?? imageInfoFromDataUrl(url);
  if (info) return `${ARTICLE[info.type]} image, ${info.width} × ${info.height} pixels`;
  return url.startsWith("data:") ? "an image I could not read" : "an image behind a link I cannot open";
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join("; ")} and ${items.at(-1)}`;
}

/**
 * The deterministic description of one message's images: "I see 1 image: a PNG image, 64 × 48 pixels." `notes`:
 * the lines naming them, in the same order (readImageNotes).
 */
export function describeImages(images: readonly string[], notes: readonly ImageNote[] = []): string {
  if (images.length === 0) return "";
  const n = images.length;
  return `I see ${n} ${n === 1 ? "image" : "images"}: ${list(images.map((url, i) => describeImage(url, notes[i])))}.`;
}

function describeFile(file: { name: string; text: string }): string {
  const lines = file.text === "" ? 0 : file.text.split("\n").length;
  const first =
    file.text
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  const begins = first
    ? `, beginning "${[...first].slice(0, 60).join("")}${[...first].length > 60 ? "…" : ""}"`
    : "";
  return `${file.name} (${lines} ${lines === 1 ? "line" : "lines"}, ${[...file.text].length} characters${begins})`;
}

/** "I read 1 text file: notes.md (3 lines, 42 characters, beginning "# Title")." */
export function describeFiles(files: readonly { name: string; text: string }[]): string {
  if (files.length === 0) return "";
  const n = files.length;
  return `I read ${n} text ${n === 1 ? "file" : "files"}: ${list(files.map(describeFile))}.`;
}

const PICTURE = `(?:picture|image|photo|pic|screenshot|png|jpe?g|gif|webp)s?`;
const SIZE = `(?:size|dimensions?|resolution|width|height)`;
const SIZE_QUESTION = new RegExp(
  String.raw`\b${SIZE}\b[^?.!]*\b${PICTURE}\b|\b${PICTURE}\b[^?.!]*\b${SIZE}\b|\bhow\s+(?:big|large|wide|tall)\b[^?.!]*\b${PICTURE}\b|(?:图片|图像|照片|截图)[^？?。]*(?:多大|尺寸|分辨率|大小)|(?:多大|尺寸|分辨率|大小)[^？?。]*(?:图片|图像|照片|截图)`,
  "i",
);
const FILE_QUESTION =
  /\bwhat\b[^?.!]*\b(?:file|document|attachment)s?\b[^?.!]*\b(?:sent|send|attached|attach|gave|shared|uploaded)\b|(?:文件|附件)[^？?。]*(?:什么|哪个)/i;

export function isPictureSizeQuestion(text: string): boolean {
  return SIZE_QUESTION.test(text);
}

/**
 * The offline model's answer where attachments matter, given the answer it would give without them (`plainReply`).
 * The current (last) user message's images and files are described first. A question about the size of a picture
 * sent earlier is answered from the newest earlier user message that still carries images, and a question about
 * a file sent earlier from the newest one carrying files; when the request holds none, it says it cannot see one.
 * Anything else, and summary requests, get `plainReply` unchanged.
 */
export function attachmentReply(messages: readonly AttachmentMessage[], plainReply: string): string {
  if (isSummaryRequest(messages)) return plainReply;
  let current = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      current = i;
      break;
    }
  }
  const question = messages[current];
  if (!question) return plainReply;
  const { text: withoutNotes, notes } = readImageNotes(question.text);
  const { text, files } = splitAttachedFiles(withoutNotes);
  const seen = [describeImages(question.images, notes), describeFiles(files)].filter(Boolean).join(" ");
  if (seen) return isPictureSizeQuestion(text) || text.trim() === "" ? seen : `${seen}\n\n${plainReply}`;

  const earlier = messages
    .slice(0, current)
    .filter((m) => m.role === "user")
    .reverse();
  if (isPictureSizeQuestion(text)) {
    const withImages = earlier.find((m) => m.images.length > 0);
    if (!withImages)
      return "I can't see any picture from you in this conversation, so I can't tell its size.";
    const { notes: earlierNotes } = readImageNotes(withImages.text);
    const described = withImages.images.map((url, i) => describeImage(url, earlierNotes[i]));
    return described.length === 1
      ? `The picture you sent is ${described[0]}.`
      : `The pictures you sent are: ${list(described)}.`;
  }
  if (FILE_QUESTION.test(text)) {
    const withFiles = earlier
      .map((m) => splitAttachedFiles(readImageNotes(m.text).text).files)
      .find((f) => f.length > 0);
    if (!withFiles) return "I can't see any file from you in this conversation.";
    return `You sent ${withFiles.length === 1 ? "the file" : "the files"} ${list(withFiles.map(describeFile))}.`;
  }
  return plainReply;
}

/** `attachmentReply` for a raw request body (either API): what the offline model's handler calls. */
export function offlineAttachmentReply(body: unknown, plainReply: string): string {
  return attachmentReply(attachmentMessages(body), plainReply);
}
