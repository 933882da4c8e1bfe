// Cutting a project file's text into the passages recall retrieves (docs/decisions/037-project-files.md). Pure.
// A passage is whole paragraphs (blank-line separated blocks) packed up to CHUNK_CHARS; a Markdown heading starts a
// new passage, a fenced code block is one block, and only a block longer than a passage is cut — at lines, then at
// sentence ends or spaces, and as a last resort anywhere (never inside a surrogate pair).

export type TextKind = "text" | "markdown" | "code";

/** Most characters in one passage: about 300 tokens, so several fit in recall's default budget of 2 000. */
export const CHUNK_CHARS = 1200;
/** A heading starts a new passage only when the current one already holds this much. */
const MIN_CHUNK_CHARS = 200;

const HEADING = /^#{1,6}\s/;
const FENCE = /^\s*(```|~~~)/;

/** The text's blocks: runs of lines between blank lines (Markdown: a fenced code block is one block). */
function blocksOf(lines: readonly string[], kind: TextKind): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const close = () => {
    if (current.some((l) => l.trim() !== "")) blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of lines) {
    if (kind === "markdown") {
      const marker = FENCE.exec(line)?.[1] ?? null;
      if (fence === null && marker) {
        close();
        fence = marker;
        current.push(line);
        continue;
      }
      if (fence !== null) {
        current.push(line);
        if (marker === fence) {
          fence = null;
          close();
        }
        continue;
      }
      if (HEADING.test(line)) close();
    }
    if (line.trim() === "") close();
    else current.push(line);
  }
  close();
  return blocks;
}

/** Cuts `text` (longer than `max`) at the last sentence end or space before `max`, else at `max`. */
function cutLong(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const head = rest.slice(0, max);
    let at = Math.max(
      head.lastIndexOf(". "),
      head.lastIndexOf("。"),
      head.lastIndexOf("! "),
      head.lastIndexOf("? "),
    );
    if (at >= max / 2) at += 1;
    else {
      at = head.lastIndexOf(" ");
      if (at < max / 2) {
        at = max;
        // Never between the two halves of a surrogate pair.
        const code = rest.charCodeAt(at - 1);
        if (code >= 0xd800 && code <= 0xdbff) at -= 1;
      }
    }
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.trim() !== "") out.push(rest);
  return out;
}

/** A block longer than `max` as pieces of at most `max`: whole lines packed, over-long lines cut. */
function splitBlock(block: string, max: number): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const line of block.split("\n")) {
    for (const part of line.length > max ? cutLong(line, max) : [line]) {
      if (current !== "" && current.length + 1 + part.length > max) {
        pieces.push(current);
        current = "";
      }
      current = current === "" ? part : `${current}\n${part}`;
    }
  }
  if (current.trim() !== "") pieces.push(current);
  return pieces;
}

/**
 * The passages of a file's text, in order, each at most `max` characters and never empty: its blocks packed
 * greedily, separated by a blank line; a Markdown heading starts a new passage once the current one holds
 * MIN_CHUNK_CHARS.
 */
export function chunkText(text: string, kind: TextKind, max = CHUNK_CHARS): string[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());
  const chunks: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim() !== "") chunks.push(current);
    current = "";
  };
  for (const block of blocksOf(lines, kind)) {
    if (kind === "markdown" && HEADING.test(block) && current.length >= MIN_CHUNK_CHARS) flush();
    for (const piece of block.length > max ? splitBlock(block, max) : [block]) {
      if (current !== "" && current.length + 2 + piece.length > max) flush();
      current = current === "" ? piece : `${current}\n\n${piece}`;
    }
  }
  flush();
  return chunks;
}

const CODE_EXTENSIONS = new Set(
  (
    "js jsx mjs cjs ts tsx mts cts py rb go rs java kt kts scala swift c h cc cpp cxx hpp cs php pl pm lua r sql sh " +
    "bash zsh fish ps1 css scss less vue svelte dart ex exs erl hs ml clj elm zig nim toml yaml yml ini gradle proto"
  ).split(" "),
);

/**
 * The file picker's `accept` for project files: a hint only (the server judges a file by its bytes, so a text file
 * of another name is still taken when picked by "All files").
 */
export const PROJECT_FILE_ACCEPT = [
  "text/*",
  "application/pdf",
  "application/json",
  ...[
    "txt",
    "md",
    "markdown",
    "mdx",
    "csv",
    "tsv",
    "json",
    "xml",
    "html",
    "log",
    "pdf",
    ...CODE_EXTENSIONS,
  ].map((ext) => `.${ext}`),
].join(",");

/** How a text file is cut: by its name's extension. */
export function textKindOf(name: string): TextKind {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  if (ext === "md" || ext === "markdown" || ext === "mdx") return "markdown";
  return CODE_EXTENSIONS.has(ext) ? "code" : "text";
}
