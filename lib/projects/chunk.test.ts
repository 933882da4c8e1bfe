import { describe, expect, it } from "vitest";
import { CHUNK_CHARS, chunkText, textKindOf } from "./chunk";

const words = (n: number, w = "word") => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");

describe("chunkText", () => {
  it("keeps a short text as one passage, without its blank edges and trailing spaces", () => {
    expect(chunkText("\n\nHello there.  \nSecond line.\n\n\n", "text")).toEqual([
      "Hello there.\nSecond line.",
    ]);
  });

  it("gives nothing for an empty or blank text", () => {
    expect(chunkText("", "text")).toEqual([]);
    expect(chunkText(" \n\t\n \r\n", "markdown")).toEqual([]);
  });

  it("packs whole paragraphs up to the limit, one blank line between them, and never cuts one that fits", () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i}. ${words(20, `p${i}w`)}`);
    const chunks = chunkText(paragraphs.join("\n\n"), "text", 500);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(500);
    // Every paragraph is whole in exactly one passage, in order.
    expect(chunks.flatMap((c) => c.split("\n\n"))).toEqual(paragraphs);
  });

  it("cuts a paragraph longer than a passage at lines, then sentences or spaces, losing no word", () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something.`).join(" ");
    const chunks = chunkText(long, "text", 300);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(300);
    expect(chunks.join(" ").split(/\s+/)).toEqual(long.split(/\s+/));
    // Cut after a sentence, not inside one.
    for (const c of chunks.slice(0, -1)) expect(c.endsWith(".")).toBe(true);
  });

  it("cuts a word longer than a passage anywhere, never inside a surrogate pair", () => {
    const blob = "😀".repeat(400);
    const chunks = chunkText(blob, "text", 301);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(301);
      expect(c.isWellFormed()).toBe(true);
    }
    expect(chunks.join("")).toBe(blob);
  });

  it("starts a new passage at a Markdown heading once the current one holds enough", () => {
    const intro = `# Guide\n\n${words(50)}`;
    const md = `${intro}\n\n## Install\n\nRun the installer.\n\n## Use\n\nOpen the app.`;
    const chunks = chunkText(md, "markdown", CHUNK_CHARS);
    expect(chunks[0]).toBe(intro);
    expect(chunks[1]?.startsWith("## Install")).toBe(true);
    // A heading right after a short passage stays with it.
    expect(chunkText("# Title\n\nShort.\n\n## Next\n\nMore.", "markdown")).toHaveLength(1);
  });

  it("keeps a fenced code block, blank lines and all, in one block", () => {
    const fence = "```ts\nconst a = 1;\n\nconst b = 2;\n```";
    const md = `${words(80)}\n\n${fence}\n\nAfter.`;
    const chunks = chunkText(md, "markdown", 500);
    expect(chunks.some((c) => c.includes(fence))).toBe(true);
    // As plain text the blank line inside is a paragraph break like any other.
    expect(chunkText("a\n\nb", "text")).toEqual(["a\n\nb"]);
  });

  it("cuts source code between its blank-line separated blocks", () => {
    const fn = (i: number) => `function f${i}() {\n  return ${i};\n}`;
    const code = Array.from({ length: 60 }, (_, i) => fn(i)).join("\n\n");
    const chunks = chunkText(code, "code", 400);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(400);
    expect(chunks.flatMap((c) => c.split("\n\n"))).toEqual(Array.from({ length: 60 }, (_, i) => fn(i)));
  });

  it("reads CRLF and a byte order mark like plain newlines", () => {
    expect(chunkText("\uFEFFone\r\ntwo\r\n\r\nthree", "text")).toEqual(["one\ntwo\n\nthree"]);
  });
});

describe("textKindOf", () => {
  it("tells Markdown and source code by extension, everything else is text", () => {
    expect(textKindOf("README.md")).toBe("markdown");
    expect(textKindOf("notes.MARKDOWN")).toBe("markdown");
    expect(textKindOf("main.ts")).toBe("code");
    expect(textKindOf("build.py")).toBe("code");
    expect(textKindOf("notes.txt")).toBe("text");
    expect(textKindOf("Makefile")).toBe("text");
  });
});
