import { isStopTerm } from "./question";
import { stemOf, tokenize } from "./terms";

// The offline model's embeddings: deterministic, no model weights. A text becomes its content terms — Latin words
// by their stem, CJK runs by their bigrams, stop words left out — each hashed (FNV-1a) into one of `dims` slots with
// a sign from another bit of the hash (so collisions cancel out on average rather than add up), weighed by
// 1 + ln(count), and the vector normalized to length 1. Texts sharing content words point the same way; the cosine
// of two is the overlap of their weighted term bags. It stands in for a real embeddings model so that path is
// exercised end to end, not to rank better than the lexical index.

const HASH_EMBEDDING_DIMS = 256;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The content terms of a text as the hashed embedding counts them. */
function embeddingTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (t.cjk ? [...t.term].length < 2 : t.term.length < 2) continue;
    if (isStopTerm(t.term)) continue;
    out.push(t.cjk ? t.term : (stemOf(t.term) ?? t.term));
  }
  return out;
}

export function hashEmbedding(text: string, dims = HASH_EMBEDDING_DIMS): number[] {
  const counts = new Map<string, number>();
  for (const term of embeddingTerms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const vector = new Array<number>(dims).fill(0);
  for (const [term, n] of counts) {
    const h = fnv1a(term);
    const slot = h % dims;
    vector[slot] = (vector[slot] as number) + (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n));
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}
