// What a file is, judged by its bytes, never by its name or the type the browser claimed. Pure.

export type ImageFormat = "png" | "jpeg" | "webp" | "gif";

export const IMAGE_MIME: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

export const IMAGE_EXTENSION: Record<ImageFormat, string> = {
  png: "png",
  jpeg: "jpg",
  webp: "webp",
  gif: "gif",
};

export type Sniffed =
  | { kind: "image"; format: ImageFormat; mime: string }
  | { kind: "text"; mime: string; text: string }
  | { kind: "refused"; reason: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image format by its magic number, or null. */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}

/** Binary formats people try to attach, named so the refusal can say what the file was. */
const KNOWN_BINARY: { name: string; signature: number[]; at?: number; scriptable?: boolean }[] = [
  { name: "a PDF document", signature: ascii("%PDF-"), scriptable: true },
  { name: "a ZIP archive (or an Office document)", signature: [0x50, 0x4b, 0x03, 0x04] },
  { name: "a program", signature: [0x7f, 0x45, 0x4c, 0x46] },
  { name: "a program", signature: ascii("MZ") },
  { name: "a BMP image", signature: ascii("BM") },
  { name: "a TIFF image", signature: [0x49, 0x49, 0x2a, 0x00] },
  { name: "a TIFF image", signature: [0x4d, 0x4d, 0x00, 0x2a] },
  { name: "an HEIC/AVIF image or a video", signature: ascii("ftyp"), at: 4 },
  { name: "a PostScript document", signature: ascii("%!PS"), scriptable: true },
];

const TEXT_MIME: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  json: "application/json",
};

/** The stored type of a text file: a few named ones by extension, everything else plain text. All inert. */
export function textMimeFor(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return TEXT_MIME[ext] ?? "text/plain";
}

/**
 * Markup a browser would run or render as a document: what the WHATWG MIME Sniffing standard recognises as HTML
 * at the start of a file (any of these tags, case-insensitive, followed by a space or `>`), SVG, and XML that
 * carries script, event handlers, XHTML or SVG. Plain XML without them (a pom.xml) is text.
 */
const HTML_START =
  /^(?:<!doctype\s+html|<!--|<(?:html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|svg|object|embed|frameset|frame|meta|link|form|img|math)(?=[\s>/]))/i;
const ACTIVE_XML =
  /<\s*(?:[a-z0-9_-]+:)?(?:script|svg|iframe|object|embed|foreignObject)\b|\son[a-z]+\s*=|javascript\s*:|xmlns(?::[a-z0-9_-]+)?\s*=\s*["']http:\/\/www\.w3\.org\/(?:1999\/xhtml|2000\/svg)/i;

export function activeContentReason(text: string): string | null {
  const head = text.replace(/^\uFEFF/, "").trimStart();
  if (/^<\?xml/i.test(head)) {
    return ACTIVE_XML.test(text) ? "an XML document with script or markup a browser would run" : null;
  }
  if (HTML_START.test(head)) return /^<svg/i.test(head) ? "an SVG image" : "an HTML document";
  return null;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** UTF-8 text without NULs and with hardly any control characters; null when the bytes are not text. */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return null;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return null;
    // Tab, line feed, form feed, carriage return and escape (ANSI colours in logs) are text.
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13 && c !== 27) || c === 0x7f) control++;
  }
  return control > Math.max(2, text.length / 100) ? null : text;
}

/**
 * Judges `bytes`: one of the four image formats by magic number, else UTF-8 text (txt, md, csv, json, source
 * code…) unless it is active content (HTML, SVG, XML with script), else refused. The name plays no part.
 */
export function sniff(bytes: Uint8Array, name = ""): Sniffed {
  const format = imageFormatOf(bytes);
  if (format) return { kind: "image", format, mime: IMAGE_MIME[format] };
  const binary = KNOWN_BINARY.find((b) => startsWith(bytes, b.signature, b.at ?? 0));
  // PDF and PostScript may look like text at first; browsers treat both as documents that can run code.
  if (binary?.scriptable) return { kind: "refused", reason: `This file is ${binary.name}.` };
  const text = decodeText(bytes);
  if (text === null) {
    return {
      kind: "refused",
      reason: binary ? `This file is ${binary.name}.` : "This file is neither a supported image nor text.",
    };
  }
  const active = activeContentReason(text);
  if (active) return { kind: "refused", reason: `This file is ${active}, which is not accepted.` };
  return { kind: "text", mime: textMimeFor(name), text: text.replace(/^\uFEFF/, "") };
}
