import { describe, expect, it } from "vitest";
import { questionMarks } from "./question";
import { buildSnippet, escapeHtml, matchRanges, snippetParts } from "./snippet";

const q = (s: string) => questionMarks(s);

describe("matchRanges", () => {
  it("finds words case- and accent-insensitively, in the original text's offsets", () => {
    const text = "Un CAFÉ, puis un café.";
    expect(matchRanges(text, q("cafe ")).map(([a, b]) => text.slice(a, b))).toEqual(["CAFÉ", "café"]);
  });

  it("marks a CJK word inside running text, and merges overlapping bigram matches", () => {
    const text = "买了绿松石手链";
    expect(matchRanges(text, q("松石")).map(([a, b]) => text.slice(a, b))).toEqual(["松石"]);
    expect(matchRanges(text, q("绿松石")).map(([a, b]) => text.slice(a, b))).toEqual(["绿松石"]);
    expect(matchRanges(text, q("链")).map(([a, b]) => text.slice(a, b))).toEqual(["链"]);
  });

  it("marks prefixes of the last word whole", () => {
    const text = "A conversation about conversion";
    expect(matchRanges(text, q("conv")).map(([a, b]) => text.slice(a, b))).toEqual([
      "conversation",
      "conversion",
    ]);
  });

  it("requires a phrase's terms to be consecutive", () => {
    const phrase = { groups: [{ terms: ["绿松", "松石"], prefix: false }] };
    expect(matchRanges("绿松 石", phrase)).toEqual([]);
    expect(matchRanges("绿松石", phrase)).toEqual([[0, 3]]);
  });
});

describe("buildSnippet", () => {
  it("escapes everything but the marks", () => {
    expect(buildSnippet(`<script>alert("x")</script> & ok`, q("alert "))).toBe(
      "&lt;script&gt;<mark>alert</mark>(&quot;x&quot;)&lt;/script&gt; &amp; ok",
    );
  });

  it("starts near the first match in a long text and says where it cut", () => {
    const text = `${"lorem ipsum ".repeat(40)}the needle is here ${"dolor sit ".repeat(40)}`;
    const snippet = buildSnippet(text, q("needle "));
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain("the <mark>needle</mark> is here");
    expect(snippet.length).toBeLessThan(200);
  });

  it("shows the start of the text when the match is near it, and collapses whitespace", () => {
    expect(buildSnippet("First line\n\n  松石 second", q("松石"))).toBe(
      "First line <mark>松石</mark> second",
    );
  });

  it("is the opening of the text when nothing matches (e.g. matched by a stemmed form elsewhere)", () => {
    expect(buildSnippet("nothing here", q("absent"))).toBe("nothing here");
  });

  it("never cuts a surrogate pair", () => {
    const text = `${"𠀋".repeat(100)}松石${"𠀋".repeat(100)}`;
    const snippet = buildSnippet(text, q("松石"));
    expect(snippet).toContain("<mark>松石</mark>");
    expect(snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("snippetParts", () => {
  it("splits on the marks and unescapes the text, so clients render it as text", () => {
    expect(snippetParts("a &lt;b&gt; <mark>c &amp; d</mark> e")).toEqual([
      { text: "a <b> ", marked: false },
      { text: "c & d", marked: true },
      { text: " e", marked: false },
    ]);
  });

  it("round-trips buildSnippet's output to the original text", () => {
    const text = `x < y && "z" 'w' 松石`;
    const parts = snippetParts(buildSnippet(text, q("松石")));
    expect(parts.map((p) => p.text).join("")).toBe(text);
    expect(parts.filter((p) => p.marked).map((p) => p.text)).toEqual(["松石"]);
  });

  it("escapes as expected", () => {
    expect(escapeHtml(`<&>"'`)).toBe("&lt;&amp;&gt;&quot;&#39;");
  });
});
