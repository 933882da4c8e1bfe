import { type SearchQuery, stemOf, type Token, termMatches, tokenize } from "./terms";

// A result's excerpt: a window of the ORIGINAL message text around the first match, every match wrapped in
// <mark>…</mark> and everything else HTML-escaped, so a client renders it by splitting on the two tags (never as
// HTML). Pure; the matching is the index's own (lib/search/terms.ts), so what is marked is what was found.

const SNIPPET_CHARS = 160;
const MARK_OPEN = "<mark>";
const MARK_CLOSE = "</mark>";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** Two words with one stem (named, names → name), as the index sees them. */
function sameStem(a: string, b: string): boolean {
  const stem = stemOf(b) ?? b;
  return (stemOf(a) ?? a) === stem;
}

/** The [start, end) ranges of `text` that match the query, merged and in order. */
export function matchRanges(text: string, query: SearchQuery): [number, number][] {
  const tokens = tokenize(text);
  const ranges: [number, number][] = [];
  for (const group of query.groups) {
    const [first] = group.terms;
    if (first === undefined) continue;
    for (let i = 0; i < tokens.length; i++) {
      // A phrase: its terms on consecutive tokens.
      let ok = true;
      for (let k = 0; k < group.terms.length && ok; k++) {
        const token = tokens[i + k] as Token | undefined;
        const wanted = group.terms[k] as string;
        ok =
          token !== undefined &&
          (termMatches(token.term, wanted, group.prefix) ||
            (group.terms.length === 1 && sameStem(token.term, wanted)));
      }
      if (!ok) continue;
      const start = (tokens[i] as Token).start;
      const end = (tokens[i + group.terms.length - 1] as Token).end;
      ranges.push([start, end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** Moves an offset off the second half of a surrogate pair. */
function safeOffset(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * The marked excerpt: about `size` characters starting a little before the first match (at a word boundary when
 * there is one nearby), with "…" where text was cut. Whitespace runs are collapsed to one space.
 */
export function buildSnippet(text: string, query: SearchQuery, size = SNIPPET_CHARS): string {
  const ranges = matchRanges(text, query);
  const first = ranges[0];
  let start = 0;
  if (first && first[0] > size / 4) {
    start = first[0] - Math.floor(size / 4);
    // Start at the next word when one begins before the match.
    const space = text.indexOf(" ", start);
    if (space !== -1 && space < first[0]) start = space + 1;
  }
  start = safeOffset(text, start);
  const end = safeOffset(text, Math.min(text.length, start + size));
  let out = start > 0 ? "…" : "";
  let at = start;
  for (const [a, b] of ranges) {
    if (b <= start || a >= end) continue;
    const from = Math.max(a, start);
    const to = Math.min(b, end);
    out += escapeHtml(text.slice(at, from)) + MARK_OPEN + escapeHtml(text.slice(from, to)) + MARK_CLOSE;
    at = to;
  }
  out += escapeHtml(text.slice(at, end));
  if (end < text.length) out += "…";
  return out.replace(/\s+/g, " ").trim();
}

/** Splits a snippet into plain and marked parts (the client's way to render it without HTML). */
export function snippetParts(snippet: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  const unescapeHtml = (s: string) =>
    s.replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? "",
    );
  snippet.split(MARK_OPEN).forEach((chunk, i) => {
    if (i === 0) {
      if (chunk) parts.push({ text: unescapeHtml(chunk), marked: false });
      return;
    }
    const close = chunk.indexOf(MARK_CLOSE);
    const marked = close === -1 ? chunk : chunk.slice(0, close);
    const rest = close === -1 ? "" : chunk.slice(close + MARK_CLOSE.length);
    if (marked) parts.push({ text: unescapeHtml(marked), marked: true });
    if (rest) parts.push({ text: unescapeHtml(rest), marked: false });
  });
  return parts;
}
