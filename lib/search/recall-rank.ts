import { parseQuestion, type QuestionTerm, questionTermMatches } from "./question";
import { ftsString, pgLexeme, stemOf, tokenize } from "./terms";

// How recall orders the index's matches for a question (docs/decisions/026-recall.md, "Ranking"), pure: the
// database layer hands over what the engine matched, this decides the order. Deterministic: ties go to the newer
// message, then the message id.

/** A question as recall searches it: its content terms, and those as an FTS5 body match and a tsquery. */
export interface QuestionShape {
  terms: QuestionTerm[];
  /** Adjacent content terms of the question ("support group", 松石手), matched as neighbours in a message. */
  pairs: [QuestionTerm, QuestionTerm][];
  /** FTS5: any of the terms (a word or its stem), inside `body : ( … )`. */
  fts: string;
  /** tsquery: any of the terms. */
  pg: string;
}

export function shapeQuestion(text: string): QuestionShape {
  const { terms } = parseQuestion(text);
  // Typed-search prefixes do not apply to a question sent whole: the last word is complete.
  const whole = terms.map((t) => ({ ...t, prefix: t.prefix && [...t.term].length === 1 }));
  const byTerm = new Map(whole.map((t) => [t.term, t]));
  const order = tokenize(text)
    .map((t) => byTerm.get(t.term))
    .filter((t): t is QuestionTerm => t !== undefined);
  const pairs: [QuestionTerm, QuestionTerm][] = [];
  for (let i = 0; i + 1 < order.length; i++) {
    const a = order[i] as QuestionTerm;
    const b = order[i + 1] as QuestionTerm;
    if (a.term !== b.term) pairs.push([a, b]);
  }
  const fts = [
    ...new Set(
      whole.flatMap((t) => [
        `${ftsString(t.term)}${t.prefix ? "*" : ""}`,
        ...(t.stem ? [ftsString(t.stem)] : []),
      ]),
    ),
  ].join(" OR ");
  const pg = [
    ...new Set(
      whole.flatMap((t) => [
        `${pgLexeme(t.term)}${t.prefix ? ":*" : ""}`,
        ...(t.stem ? [pgLexeme(t.stem)] : []),
      ]),
    ),
  ].join(" | ");
  return { terms: whole, pairs, fts, pg };
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
const PHRASE_WEIGHT = 0.4;
const ENGINE_WEIGHT = 0.15;
/** The recency prior: the newest candidate gains this much over the oldest. */
const RECENCY_WEIGHT = 0.05;

/** Terms and word stems of a text, as sets, and its adjacent term pairs (for phrases). */
function profile(text: string) {
  const held = new Set<string>();
  const adjacent = new Set<string>();
  let previous: string[] = [];
  for (const t of tokenize(text)) {
    const stem = t.cjk ? null : stemOf(t.term);
    const forms = stem ? [t.term, stem] : [t.term];
    for (const f of forms) held.add(f);
    for (const p of previous) for (const f of forms) adjacent.add(`${p} ${f}`);
    previous = forms;
  }
  return { held, adjacent };
}

const termForms = (t: QuestionTerm) => [t.term, ...(t.stem ? [t.stem] : [])];

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
  const profiles = candidates.map((c) => profile(c.text));
  const partners = candidates.map((c) => {
    const t = partnerTexts.get(c.messageId);
    return t === undefined ? null : profile(t);
  });
  const holds = (held: Set<string>, t: QuestionTerm) => questionTermMatches(held, t);
  const weights = question.terms.map((t) => {
    const df = profiles.filter((p) => holds(p.held, t)).length;
    return Math.log(1 + (candidates.length + 1) / (df + 0.5));
  });
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const bestEngine = Math.max(...candidates.map((c) => c.engine), Number.MIN_VALUE);
  const times = candidates.map((c) => c.createdAt.getTime());
  const oldest = Math.min(...times);
  const span = Math.max(...times) - oldest || 1;
  return candidates
    .map((c, i) => {
      const p = profiles[i] as ReturnType<typeof profile>;
      const partner = partners[i];
      let covered = 0;
      let all = true;
      question.terms.forEach((t, k) => {
        const w = weights[k] as number;
        if (holds(p.held, t)) covered += w;
        else {
          all = false;
          if (partner && holds(partner.held, t)) covered += w * PARTNER_WEIGHT;
        }
      });
      const phrases = question.pairs.filter(([a, b]) =>
        termForms(a).some((x) => termForms(b).some((y) => p.adjacent.has(`${x} ${y}`))),
      ).length;
      const score =
        covered / total +
        (all ? ALL_TERMS_BONUS : 0) +
        (question.pairs.length ? (PHRASE_WEIGHT * phrases) / question.pairs.length : 0) +
        (ENGINE_WEIGHT * Math.max(0, c.engine)) / bestEngine +
        (RECENCY_WEIGHT * ((times[i] as number) - oldest)) / span;
      return { ...c, score };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.createdAt.getTime() - a.createdAt.getTime() ||
        (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0),
    );
}
