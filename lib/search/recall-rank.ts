import { TextCache } from "@/lib/memory/text-cache";
import { type ExpansionGroups, expansionGroups } from "./expansions";
import { irregularForms } from "./irregular";
import { isStopTerm, parseQuestion, type QuestionTerm } from "./question";
import { ftsString, normalizeWord, pgLexeme, stemOf, tokenize } from "./terms";

// How recall orders the index's matches for a question (docs/decisions/026-recall.md, "Ranking"), pure: the
// database layer hands over what the engine matched, this decides the order. Deterministic: ties go to the newer
// message, then the message id.

/** A question as recall searches it: its content terms, and the index lookups they make. */
export interface QuestionShape {
  terms: QuestionTerm[];
  /** Words of the expansion groups (lib/search/expansions.ts) of a term, which stand for that term (`slot`). */
  expansions: { term: QuestionTerm; slot: number }[];
  /** Adjacent content terms of the question ("support group", 松石手), matched as neighbours in a message. */
  pairs: [QuestionTerm, QuestionTerm][];
  /**
   * One lookup per slot: a content term (its word and stem), and apart the words of its expansion groups. At most
   * MAX_SLOTS content terms: a question of more keeps its longest.
   */
  slots: Slot[];
  /**
   * Whom the question is about by its pronouns: "first" (I, my, we, 我 — the user), "second" (you, your, 你 — the
   * assistant), or null (neither, or both: a third person, or "what did you tell me").
   */
  person: "first" | "second" | null;
  /**
   * Terms (by index) the question writes as a name (capitalized, Latin): "When did Caroline go…". Whether a name
   * is one of the speakers is learnt from the candidates (`addressedSpeaker`).
   */
  names: number[];
  /**
   * Chinese forms of address the question holds (小林, 老陈, 阿明: 小, 老 or 阿 and one character), which may name a
   * speaker as a capitalised word does; most such pairs are words (小时, 老师), which are never used to address anyone.
   */
  cjkNames: string[];
}

/** One bounded lookup: a content term's forms (or its expansions'). */
export interface Slot {
  /** For FTS5's `body : ( … )`. */
  fts: string;
  /** The same forms as a tsquery (any of them). */
  pg: string;
  weight: number;
  /** The slot of a term the question writes as a name (`QuestionShape.names`). */
  name?: true;
}

const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|our|ours|ourselves)\b|我/iu;
/** "us" in lower case, or opening the question: "US" is the country. */
const US = /^Us\b|\bus\b/u;
const SECOND_PERSON = /\b(?:you|your|yours|yourself|yourselves)\b|[你您]/iu;

/** Whom a question is about by its pronouns (`QuestionShape.person`). */
export function personOf(text: string): QuestionShape["person"] {
  const first = FIRST_PERSON.test(text) || US.test(text);
  const second = SECOND_PERSON.test(text);
  return first === second ? null : first ? "first" : "second";
}

/**
 * `stemsOnly`: every indexed document holds its words' stems beside them (lib/db/search.ts `legacyStemsLeft`), so a
 * term with a stem is looked up by the stem alone, which finds exactly the messages the ranking counts as holding
 * it (`matchesOf`: the word, its stem, or a word with the same stem), with one lookup term fewer. Otherwise by
 * both, so that documents indexed before stems are found.
 */
export function shapeQuestion(
  text: string,
  { stemsOnly = false }: { stemsOnly?: boolean } = {},
): QuestionShape {
  const { terms } = parseQuestion(text);
  // Typed-search prefixes do not apply to a question sent whole: the last word is complete.
  const whole = terms.map((t) => ({ ...t, prefix: t.prefix && [...t.term].length === 1 }));
  const byTerm = new Map(whole.map((t) => [t.term, t]));
  const tokens = tokenize(text);
  const order = tokens.map((t) => byTerm.get(t.term)).filter((t): t is QuestionTerm => t !== undefined);
  const pairs: [QuestionTerm, QuestionTerm][] = [];
  for (let i = 0; i + 1 < order.length; i++) {
    const a = order[i] as QuestionTerm;
    const b = order[i + 1] as QuestionTerm;
    if (a.term !== b.term) pairs.push([a, b]);
  }
  const expansions = [...expand(whole), ...characters(whole)];
  const forms = (t: QuestionTerm) => formsOf(t, stemsOnly).fts;
  const pgForms = (t: QuestionTerm) => formsOf(t, stemsOnly).pg;
  const kept = whole
    .map((t, k) => ({ t, k }))
    .sort((a, b) => [...b.t.term].length - [...a.t.term].length || a.k - b.k)
    .slice(0, MAX_SLOTS)
    .sort((a, b) => a.k - b.k);
  // A term and its expansions are separate lookups: an expansion group's words are common together, and would
  // hide how rare the term itself is.
  const names = namesOf(text, tokens, whole);
  const slots = kept.flatMap(({ t, k }): Slot[] => {
    const own = forms(t);
    const mine = expansions.filter((e) => e.slot === k).map((e) => e.term);
    const others = [...new Set(mine.flatMap(forms))].filter((f) => !own.includes(f));
    const ownPg = pgForms(t);
    const othersPg = [...new Set(mine.flatMap(pgForms))].filter((f) => !ownPg.includes(f));
    return [
      {
        fts: own.join(" OR "),
        pg: ownPg.join(" | "),
        weight: 1,
        ...(names.includes(k) ? { name: true as const } : {}),
      },
      ...(others.length
        ? [{ fts: others.join(" OR "), pg: othersPg.join(" | "), weight: EXPANSION_WEIGHT }]
        : []),
    ];
  });
  const cjkNames = [...new Set(text.match(CJK_ADDRESS) ?? [])];
  return { terms: whole, expansions, pairs, slots, person: personOf(text), names, cjkNames };
}

const CJK_ADDRESS = /[小老阿][\p{scx=Han}]/gu;

/** The question's terms (by index) written with a capital letter, "I" aside (`QuestionShape.names`). */
function namesOf(text: string, tokens: ReturnType<typeof tokenize>, terms: QuestionTerm[]): number[] {
  const names = new Set<number>();
  for (const t of tokens) {
    if (t.cjk || !/^\p{Lu}/u.test(text.slice(t.start, t.end))) continue;
    const k = terms.findIndex((x) => x.term === t.term);
    if (k >= 0) names.add(k);
  }
  return [...names];
}

/**
 * A term's forms in each engine's query syntax (its word, a prefix where it is one, its stem; the stem alone with
 * `stemsOnly`, unless the word is a prefix), remembered.
 */
const formsCache = new Map<string, { fts: string[]; pg: string[] }>();
function formsOf(t: QuestionTerm, stemsOnly: boolean): { fts: string[]; pg: string[] } {
  const stemAlone = stemsOnly && t.stem !== null && !t.prefix;
  const key = `${stemAlone ? "=" : ""}${t.prefix ? "*" : ""}${t.term} ${t.stem ?? ""}`;
  let forms = formsCache.get(key);
  if (!forms) {
    const stem = t.stem ? [t.stem] : [];
    const other = verbForms(t);
    forms = {
      fts: [
        ...(stemAlone ? [] : [`${ftsString(t.term)}${t.prefix ? "*" : ""}`]),
        ...stem.map(ftsString),
        ...other.map(ftsString),
      ],
      pg: [
        ...(stemAlone ? [] : [`${pgLexeme(t.term)}${t.prefix ? ":*" : ""}`]),
        ...stem.map(pgLexeme),
        ...other.map(pgLexeme),
      ],
    };
    if (formsCache.size >= 4096) formsCache.clear();
    formsCache.set(key, forms);
  }
  return forms;
}

/**
 * A verb's forms the stemmer cannot relate to the term (lib/search/irregular.ts: "went" for "go"), which count as
 * the term itself: in its lookup and in the ranking.
 */
function verbForms(t: QuestionTerm): readonly string[] {
  if (/[^a-z]/.test(t.term)) return [];
  const own = irregularForms(t.term);
  const fromStem = t.stem ? irregularForms(t.stem) : [];
  if (own.length === 0 && fromStem.length === 0) return own;
  // A regular form ("drinking" for "drink") is found by the stem already.
  const stem = t.stem ?? t.term;
  return [...new Set([...own, ...fromStem])].filter((f) => f !== t.term && (stemOf(f) ?? f) !== stem);
}

/** At most this many of a question's content terms are searched (each is one bounded index lookup). */
const MAX_SLOTS = 12;
/** At most this many expansion words are searched per question, so a question stays a bounded query. */
const MAX_EXPANSIONS = 32;
let groups: ExpansionGroups | undefined;

/** The other words of the groups each content term belongs to, each standing for that term. */
function expand(terms: QuestionTerm[]): { term: QuestionTerm; slot: number }[] {
  groups ??= expansionGroups((w) => stemOf(normalizeWord(w)) ?? normalizeWord(w));
  const own = new Set(terms.flatMap((t) => [t.term, ...(t.stem ? [t.stem] : [])]));
  const out: { term: QuestionTerm; slot: number }[] = [];
  const seen = new Set<string>();
  terms.forEach((t, slot) => {
    const cjk = /[\p{scx=Han}]/u.test(t.term);
    const ids = cjk ? groups?.cjk.get(t.term) : groups?.latin.get(t.stem ?? t.term);
    for (const g of ids ?? []) {
      for (const f of groupForms(g)) {
        if (own.has(f.term) || seen.has(f.term)) continue;
        seen.add(f.term);
        out.push({ term: { term: f.term, stem: f.stem, prefix: false }, slot });
      }
    }
  });
  return out.slice(0, MAX_EXPANSIONS);
}

/**
 * The terms an expansion group's words search (a Chinese word by its bigrams), stop terms left out, each with its
 * stem: worked out once per group, not at every question (normalizing and stemming them was most of a question's
 * shaping).
 */
const formsByGroup = new Map<number, readonly { term: string; stem: string | null }[]>();
function groupForms(g: number): readonly { term: string; stem: string | null }[] {
  let forms = formsByGroup.get(g);
  if (forms) return forms;
  const seen = new Set<string>();
  forms = (groups?.groups[g] ?? [])
    .flatMap((word) =>
      /[\p{scx=Han}]/u.test(word)
        ? tokenize(word)
            .filter((x) => [...x.term].length === 2)
            .map((x) => x.term)
        : [normalizeWord(word)],
    )
    .filter((f) => f && !isStopTerm(f) && !seen.has(f) && seen.add(f))
    .map((f) => ({ term: f, stem: /[\p{scx=Han}]/u.test(f) ? null : stemOf(f) }));
  formsByGroup.set(g, forms);
  return forms;
}

/** At most this many single characters of a question's CJK terms are searched on their own. */
const MAX_CHARACTERS = 8;
const HAN = /^[\p{scx=Han}]{2}$/u;

/**
 * The characters of the question's CJK bigrams, each standing for the bigram it came from (searched as a prefix,
 * so it matches wherever it stands in a message). A question's bigram is often the seam between two words
 * (喝哪种茶 → 种茶), and a word of one character (茶, 车) is only found by itself: single characters beside
 * bigrams is the usual way to search Chinese without a word segmenter. Stop characters are left out.
 */
function characters(terms: QuestionTerm[]): { term: QuestionTerm; slot: number }[] {
  const own = new Set(terms.map((t) => t.term));
  const seen = new Set<string>();
  const out: { term: QuestionTerm; slot: number }[] = [];
  terms.forEach((t, slot) => {
    if (!HAN.test(t.term)) return;
    for (const c of t.term) {
      if (own.has(c) || seen.has(c) || isStopTerm(c)) continue;
      seen.add(c);
      out.push({ term: { term: c, stem: null, prefix: true }, slot });
    }
  });
  return out.slice(0, MAX_CHARACTERS);
}

/** How many index documents the slots' lookups keep for ranking (lib/db/recall.ts reads their messages). */
const POOL = 200;
/** A name in this many documents at least, and in this share of the scope, is common (`poolOf`). */
const COMMON_NAME_DOCS = 8;
const COMMON_NAME_SHARE = 0.02;

/**
 * The POOL best documents of the slots' matches. A slot's weight is its rarity (`df` of `n` documents); a document
 * scores the weights of the slots it holds.
 */
export function poolOf(
  slots: readonly Slot[],
  bySlot: { ids: Set<number>; df: number }[],
  n: number,
): Map<number, number> {
  const scores = new Map<number, number>();
  // A common name adds to what a document holds besides, never brings one in alone (unless the question has
  // nothing else): a speaker's name is mostly in the other speaker's greetings ("Hey Caroline!"), which would crowd
  // the pool (the ranking then learns whose name it is, `addressedSpeaker`). A rare capitalised word — a place, a
  // brand — is content like any other.
  const common = (k: number) =>
    Boolean(slots[k]?.name) && (bySlot[k]?.df ?? 0) >= Math.max(COMMON_NAME_DOCS, COMMON_NAME_SHARE * n);
  const apart = slots.some((_, k) => !common(k));
  for (const pass of [false, true])
    for (const [k, { ids, df }] of bySlot.entries()) {
      if ((common(k) && apart) !== pass) continue;
      const weight = (slots[k]?.weight ?? 1) * Math.log(1 + (n + 1) / (df + 0.5));
      for (const id of ids) {
        const held = scores.get(id);
        if (!pass || held !== undefined) scores.set(id, (held ?? 0) + weight);
      }
    }
  // Half the pool breaks ties towards the newest, half towards the oldest: a fact stated early and restated later
  // ties with its restatement and with every distractor in the same words.
  const all = [...scores];
  const newest = [...all].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, POOL / 2);
  const oldest = all.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, POOL / 2);
  return new Map([...newest, ...oldest]);
}

/** One match of the index, as the database layer read it. */
export interface LexicalCandidate {
  messageId: string;
  sessionId: string;
  seq: number;
  role: string;
  createdAt: Date;
  text: string;
  /** The engine's own score (bm25 negated / ts_rank_cd): higher is better. */
  engine: number;
}

export type Ranked<C extends LexicalCandidate> = C & { score: number };

/** Weight of a question term held only by the partner (the other speaker's half of the exchange). */
const PARTNER_WEIGHT = 0.5;
const ALL_TERMS_BONUS = 0.5;
/** A term covered by a word of its expansion group instead of itself. */
const EXPANSION_WEIGHT = 0.6;
const PHRASE_WEIGHT = 0.4;
const ENGINE_WEIGHT = 0.15;
/** The recency prior: the newest candidate gains this much over the oldest. */
const RECENCY_WEIGHT = 0.05;
/**
 * What the speaker the question is about said weighs more (`QuestionShape.person`): "where did I work" is answered
 * by the user's own messages, "what did you suggest" by the assistant's; a question about a third person by either.
 */
const SPEAKER_WEIGHT = 0.3;
/**
 * Length normalisation of the terms a message holds, as BM25's for a term held once (k1 = 1.2, b = 0.75, its usual
 * values): a long message holds more of any question's words, so its share is multiplied by
 * (k1 + 1) ÷ (1 + k1 × (1 − b + b × its length ÷ the candidates' mean length)) — 1 at the mean length, about 1.5
 * for a message a seventh of it, 0.55 for one three times as long.
 */
const LENGTH_B = 0.75;
const LENGTH_K1 = 1.2;

const NONE: readonly number[] = [];
const union = (a: readonly number[], b: readonly number[]): readonly number[] =>
  b.length === 0 ? a : a.length === 0 ? b : [...new Set([...a, ...b])];

/**
 * Which of the question's terms a text holds (by index) and which of its adjacent pairs appear adjacent (a phrase).
 * What a word matches is worked out once per question and word (`matchesOf`), not at each of its occurrences.
 */
function profile(text: string, question: QuestionShape) {
  const held = new Set<number>();
  const adjacent = new Set<number>();
  const l = lookup(question);
  let previous: readonly number[] = NONE;
  const tokens = tokensOf(text);
  for (const t of tokens) {
    const now = matchesOf(l, t);
    for (const k of now) held.add(k);
    if (l.pairIndex.size > 0)
      for (const a of previous)
        for (const b of now) {
          const pair = l.pairIndex.get(`${a} ${b}`);
          if (pair !== undefined) adjacent.add(pair);
        }
    previous = now;
  }
  return { held, adjacent, length: tokens.length };
}

/**
 * The question terms (by index) a word of a text matches: itself, its stem, or for a CJK term a one-character
 * question term it starts. Only words that could be a question term are stemmed: stemming every word was most of
 * the cost. Most words are no question term: they share one empty list.
 */
function matchesOf(l: Lookup, t: { term: string; cjk: boolean }): readonly number[] {
  const memo = t.cjk ? l.cjkMatches : l.latinMatches;
  let now = memo.get(t.term);
  if (now !== undefined) return now;
  now = l.exact.get(t.term) ?? NONE;
  if (!t.cjk && t.term.length >= 4 && l.prefixes.has(t.term.slice(0, 3))) {
    const stem = cachedStem(t.term);
    const more = stem ? l.stems.get(stem) : undefined;
    if (more) now = union(now, more);
  }
  if (t.cjk) {
    // A one-character question term matches the bigrams it starts, as in the index.
    const starts = (l.exact.get([...t.term][0] ?? "") ?? NONE).filter((k) => l.all[k]?.prefix);
    now = union(now, starts);
  }
  memo.set(t.term, now);
  return now;
}

/**
 * How many texts' terms are remembered: the same messages are candidates turn after turn. A term takes ~10 times the
 * memory of its characters, so the texts are bounded in characters too (~20 MB of terms at most).
 */
const TOKEN_CACHE_SIZE = 4000;
const TOKEN_CACHE_CHARS = 2_000_000;
const tokenCache = new TextCache<ReturnType<typeof tokenize>>(TOKEN_CACHE_SIZE, TOKEN_CACHE_CHARS);
/** `tokenize`, remembering its last results. */
function tokensOf(text: string) {
  return tokenCache.getOrSet(text, tokenize);
}

const stemCache = new Map<string, string | null>();
/** `stemOf` remembered for the words texts hold (a bounded vocabulary; emptied when it grows past the bound). */
function cachedStem(word: string): string | null {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = stemOf(word);
    if (stemCache.size >= TOKEN_CACHE_SIZE * 4) stemCache.clear();
    stemCache.set(word, stem);
  }
  return stem;
}

const lookups = new WeakMap<QuestionShape, ReturnType<typeof buildLookup>>();
const lookup = (q: QuestionShape) => {
  let l = lookups.get(q);
  if (!l) {
    l = buildLookup(q);
    lookups.set(q, l);
  }
  return l;
};

/** The question's terms by their forms: exact words, stems (a word of the text whose stem is one), pairs. */
function buildLookup(question: QuestionShape) {
  const exact = new Map<string, number[]>();
  const stems = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, key: string, k: number) => m.set(key, [...(m.get(key) ?? []), k]);
  const all = [...question.terms, ...question.expansions.map((e) => e.term)];
  all.forEach((t, k) => {
    add(exact, t.term, k);
    if (k < question.terms.length) for (const f of verbForms(t)) add(exact, f, k);
    if (t.stem) {
      add(exact, t.stem, k);
      add(stems, t.stem, k);
    }
    const own = stemOf(t.term);
    add(stems, own ?? t.term, k);
  });
  const prefixes = new Set([...stems.keys()].map((x) => x.slice(0, 3)));
  const index = new Map(question.terms.map((t, k) => [t.term, k]));
  const pairIndex = new Map<string, number>();
  question.pairs.forEach(([a, b], i) => {
    pairIndex.set(`${index.get(a.term)} ${index.get(b.term)}`, i);
  });
  const latinMatches = new Map<string, readonly number[]>();
  const cjkMatches = new Map<string, readonly number[]>();
  return { exact, stems, prefixes, pairIndex, all, latinMatches, cjkMatches };
}
type Lookup = ReturnType<typeof buildLookup>;

/** Profiles of the last question's candidates: both passes of one recall read the same texts. */
const profileCache: { question?: QuestionShape; byId: Map<string, ReturnType<typeof profile>> } = {
  byId: new Map(),
};
function cachedProfile(id: string, text: string, question: QuestionShape) {
  if (profileCache.question !== question) {
    profileCache.question = question;
    profileCache.byId = new Map();
  }
  let p = profileCache.byId.get(id);
  if (!p) {
    p = profile(text, question);
    profileCache.byId.set(id, p);
  }
  return p;
}

/** Words that may open a sentence before a name addressed: "Hey Caroline!", "Thanks, Sam". */
const GREETING =
  "(?:hey|hi|hello|thanks|thank you|dear|oh|wow|congrats|congratulations|yes|yeah|ok|okay|aww|well|" +
  "good morning|good evening|good night|morning|evening|bye|see you)";
const patterns = new Map<string, RegExp>();
/** A name's pattern of one kind, compiled once (a bounded cache: a question's names are few). */
function pattern(
  kind: "address" | "cjk-address" | "label",
  name: string,
  make: (n: string) => string,
): RegExp {
  const key = `${kind} ${name}`;
  let re = patterns.get(key);
  if (!re) {
    re = new RegExp(make(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), "iu");
    if (patterns.size >= 256) patterns.clear();
    patterns.set(key, re);
  }
  return re;
}
/** A name used to address someone: the whole first clause of a sentence (after a greeting) or last after a comma. */
const vocative = (name: string) =>
  pattern(
    "address",
    name,
    (n) => `(?:^|[.!?]\\s+)(?:${GREETING}[,!]?\\s+)?${n}\\s*[,!?.;]|,\\s*${n}\\s*(?:[!?.]|$)`,
  );
/** A Chinese name used to address someone: the whole first clause of a sentence (after a greeting), or the last. */
const cjkVocative = (name: string) =>
  pattern(
    "cjk-address",
    name,
    (n) =>
      `(?:^|[。！？!?]\\s*)(?:嗨|嘿|你好|谢谢|哈喽|喂)?[，,\\s]*${n}[，,！!]|[，,]\\s*${n}[！!。？?]*\\s*$`,
  );
/** A name that opens a message as its speaker's label ("Caroline: I went…"), as an import may write them. */
const label = (name: string) => pattern("label", name, (n) => `^\\s*${n}\\s*[:：]`);
/** A name needs this many addresses among the candidates, four in five of them by one speaker. */
const MIN_ADDRESSES = 2;
const ADDRESS_SHARE = 0.8;

/**
 * The speaker the question's names point at, and the names so resolved. A name one speaker's messages use to
 * address the other ("Hey Caroline!", "Thanks, Sam.") is the other speaker's: people seldom name themselves, so
 * the evidence for "when did Caroline go…" is Caroline's own messages, which do not hold her name — it is no
 * content to match there, and her messages are the ones to prefer, as "I" prefers the user's. A name that opens
 * a speaker's messages as a label ("Caroline: …", as an import may write two people's conversation) is that
 * speaker's. Two names of different speakers ("what did Caroline tell Melanie") prefer neither.
 */
function addressedSpeaker(
  question: QuestionShape,
  candidates: readonly LexicalCandidate[],
  profiles: readonly { held: Set<number> }[],
): { speaker: "user" | "assistant" | null; names: Set<number> } {
  const names = new Set<number>();
  const speakers = new Set<"user" | "assistant">();
  /**
   * The speaker a name belongs to (null: too few signs, or signs for both): each address by one speaker counts for
   * the other, each message the name opens as a label ("Caroline: …") for its own speaker.
   */
  const addressee = (holds: (i: number) => boolean, address: RegExp, labelled: RegExp) => {
    let user = 0;
    let assistant = 0;
    candidates.forEach((c, i) => {
      if ((c.role !== "user" && c.role !== "assistant") || !holds(i)) return;
      const own = labelled.test(c.text);
      if (!own && !address.test(c.text)) return;
      if ((c.role === "user") === own) user++;
      else assistant++;
    });
    const signs = user + assistant;
    if (signs < MIN_ADDRESSES) return null;
    if (user >= ADDRESS_SHARE * signs) return "user";
    if (assistant >= ADDRESS_SHARE * signs) return "assistant";
    return null;
  };
  for (const k of question.names) {
    const name = (question.terms[k] as QuestionTerm).term;
    const speaker = addressee((i) => profiles[i]?.held.has(k) ?? false, vocative(name), label(name));
    if (!speaker) continue;
    speakers.add(speaker);
    names.add(k);
  }
  for (const name of question.cjkNames) {
    const speaker = addressee(
      (i) => candidates[i]?.text.includes(name) ?? false,
      cjkVocative(name),
      label(name),
    );
    if (!speaker) continue;
    speakers.add(speaker);
    const k = question.terms.findIndex((t) => t.term === name);
    if (k >= 0) names.add(k);
  }
  return { speaker: speakers.size === 1 ? ([...speakers][0] as "user" | "assistant") : null, names };
}

/**
 * The candidates best first. Each question term weighs by how rare it is among the candidates (a word every match
 * holds tells them apart the least); a message scores the weighted share of terms it holds (terms only its partner
 * holds count half), more when it holds all of them, more for each of the question's adjacent pairs it holds
 * adjacent (a phrase), then the engine's score and a small recency prior.
 */
export function rankCandidates<C extends LexicalCandidate>(
  question: QuestionShape,
  candidates: C[],
  partnerTexts: Map<string, string>,
): Ranked<C>[] {
  if (candidates.length === 0) return [];
  // Each content term is a slot; a message covers it by the term itself or, for less, by one of its expansions.
  const n = question.terms.length;
  const slotTerms = question.terms.map((_, k) => [
    k,
    ...question.expansions.flatMap((e, i) => (e.slot === k ? [n + i] : [])),
  ]);
  const coverage = (held: Set<number>, k: number) =>
    held.has(k) ? 1 : (slotTerms[k] as number[]).some((x) => held.has(x)) ? EXPANSION_WEIGHT : 0;
  /** Each slot's coverage by a text, worked out once per candidate (weights and scores both read it). */
  const covered = (held: Set<number>) => question.terms.map((_, k) => coverage(held, k));
  const profiles = candidates.map((c) => cachedProfile(c.messageId, c.text, question));
  const own = profiles.map((p) => covered(p.held));
  const partners = candidates.map((c) => {
    const t = partnerTexts.get(c.messageId);
    return t === undefined ? null : covered(profile(t, question).held);
  });
  const addressed =
    question.names.length || question.cjkNames.length
      ? addressedSpeaker(question, candidates, profiles)
      : { speaker: null, names: new Set<number>() };
  const weights = question.terms.map((_, k) => {
    if (addressed.names.has(k)) return 0;
    const df = own.filter((cover) => (cover[k] as number) > 0).length;
    return Math.log(1 + (candidates.length + 1) / (df + 0.5));
  });
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const bestEngine = Math.max(...candidates.map((c) => c.engine), Number.MIN_VALUE);
  const times = candidates.map((c) => c.createdAt.getTime());
  const oldest = Math.min(...times);
  const meanLength = profiles.reduce((a, p) => a + p.length, 0) / profiles.length || 1;
  const speaker =
    question.person === "first" ? "user" : question.person === "second" ? "assistant" : addressed.speaker;
  const span = Math.max(...times) - oldest || 1;
  return candidates
    .map((c, i) => {
      const p = profiles[i] as ReturnType<typeof profile>;
      const mine = own[i] as number[];
      const partner = partners[i];
      let held = 0;
      let all = true;
      for (let k = 0; k < n; k++) {
        const cover = mine[k] as number;
        if (cover < 1 && !addressed.names.has(k)) all = false;
        held +=
          (weights[k] as number) * Math.max(cover, partner ? (partner[k] as number) * PARTNER_WEIGHT : 0);
      }
      const phrases = p.adjacent.size;
      const score =
        ((held / total) * (LENGTH_K1 + 1)) /
          (1 + LENGTH_K1 * (1 - LENGTH_B + (LENGTH_B * p.length) / meanLength)) +
        (all ? ALL_TERMS_BONUS : 0) +
        (question.pairs.length ? (PHRASE_WEIGHT * phrases) / question.pairs.length : 0) +
        (ENGINE_WEIGHT * Math.max(0, c.engine)) / bestEngine +
        (RECENCY_WEIGHT * ((times[i] as number) - oldest)) / span +
        (c.role === speaker ? SPEAKER_WEIGHT : 0);
      return { ...c, score };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.createdAt.getTime() - a.createdAt.getTime() ||
        (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0),
    );
}

/** The constant of reciprocal rank fusion: a rank r adds 1 / (RRF_K + r). 60 is the usual choice. */
const RRF_K = 60;

/**
 * One order from the lexical ranking and the embedding ranking (nearest first), for recalled messages and file
 * passages alike: each candidate scores 1 / (RRF_K + rank) in each list it is in. Ties keep the lexical order.
 */
export function fuse<C extends LexicalCandidate & { score: number }>(
  lexicalOrder: C[],
  nearest: readonly { messageId: string }[],
): C[] {
  const vectorRank = new Map(nearest.map((c, i) => [c.messageId, i + 1]));
  return lexicalOrder
    .map((c, i) => {
      const v = vectorRank.get(c.messageId);
      return { c, i, score: 1 / (RRF_K + i + 1) + (v === undefined ? 0 : 1 / (RRF_K + v)) };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ c, score }) => ({ ...c, score }));
}
