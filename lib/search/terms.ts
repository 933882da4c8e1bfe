// The one tokenizer of search (docs/decisions/017-search.md), pure: the index, the query and the snippet all cut
// text here, so they always agree. SQL cannot segment Chinese or Japanese, so the app hands the databases ready
// terms: a Latin (or any spaced-script) word is one term, normalized; a run of CJK characters becomes its
// overlapping bigrams plus its last character alone, so every character starts a term (a one-character query is a
// prefix query) and any two-character word inside running text (松石 in 绿松石手链) is a term of its own.
// A word is also indexed under its Porter stem (named → name), so a question finds other forms of its words.

import { stemmer } from "stemmer";

/** Characters of scripts written without spaces between words. */
const CJK_CHAR = String.raw`\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}`;
// CJK punctuation (。、「」) shares the scripts' Script_Extensions: only letters and digits make a run.
const RUNS = new RegExp(
  String.raw`((?:(?=[\p{L}\p{N}])[${CJK_CHAR}])+)|((?:(?![${CJK_CHAR}])[\p{L}\p{N}\p{M}])+)`,
  "gu",
);

/** Longer words are cut to this many characters (both sides, so they still match): ids and blobs, not words. */
export const MAX_WORD_LENGTH = 64;
/** Only this much of a message is indexed (bounds a PostgreSQL tsvector well below its 1 MB limit). */
const MAX_INDEXED_CHARS = 50_000;

export interface Token {
  term: string;
  /** UTF-16 offsets of the characters the term was made of, in the original text. */
  start: number;
  end: number;
  cjk: boolean;
}

/** A word as stored: compatibility forms folded (ｆｕｌｌ → full), accents removed, lower case, letters and digits. */
export function normalizeWord(word: string): string {
  return word
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]/gu, "")
    .toLowerCase()
    .slice(0, MAX_WORD_LENGTH);
}

function normalizeCjkChar(char: string): string {
  const folded = char.normalize("NFKC");
  return /^[\p{L}\p{N}]+$/u.test(folded) ? folded : char;
}

/** The terms of `text` in order, with where each came from. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(RUNS)) {
    const at = match.index;
    if (match[1] !== undefined) {
      const chars: { c: string; start: number; end: number }[] = [];
      let offset = at;
      for (const c of match[1]) {
        chars.push({ c: normalizeCjkChar(c), start: offset, end: offset + c.length });
        offset += c.length;
      }
      for (let i = 0; i + 1 < chars.length; i++) {
        const a = chars[i] as (typeof chars)[number];
        const b = chars[i + 1] as (typeof chars)[number];
        tokens.push({ term: a.c + b.c, start: a.start, end: b.end, cjk: true });
      }
      const last = chars.at(-1) as (typeof chars)[number];
      tokens.push({ term: last.c, start: last.start, end: last.end, cjk: true });
    } else {
      const term = normalizeWord(match[0]);
      if (term) tokens.push({ term, start: at, end: at + match[0].length, cjk: false });
    }
  }
  return tokens;
}

/** A Latin word's stem, when it differs from the word (and is still a word); null otherwise. */
export function stemOf(term: string): string | null {
  if (term.length < 4 || !/^[a-z]+$/.test(term)) return null;
  const stem = stemmer(term);
  return stem !== term && stem.length >= 3 ? stem : null;
}

/**
 * The terms a message is indexed under, in order (their positions matter for CJK phrases): each word followed by
 * its stem when that differs. A stem only ever follows a Latin word, so CJK runs stay contiguous.
 */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const t of tokenize(text.slice(0, MAX_INDEXED_CHARS))) {
    terms.push(t.term);
    const stem = t.cjk ? null : stemOf(t.term);
    if (stem) terms.push(stem);
  }
  return terms;
}

/**
 * What a snippet marks: each group's `terms` are a phrase (consecutive terms; one term is just a word); `prefix`:
 * the one term also matches longer terms that start with it.
 */
export interface QueryGroup {
  terms: string[];
  prefix: boolean;
}

export interface SearchQuery {
  groups: QueryGroup[];
}

/** Whether an indexed term satisfies a query term (prefix or exact). */
export function termMatches(term: string, queryTerm: string, prefix: boolean): boolean {
  return prefix ? term.startsWith(queryTerm) : term === queryTerm;
}

// ---- SQLite FTS5 -------------------------------------------------------------------------------------------------

export const ftsString = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The body column's text: the terms separated by spaces (the table's 'ascii' tokenizer only splits them). */
export function ftsBody(text: string): string {
  return indexTerms(text).join(" ");
}

// ---- PostgreSQL tsvector / tsquery ---------------------------------------------------------------------------------
// Written as literals (tsvector_in, tsquery_in), not through to_tsvector: the terms are already cut, and the text
// parser's view of CJK characters depends on the database's locale.

/** PostgreSQL keeps positions 1..16383 and at most 256 of them per lexeme. */
const PG_MAX_POSITION = 16383;
const PG_MAX_POSITIONS_PER_LEXEME = 256;

export const pgLexeme = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/**
 * The `terms` tsvector literal: each term with its positions, and the owner lexeme '@<owner>' (no position). Takes
 * the text, or its terms when they were cut already.
 */
export function pgTermsVector(text: string | string[], owner: string): string {
  const positions = new Map<string, number[]>();
  (typeof text === "string" ? indexTerms(text) : text).forEach((term, i) => {
    const list = positions.get(term) ?? [];
    if (list.length < PG_MAX_POSITIONS_PER_LEXEME) list.push(Math.min(i + 1, PG_MAX_POSITION));
    positions.set(term, list);
  });
  const lexemes = [...positions].map(([term, at]) => `${pgLexeme(term)}:${[...new Set(at)].join(",")}`);
  lexemes.push(pgOwnerLexeme(owner));
  return lexemes.join(" ");
}

/** The owner lexeme; '@' never occurs in a term, so no query word can match it. */
export function pgOwnerLexeme(owner: string): string {
  return pgLexeme(`@${owner}`);
}
