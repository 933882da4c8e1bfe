import { currentIndex, type DemoMessage, joinAnd } from "./text";

// The demo model's eyes: it reads what the request holds. An image comes with a line naming it
// ("[Attached image: photo.jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]"), which it reports; an image
// without one is described from its own header bytes. Text files come between "--- Attached file: x ---" and
// "--- End of x ---" lines. A picture memory no longer sends is one it cannot describe.

type Size = { type: string; width: number; height: number };

const NOTE_LINE =
  /^\[Attached image: .+, (PNG|JPEG|WebP|GIF), (\d+) × (\d+) pixels(?:, shown at \d+ × \d+)?\]$/;
const FILE = /(?:^|\n\n)--- Attached file: ([^\n]+?) ---\n([\s\S]*?)\n--- End of \1 ---(?=\n\n|$)/g;

const be16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const le16 = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, i: number) => le16(b, i) | ((b[i + 2] ?? 0) << 16);
const tag = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function jpegSize(b: Uint8Array): Omit<Size, "type"> | null {
  for (let i = 2; i + 9 < b.length; ) {
    const marker = b[i + 1] ?? 0;
    if (b[i] !== 0xff) return null;
    if (marker === 0xff) i++;
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) i += 2;
    else if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    } else i += 2 + be16(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): Omit<Size, "type"> | null {
  const chunk = tag(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30)
    return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const [b1, b2, b3, b4] = [b[21] ?? 0, b[22] ?? 0, b[23] ?? 0, b[24] ?? 0];
    return {
      width: 1 + (((b2 & 0x3f) << 8) | b1),
      height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)),
    };
  }
  return chunk === "VP8X" && b.length >= 30 ? { width: 1 + le24(b, 24), height: 1 + le24(b, 27) } : null;
}

/** Type and size of a PNG, JPEG, WebP or GIF from its header; null for anything else. */
function imageInfo(b: Uint8Array): Size | null {
  let found: Size | null = null;
  const size = (type: string, s: Omit<Size, "type"> | null) => (s ? { type, ...s } : null);
  if (b.length >= 24 && tag(b, 1, 3) === "PNG" && tag(b, 12, 4) === "IHDR") {
    found = size("PNG", {
      width: be16(b, 16) * 0x10000 + be16(b, 18),
      height: be16(b, 20) * 0x10000 + be16(b, 22),
    });
  } else if (b.length >= 10 && /^GIF8[79]a$/.test(tag(b, 0, 6))) {
    found = size("GIF", { width: le16(b, 6), height: le16(b, 8) });
  } else if (b.length >= 16 && tag(b, 0, 4) === "RIFF" && tag(b, 8, 4) === "WEBP")
    found = size("WebP", webpSize(b));
  else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff)
    found = size("JPEG", jpegSize(b));
  return found && found.width > 0 && found.height > 0 ? found : null;
}

function fromUrl(url: string): Size | null {
  const head = /^data:[^,]*;base64,/i.exec(url);
  if (!head) return null;
  // Every format's size is in its first bytes (a JPEG's after its tables): decode all only when 3 KB do not tell.
  const start = head[0].length;
  const bytes = (end?: number) => new Uint8Array(Buffer.from(url.slice(start, end), "base64"));
  return imageInfo(bytes(start + 4096)) ?? imageInfo(bytes());
}

const ARTICLE: Record<string, string> = { PNG: "a PNG", JPEG: "a JPEG", WebP: "a WebP", GIF: "a GIF" };

function describeImage(url: string, note: Size | undefined): string {
  const s = note ?? fromUrl(url);
  if (s) return `${ARTICLE[s.type]} image, ${s.width} × ${s.height} pixels`;
  return url.startsWith("data:") ? "an image I could not read" : "an image behind a link I cannot open";
}

/** A message's own text, its files, and its image lines (as sizes): a last paragraph of nothing but "[…]" lines. */
function read(text: string) {
  const cut = text.lastIndexOf("\n\n");
  const block = (cut < 0 ? text : text.slice(cut + 2)).split("\n");
  const isNotes = block.every((line) => /^\[.*\]$/.test(line));
  const notes = isNotes
    ? block.flatMap((line) => {
        const m = NOTE_LINE.exec(line);
        return m ? [{ type: m[1] ?? "", width: Number(m[2]), height: Number(m[3]) }] : [];
      })
    : [];
  const body = isNotes ? (cut < 0 ? "" : text.slice(0, cut)) : text;
  const files = [...body.matchAll(FILE)].map((m) => ({ name: m[1] ?? "", text: m[2] ?? "" }));
  return { own: body.replace(FILE, "").trim(), notes, files };
}

function describeFile(f: { name: string; text: string }): string {
  const lines = f.text === "" ? 0 : f.text.split("\n").length;
  const firstLine = [
    ...(f.text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""),
  ];
  const begins = firstLine.length
    ? `, beginning "${firstLine.slice(0, 60).join("")}${firstLine.length > 60 ? "…" : ""}"`
    : "";
  return `${f.name} (${lines} ${lines === 1 ? "line" : "lines"}, ${[...f.text].length} characters${begins})`;
}

const PICTURE = "(?:picture|image|photo|pic|screenshot|png|jpe?g|gif|webp)s?";
const SIZE = "(?:size|dimensions?|resolution|width|height)";
const SIZE_QUESTION = new RegExp(
  String.raw`\b${SIZE}\b[^?.!]*\b${PICTURE}\b|\b${PICTURE}\b[^?.!]*\b${SIZE}\b|\bhow\s+(?:big|large|wide|tall)\b[^?.!]*\b${PICTURE}\b|(?:图片|图像|照片|截图)[^？?。]*(?:多大|尺寸|分辨率|大小)|(?:多大|尺寸|分辨率|大小)[^？?。]*(?:图片|图像|照片|截图)`,
  "i",
);
const FILE_QUESTION =
  /\bwhat\b[^?.!]*\b(?:file|document|attachment)s?\b[^?.!]*\b(?:sent|send|attached|attach|gave|shared|uploaded)\b|(?:文件|附件)[^？?。]*(?:什么|哪个)/i;

/**
 * The answer where attachments matter, given the answer without them (`plain`): the question's own images and
 * files described first; a question about the size of a picture, or about a file, sent earlier answered from the
 * newest earlier user message still carrying one. Anything else gets `plain`.
 */
export function attachmentReply(messages: readonly DemoMessage[], plain: string): string {
  const at = currentIndex(messages);
  const question = messages[at];
  if (!question) return plain;
  const { own, notes, files } = read(question.text);
  const images = question.images ?? [];
  const n = images.length;
  const seen = [
    n
      ? `I see ${n} ${n === 1 ? "image" : "images"}: ${joinAnd(
          images.map((u, i) => describeImage(u, notes[i])),
          "; ",
        )}.`
      : "",
    files.length
      ? `I read ${files.length} text ${files.length === 1 ? "file" : "files"}: ${joinAnd(files.map(describeFile), "; ")}.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  if (seen) return SIZE_QUESTION.test(own) || own === "" ? seen : `${seen}\n\n${plain}`;
  const earlier = messages
    .slice(0, at)
    .filter((m) => m.role === "user")
    .reverse();
  if (SIZE_QUESTION.test(own)) {
    const m = earlier.find((e) => (e.images ?? []).length > 0);
    if (!m) return "I can't see any picture from you in this conversation, so I can't tell its size.";
    const sizes = (m.images ?? []).map((u, i) => describeImage(u, read(m.text).notes[i]));
    return sizes.length === 1
      ? `The picture you sent is ${sizes[0]}.`
      : `The pictures you sent are: ${joinAnd(sizes, "; ")}.`;
  }
  if (FILE_QUESTION.test(own)) {
    const sent = earlier.map((e) => read(e.text).files).find((f) => f.length > 0);
    if (!sent) return "I can't see any file from you in this conversation.";
    return `You sent ${sent.length === 1 ? "the file" : "the files"} ${joinAnd(sent.map(describeFile), "; ")}.`;
  }
  return plain;
}
