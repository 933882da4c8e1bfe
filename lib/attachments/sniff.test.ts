import { describe, expect, it } from "vitest";
import { activeContentReason, decodeText, imageFormatOf, sniff, textMimeFor } from "./sniff";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (s: string) => new TextEncoder().encode(s);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);

describe("sniff judges by bytes, never by name", () => {
  it("recognises the four image formats by their magic numbers", () => {
    expect(imageFormatOf(PNG)).toBe("png");
    expect(imageFormatOf(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("jpeg");
    expect(imageFormatOf(text("GIF89a...."))).toBe("gif");
    expect(imageFormatOf(text("GIF87a...."))).toBe("gif");
    expect(imageFormatOf(text("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("webp");
    expect(imageFormatOf(text("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeNull();
  });

  it("takes a PNG named .txt for an image and HTML named .png for HTML", () => {
    expect(sniff(PNG, "notes.txt")).toMatchObject({ kind: "image", format: "png", mime: "image/png" });
    expect(sniff(text("<!DOCTYPE html><html><body>hi</body></html>"), "cat.png")).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("HTML"),
    });
  });

  it("accepts text files of the listed kinds, typed by extension among inert text types", () => {
    expect(sniff(text("# Title\n\nbody"), "a.md")).toEqual({
      kind: "text",
      mime: "text/markdown",
      text: "# Title\n\nbody",
    });
    expect(sniff(text("a,b\n1,2"), "a.csv")).toMatchObject({ kind: "text", mime: "text/csv" });
    expect(sniff(text('{"a":1}'), "a.json")).toMatchObject({ kind: "text", mime: "application/json" });
    expect(sniff(text("export const x = 1;\n"), "x.ts")).toMatchObject({ kind: "text", mime: "text/plain" });
    expect(sniff(text("\uFEFFhello"), "bom.txt")).toMatchObject({ kind: "text", text: "hello" });
    expect(sniff(text("<project><modelVersion>4.0.0</modelVersion></project>"), "pom.xml")).toMatchObject({
      kind: "text",
    });
    expect(sniff(text("BMW and MZ are just words"), "cars.txt")).toMatchObject({ kind: "text" });
    expect(textMimeFor("README")).toBe("text/plain");
  });

  it.each([
    ["<html><script>alert(1)</script></html>", "HTML"],
    ["  \n<script>alert(1)</script>", "HTML"],
    ["<!-- comment --><p>hi</p>", "HTML"],
    ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "SVG"],
    ['<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', "XML"],
    ['<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>', "XML"],
    ['<?xml version="1.0"?><doc onload="alert(1)"/>', "XML"],
  ])("refuses active content %j", (source, what) => {
    const result = sniff(text(source), "file.txt");
    expect(result.kind).toBe("refused");
    expect(result.kind === "refused" && result.reason).toContain(what);
  });

  it("refuses PDF, archives and other binary files, naming what they are when it can", () => {
    expect(sniff(text("%PDF-1.7\n%âãÏÓ"), "a.txt")).toEqual({
      kind: "refused",
      reason: "This file is a PDF document.",
    });
    expect(sniff(bytes(0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x81), "a.docx")).toMatchObject({
      reason: expect.stringContaining("ZIP"),
    });
    expect(sniff(bytes(0x00, 0x01, 0x02, 0xff, 0xfe), "a.bin")).toEqual({
      kind: "refused",
      reason: "This file is neither a supported image nor text.",
    });
  });

  it("decodeText wants UTF-8 without NULs and with hardly any control characters", () => {
    expect(decodeText(text("tabs\tand\r\nlines\fand \u001b[31mcolour"))).not.toBeNull();
    expect(decodeText(bytes(0xc3, 0x28))).toBeNull();
    expect(decodeText(text("a\u0000b"))).toBeNull();
    expect(decodeText(text("\u0001\u0002\u0003\u0004 mostly control"))).toBeNull();
    expect(activeContentReason("plain words <b>not at the start</b>")).toBeNull();
  });
});
