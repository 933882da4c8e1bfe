import { currentIndex, type DemoMessage, joinAnd, plural } from "./text";

// The demo model's eyes: it reads what the request's text says about attachments. Every image comes with a line
// naming it ("[Attached image: photo.jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]"), which it reports; its
// pixels, scaled for the model, would not tell the original size anyway. Text files come between
// "--- Attached file: x ---" and "--- End of x ---" lines. A picture memory no longer sends is one it cannot describe.

const IMAGE_LINE =
  /^\[Attached image: .+, (PNG|JPEG|WebP|GIF), (\d+ × \d+) pixels(?:, shown at \d+ × \d+)?\]$/;
const FILE = /(?:^|\n\n)--- Attached file: ([^\n]+?) ---\n([\s\S]*?)\n--- End of \1 ---(?=\n\n|$)/g;
const PICTURE = "(?:picture|image|photo|pic|screenshot|png|jpe?g|gif|webp)s?";
const SIZE = "(?:size|dimensions?|resolution|width|height)";
const SIZE_QUESTION = new RegExp(
  String.raw`\b${SIZE}\b[^?.!]*\b${PICTURE}\b|\b${PICTURE}\b[^?.!]*\b${SIZE}\b|\bhow\s+(?:big|large|wide|tall)\b[^?.!]*\b${PICTURE}\b|(?:图片|图像|照片|截图)[^？?。]*(?:多大|尺寸|分辨率|大小)|(?:多大|尺寸|分辨率|大小)[^？?。]*(?:图片|图像|照片|截图)`,
  "i",
);
const FILE_QUESTION =
  /\bwhat\b[^?.!]*\b(?:file|document|attachment)s?\b[^?.!]*\b(?:sent|send|attached|attach|gave|shared|uploaded)\b|(?:文件|附件)[^？?。]*(?:什么|哪个)/i;

/** A message's own text, its files, and what its images are (from their lines: the text's last paragraph). */
function read({ text, images = [] }: DemoMessage) {
  const cut = text.lastIndexOf("\n\n");
  const block = (cut < 0 ? text : text.slice(cut + 2)).split("\n");
  const isLines = block.every((line) => /^\[.*\]$/.test(line));
  const described = isLines ? block.map((line) => IMAGE_LINE.exec(line)).filter((m) => m !== null) : [];
  const body = isLines ? text.slice(0, Math.max(cut, 0)) : text;
  const files = [...body.matchAll(FILE)].map((m) => ({ name: m[1] ?? "", text: m[2] ?? "" }));
  const seen = images.map((url, i) => {
    const m = described[i];
    if (m) return `a ${m[1]} image, ${m[2]} pixels`;
    return url.startsWith("data:") ? "an image I could not read" : "an image behind a link I cannot open";
  });
  return { own: body.replace(FILE, "").trim(), seen, files };
}

function describeFile(f: { name: string; text: string }): string {
  const lines = f.text === "" ? 0 : f.text.split("\n").length;
  const first = [
    ...(f.text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""),
  ];
  const begins = first.length
    ? `, beginning "${first.slice(0, 60).join("")}${first.length > 60 ? "…" : ""}"`
    : "";
  return `${f.name} (${plural(lines, "line")}, ${[...f.text].length} characters${begins})`;
}

/**
 * The answer where attachments matter, given the answer without them (`plain`): the question's own images and
 * files described first; a question about the size of a picture, or about a file, sent earlier answered from the
 * newest earlier user message still carrying one. Anything else gets `plain`.
 */
export function attachmentReply(messages: readonly DemoMessage[], plain: string): string {
  const at = currentIndex(messages);
  const question = messages[at];
  if (!question) return plain;
  const { own, seen, files } = read(question);
  const said = [
    seen.length ? `I see ${plural(seen.length, "image")}: ${joinAnd(seen, "; ")}.` : "",
    files.length
      ? `I read ${plural(files.length, "text file")}: ${joinAnd(files.map(describeFile), "; ")}.`
      : "",
  ].filter(Boolean);
  if (said.length)
    return SIZE_QUESTION.test(own) || own === "" ? said.join(" ") : `${said.join(" ")}\n\n${plain}`;
  const earlier = messages
    .slice(0, at)
    .filter((m) => m.role === "user")
    .map(read)
    .reverse();
  if (SIZE_QUESTION.test(own)) {
    const sizes = earlier.find((e) => e.seen.length > 0)?.seen;
    if (!sizes) return "I can't see any picture from you in this conversation, so I can't tell its size.";
    return sizes.length === 1
      ? `The picture you sent is ${sizes[0]}.`
      : `The pictures you sent are: ${joinAnd(sizes, "; ")}.`;
  }
  if (!FILE_QUESTION.test(own)) return plain;
  const sent = earlier.find((e) => e.files.length > 0)?.files;
  if (!sent) return "I can't see any file from you in this conversation.";
  return `You sent ${sent.length === 1 ? "the file" : "the files"} ${joinAnd(sent.map(describeFile), "; ")}.`;
}
