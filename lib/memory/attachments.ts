// How attachments live in memory items (docs/decisions/015-attachments.md), without their bytes:
// - an image is a reference in `imageUrls`: `attachment:<id>?w=<width>&h=<height>`. Its size travels with it, so
//   the token window can count it by OpenAI's image rule, and it survives snapshot()/restore() unchanged. It is
//   replaced by a data URL only for the model call itself (lib/attachments/resolve.ts); projections refuse an
//   unresolved one.
// - a text file becomes text: appended to the message's text between two marker lines (`withAttachedFiles`).

export const ATTACHMENT_REF_PREFIX = "attachment:";

export interface AttachmentRef {
  id: string;
  width?: number;
  height?: number;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The reference stored in `imageUrls` for an attached image. */
export function attachmentRef({ id, width, height }: AttachmentRef): string {
  if (!ID.test(id)) throw new RangeError(`not an attachment id: ${JSON.stringify(id)}`);
  const size = width && height ? `?w=${width}&h=${height}` : "";
  return `${ATTACHMENT_REF_PREFIX}${id}${size}`;
}

export function isAttachmentRef(url: string): boolean {
  return url.startsWith(ATTACHMENT_REF_PREFIX);
}

const dimension = (value: string | null): number | undefined => {
  const n = value === null ? Number.NaN : Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The id and size of a reference; null when `url` is not a well-formed attachment reference. */
export function parseAttachmentRef(url: string): AttachmentRef | null {
  if (!isAttachmentRef(url)) return null;
  const rest = url.slice(ATTACHMENT_REF_PREFIX.length);
  const query = rest.indexOf("?");
  const id = query === -1 ? rest : rest.slice(0, query);
  if (!ID.test(id)) return null;
  const ref: AttachmentRef = { id };
  if (query !== -1) {
    const params = new URLSearchParams(rest.slice(query + 1));
    const width = dimension(params.get("w"));
    const height = dimension(params.get("h"));
    if (width && height) {
      ref.width = width;
      ref.height = height;
    }
  }
  return ref;
}

export interface AttachedFile {
  name: string;
  text: string;
}

const fileStart = (name: string) => `--- Attached file: ${name} ---`;
const fileEnd = (name: string) => `--- End of ${name} ---`;

/** The text the model sees for a message with text files: the message, then each file between marker lines. */
export function withAttachedFiles(text: string, files: readonly AttachedFile[]): string {
  if (files.length === 0) return text;
  const blocks = files.map((file) => `${fileStart(file.name)}\n${file.text}\n${fileEnd(file.name)}`);
  return [text, ...blocks].filter((part) => part !== "").join("\n\n");
}

const FILE_BLOCK = /(?:^|\n\n)--- Attached file: ([^\n]+?) ---\n([\s\S]*?)\n--- End of \1 ---(?=\n\n|$)/g;

/** The inverse of `withAttachedFiles`: the message's own text and the files appended to it. */
export function splitAttachedFiles(text: string): { text: string; files: AttachedFile[] } {
  const files: AttachedFile[] = [];
  let first = -1;
  for (const match of text.matchAll(FILE_BLOCK)) {
    if (first === -1) first = match.index;
    files.push({ name: match[1] ?? "", text: match[2] ?? "" });
  }
  return first === -1 ? { text, files } : { text: text.slice(0, first), files };
}
