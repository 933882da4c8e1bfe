import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { indexTerms } from "@/lib/search/terms";
import type { GeneratedConversation, GeneratedMessage } from "./generate";

// The calibration baseline, not the app: a plain any-term BM25 (k1 = 1.2, b = 0.75) over one conversation's
// messages outside the last 20, each hit with its neighbour of the other role, filled best first to a token
// budget; plus the last 20 messages. It tells how hard the generated data is compared with other benchmarks,
// where the same baseline's figure is known.

const WINDOW = 20;

function bm25Rank(messages: GeneratedMessage[], query: string): { index: number; score: number }[] {
  const docs = messages.map((m) => indexTerms(m.text));
  const df = new Map<string, number>();
  for (const terms of docs) for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, docs.length);
  const q = [...new Set(indexTerms(query))];
  const n = docs.length;
  return docs
    .map((terms, index) => {
      let score = 0;
      for (const t of q) {
        const f = terms.filter((x) => x === t).length;
        if (f === 0) continue;
        const d = df.get(t) ?? 0;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (1 - 0.75 + (0.75 * terms.length) / avg));
      }
      return { index, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || b.index - a.index);
}

export function baselineHits(convs: GeneratedConversation[], budget: number) {
  let questions = 0;
  let whole = 0;
  let evidence = 0;
  let found = 0;
  let tokens = 0;
  for (const conv of convs) {
    const older = conv.messages.slice(0, -WINDOW);
    const windowIds = new Set(conv.messages.slice(-WINDOW).map((m) => m.localId));
    for (const q of conv.questions) {
      const chosen = new Set<number>();
      let used = 0;
      for (const { index } of bm25Rank(older, q.text)) {
        const m = older[index] as GeneratedMessage;
        const partner = m.role === "user" ? index + 1 : index - 1;
        for (const i of [index, partner]) {
          const x = older[i];
          if (!x || chosen.has(i)) continue;
          const cost = countTokens(x.text) + 4;
          if (used + cost > budget) continue;
          chosen.add(i);
          used += cost;
        }
        if (used >= budget) break;
      }
      const ids = new Set([...chosen].map((i) => (older[i] as GeneratedMessage).localId));
      const hits = q.evidence.filter((id) => ids.has(id) || windowIds.has(id)).length;
      questions++;
      evidence += q.evidence.length;
      found += hits;
      if (hits === q.evidence.length) whole++;
      tokens += used;
    }
  }
  return { questions, whole, evidence, found, tokens: tokens / Math.max(1, questions) };
}
