// The one tokenizer of search (docs/decisions/017-search.md), pure: the index, the query and the snippet all cut
// text here, so they always agree. SQL cannot segment Chinese or Japanese, so the app hands the databases ready
// terms: a Latin (or any spaced-script) word is one term, normalized; a run of CJK characters becomes its
// overlapping bigrams plus its last character alone, so every character starts a term (a one-character query is a
// prefix query) and any two-character word inside running text (松石 in 绿松石手链) is a term of its own.
// A word is also indexed under its Porter stem (named → name), so a question finds other forms of its words.

import { stemmer } from "stemmer";
import { zho as CHINESE_STOP_CHARACTERS, eng as ENGLISH_STOP_WORDS } from "stopword";

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
export const MAX_INDEXED_CHARS = 50_000;

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

// ---- questions: any-term queries ---------------------------------------------------------------------------------

/** Question words and fillers a typed question carries besides the English stop list. */
const EXTRA_ENGLISH_STOP = [
  "again",
  "remind",
  "tell",
  "know",
  "currently",
  "these",
  "days",
  "ever",
  "anything",
  "something",
  "please",
  "does",
  "doing",
  "done",
  "whats",
  "when",
  "whom",
  "whose",
  "why",
  "i",
  "im",
  "ive",
  "id",
  "me",
  "mine",
  "us",
  "s",
  "t",
  "d",
  "ll",
  "m",
  "re",
  "ve",
];
const EXTRA_CHINESE_STOP = [
  "什么",
  "哪里",
  "哪儿",
  "哪个",
  "哪些",
  "哪天",
  "怎么",
  "怎样",
  "为什",
  "么时",
  "时候",
  "我的",
  "我们",
  "你的",
  "现在",
  "目前",
  "来着",
  "还记",
  "记得",
  "告诉",
  "一下",
  "是不",
  "不是",
  "有没",
  "没有",
  "可以",
  "能不",
  "的是",
  "是什",
  "一个",
  "这个",
  "那个",
  "吗？",
  "了吗",
];
const STOP = new Set<string>([...ENGLISH_STOP_WORDS, ...EXTRA_ENGLISH_STOP, ...EXTRA_CHINESE_STOP]);
const STOP_CHARACTERS = new Set<string>(CHINESE_STOP_CHARACTERS);

/**
 * Whether a term carries no content: a stop word, or a CJK bigram with a stop character in it (bigrams cut across
 * words, and one that holds 的, 是 or 我 is mostly the seam between two words).
 */
export function isStopTerm(term: string): boolean {
  if (STOP.has(term)) return true;
  if (!/[\p{scx=Han}]/u.test(term)) return false;
  return [...term].some((c) => STOP_CHARACTERS.has(c));
}

/**
 * One content term of a question: a word (with its stem, which the index also holds) or a CJK bigram. `prefix`: the
 * last word while it is still being typed (no space after it), which also matches longer words.
 */
export interface QuestionTerm {
  term: string;
  stem: string | null;
  prefix: boolean;
}

export interface QuestionQuery {
  /** Distinct content terms, in order of first appearance; a document matching any of them is a candidate. */
  terms: QuestionTerm[];
}

/** At most this many terms of a question are searched for, so a long paste stays a bounded query. */
export const MAX_QUESTION_TERMS = 24;

/**
 * What a natural-language question (or a search typed word by word) searches for: its content terms, any of which
 * may match — stop words of English and Chinese left out, words also by their stem, CJK runs by their bigrams. A
 * one-character CJK run is a prefix (it matches the bigrams it starts); so is the last word while it is typed, so
 * results follow typing ("conv" finds "conversation"). A question of stop words only keeps them, so it searches.
 */
export function parseQuestion(q: string): QuestionQuery {
  const tokens = tokenize(q);
  const seen = new Set<string>();
  const content: QuestionTerm[] = [];
  const stops: QuestionTerm[] = [];
  tokens.forEach((token, i) => {
    const previous = tokens[i - 1];
    const alone = token.cjk && [...token.term].length === 1;
    // A run's last character follows its last bigram in the index: inside a longer run it adds nothing.
    const runEnd = alone && previous?.cjk === true && previous.end === token.end;
    if (runEnd || seen.has(token.term)) return;
    seen.add(token.term);
    const typing = !token.cjk && i === tokens.length - 1 && token.term.length >= 2 && !/\s$/u.test(q);
    const term = { term: token.term, stem: token.cjk ? null : stemOf(token.term), prefix: alone || typing };
    (isStopTerm(token.term) ? stops : content).push(term);
  });
  return { terms: (content.length > 0 ? content : stops).slice(0, MAX_QUESTION_TERMS) };
}

/** The question's content terms as typed-search groups, for marking them in a snippet (stems match there too). */
export function questionMarks(q: string): SearchQuery {
  return { groups: parseQuestion(q).terms.map((t) => ({ terms: [t.term], prefix: t.prefix })) };
}

/** Whether a message whose index terms are `held` has the question term (the word, its stem, or a longer word). */
export function questionTermMatches(held: ReadonlySet<string>, t: QuestionTerm): boolean {
  if (held.has(t.term) || (t.stem !== null && held.has(t.stem))) return true;
  if (!t.prefix) return false;
  for (const term of held) if (term.startsWith(t.term)) return true;
  return false;
}

/** Whether an indexed term satisfies a query term (prefix or exact). */
export function termMatches(term: string, queryTerm: string, prefix: boolean): boolean {
  return prefix ? term.startsWith(queryTerm) : term === queryTerm;
}

// ---- SQLite FTS5 -------------------------------------------------------------------------------------------------

const ftsString = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The body column's text: the terms separated by spaces (the table's 'ascii' tokenizer only splits them). */
export function ftsBody(text: string): string {
  return indexTerms(text).join(" ");
}

/** The FTS5 MATCH of a question: the owner's token and any of its terms (a word or its stem). */
export function ftsQuestionMatch(query: QuestionQuery, owner: string): string | null {
  if (query.terms.length === 0) return null;
  const alternatives = query.terms.flatMap((t) => [
    `${ftsString(t.term)}${t.prefix ? "*" : ""}`,
    ...(t.stem ? [ftsString(t.stem)] : []),
  ]);
  return `owner : ${ftsString(owner)} AND body : (${[...new Set(alternatives)].join(" OR ")})`;
}

// ---- PostgreSQL tsvector / tsquery ---------------------------------------------------------------------------------
// Written as literals (tsvector_in, tsquery_in), not through to_tsvector: the terms are already cut, and the text
// parser's view of CJK characters depends on the database's locale.

/** PostgreSQL keeps positions 1..16383 and at most 256 of them per lexeme. */
const PG_MAX_POSITION = 16383;
const PG_MAX_POSITIONS_PER_LEXEME = 256;

const pgLexeme = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

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

/** The tsquery literal of a question: any of its terms (a word or its stem); null when it has none. */
export function pgQuestionQuery(query: QuestionQuery): string | null {
  if (query.terms.length === 0) return null;
  const alternatives = query.terms.flatMap((t) => [
    `${pgLexeme(t.term)}${t.prefix ? ":*" : ""}`,
    ...(t.stem ? [pgLexeme(t.stem)] : []),
  ]);
  return [...new Set(alternatives)].join(" | ");
}
