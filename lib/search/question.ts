import { zho as CHINESE_STOP_CHARACTERS, eng as ENGLISH_STOP_WORDS } from "stopword";
import { ftsString, pgLexeme, type SearchQuery, stemOf, tokenize } from "./terms";

// A question as a search: its content terms, any of which may match (docs/decisions/017-search.md). Kept apart
// from terms.ts, which the browser loads for snippets, so the stop lists stay on the server.

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

/** The FTS5 MATCH of a question: the owner's token and any of its terms (a word or its stem). */
export function ftsQuestionMatch(query: QuestionQuery, owner: string): string | null {
  if (query.terms.length === 0) return null;
  const alternatives = query.terms.flatMap((t) => [
    `${ftsString(t.term)}${t.prefix ? "*" : ""}`,
    ...(t.stem ? [ftsString(t.stem)] : []),
  ]);
  return `owner : ${ftsString(owner)} AND body : (${[...new Set(alternatives)].join(" OR ")})`;
}

function pgTermForms(t: QuestionTerm): string[] {
  return [`${pgLexeme(t.term)}${t.prefix ? ":*" : ""}`, ...(t.stem ? [pgLexeme(t.stem)] : [])];
}

/** The tsquery literal of a question: any of its terms (a word or its stem); null when it has none. */
export function pgQuestionQuery(query: QuestionQuery): string | null {
  if (query.terms.length === 0) return null;
  return [...new Set(query.terms.flatMap(pgTermForms))].join(" | ");
}

/** The tsquery literal of one question term: any of its forms, as `questionTermMatches` holds it. */
export function pgQuestionTermQuery(t: QuestionTerm): string {
  return pgTermForms(t).join(" | ");
}

/**
 * The same without the prefix of a word still being typed: the word as typed and its stem. A one-character CJK term
 * stays a prefix: it stands for the bigrams it starts.
 */
export function pgQuestionTermExactQuery(t: QuestionTerm): string {
  return pgQuestionTermQuery(t.prefix && [...t.term].length > 1 ? { ...t, prefix: false } : t);
}
