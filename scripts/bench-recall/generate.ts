import { EN_FACTS, type FactKind, type Lang, ZH_FACTS } from "./facts";
import { TOPICS, type Topic, WRAP } from "./filler";

// A seeded generator of long conversations for the recall benchmark: dozens of dated sessions of ordinary
// requests with long answers, in which a handful of facts are stated once (some changed later), each amid
// distractors that share its words, and paraphrased questions whose evidence is known by message.
// Nothing here reads a file: the same seed gives the same conversations on every machine.

export interface GeneratedMessage {
  localId: string;
  seq: number;
  role: "user" | "assistant";
  text: string;
  createdAt: string;
}

export interface GeneratedQuestion {
  id: string;
  lang: Lang;
  kind: "fact" | "changed" | "before" | "when";
  text: string;
  /** localIds of the messages that answer it (all must reach the context). */
  evidence: string[];
}

export interface GeneratedConversation {
  title: string;
  lang: Lang;
  messages: GeneratedMessage[];
  questions: GeneratedQuestion[];
  /** Conversations of the same user without any of the facts, but with their distractors (other values). */
  others: GeneratedMessage[][];
}

export interface GenerateOptions {
  seed: number;
  conversations: number;
  /** Messages per conversation (rounded up to a whole exchange). */
  messages: number;
  /** Share of conversations in Chinese. */
  zhShare: number;
  /** Facts stated per conversation. */
  facts: number;
  /** Other conversations per user, half as long, without the facts (for recall across conversations). */
  others: number;
  /** Which questions are asked: those the ranking was tuned on (default) or `fresh` ones (`FactKind.fresh`). */
  wording?: "tuned" | "fresh";
}

export const FULL_OPTIONS: GenerateOptions = {
  seed: 20261201,
  conversations: 24,
  messages: 560,
  zhShare: 0.3,
  facts: 9,
  others: 2,
};

export const QUICK_OPTIONS: GenerateOptions = {
  seed: 20261201,
  conversations: 3,
  messages: 160,
  zhShare: 0.34,
  facts: 5,
  others: 1,
};

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = ReturnType<typeof prng>;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? "");

function shuffled<T>(rand: Rand, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface Exchange {
  user: string;
  assistant: string;
}

function ordinaryExchange(rand: Rand, lang: Lang): Exchange & { ask: string } {
  const topic: Topic = pick(rand, TOPICS[lang]);
  const x = pick(rand, topic.slots);
  const ask = fill(pick(rand, topic.asks), { x });
  const sentences = shuffled(rand, topic.says).slice(0, 4 + Math.floor(rand() * 4));
  const joiner = lang === "zh" ? "" : " ";
  return { user: ask, ask, assistant: sentences.map((s) => fill(s, { x })).join(joiner) };
}

function acknowledgement(rand: Rand, lang: Lang): string {
  return lang === "zh"
    ? pick(rand, ["好的，了解了。", "谢谢你告诉我。", "听起来不错！", "明白。"])
    : pick(rand, ["Thanks for telling me.", "Good to know.", "That sounds great!", "Noted."]);
}

/** A message that carries `line` inside an ordinary request, and the answer to that request. */
function wrapped(rand: Rand, lang: Lang, line: string): Exchange {
  const around = ordinaryExchange(rand, lang);
  const after = pick(rand, WRAP[lang].after);
  const before = pick(rand, WRAP[lang].before);
  if (!after) return { user: `${before}${line}`, assistant: acknowledgement(rand, lang) };
  const space = lang === "zh" ? "" : " ";
  const ask = lang === "zh" ? around.ask : around.ask.charAt(0).toLowerCase() + around.ask.slice(1);
  return {
    user: `${before}${line}${fill(after, { ask }).replace(/^ /, space)}`,
    assistant: `${acknowledgement(rand, lang)}${space}${around.assistant}`,
  };
}

interface Placed {
  at: number; // exchange index
  line: string;
  role: "state" | "update" | "distract";
  fact: number;
}

function otherValue(rand: Rand, kind: FactKind, not: readonly string[]): string {
  const choices = kind.values.filter((v) => !not.includes(v));
  return pick(rand, choices.length > 0 ? choices : kind.values);
}

function dated(exchanges: number, rand: Rand, start: Date) {
  // Sessions of 3–10 exchanges, one to nine days apart, at a time of day that varies.
  const times: Date[] = [];
  let t = start.getTime();
  let left = 0;
  for (let i = 0; i < exchanges; i++) {
    if (left === 0) {
      left = 3 + Math.floor(rand() * 8);
      t += (1 + Math.floor(rand() * 9)) * 86_400_000 + Math.floor(rand() * 10) * 3_600_000;
    }
    left--;
    t += 60_000 + Math.floor(rand() * 240_000);
    times.push(new Date(t));
  }
  return times;
}

function toMessages(exchanges: Exchange[], rand: Rand, prefix: string): GeneratedMessage[] {
  const times = dated(exchanges.length, rand, new Date(Date.UTC(2025, 0, 6, 8)));
  const out: GeneratedMessage[] = [];
  exchanges.forEach((x, i) => {
    const at = times[i] as Date;
    const seq = out.length + 1;
    out.push({ localId: `${prefix}${seq}`, seq, role: "user", text: x.user, createdAt: at.toISOString() });
    out.push({
      localId: `${prefix}${seq + 1}`,
      seq: seq + 1,
      role: "assistant",
      text: x.assistant,
      createdAt: new Date(at.getTime() + 4000 + Math.floor(rand() * 20_000)).toISOString(),
    });
  });
  return out;
}

function conversation(rand: Rand, index: number, lang: Lang, o: GenerateOptions): GeneratedConversation {
  const exchanges = Math.ceil(o.messages / 2);
  const kinds = shuffled(rand, lang === "zh" ? ZH_FACTS : EN_FACTS).slice(0, o.facts);
  // The last 15 % of the conversation holds no fact: every answer lies outside a window of recent messages.
  const lastFact = Math.floor(exchanges * 0.85);
  const used = new Set<number>();
  const slot = (from: number, to: number) => {
    for (let tries = 0; tries < 1000; tries++) {
      const at = from + Math.floor(rand() * Math.max(1, to - from));
      if (!used.has(at)) {
        used.add(at);
        return at;
      }
    }
    throw new Error("no free slot for a fact; use more messages or fewer facts");
  };
  const placed: Placed[] = [];
  const values: { kind: FactKind; first: string; now: string; updated: boolean }[] = [];
  kinds.forEach((kind, f) => {
    const first = pick(rand, kind.values);
    const updated = kind.update !== undefined && rand() < 0.7;
    const firstAt = slot(0, Math.floor(lastFact * (updated ? 0.55 : 1)));
    placed.push({ at: firstAt, line: fill(pick(rand, kind.state), { v: first }), role: "state", fact: f });
    let now = first;
    if (updated && kind.update) {
      now = otherValue(rand, kind, [first]);
      const at = slot(Math.min(lastFact - 1, firstAt + 40), lastFact);
      placed.push({ at, line: fill(pick(rand, kind.update), { v: now }), role: "update", fact: f });
    }
    for (const template of kind.distract) {
      const d = otherValue(rand, kind, [first, now]);
      placed.push({ at: slot(0, exchanges - 3), line: fill(template, { d }), role: "distract", fact: f });
    }
    values.push({ kind, first, now, updated });
  });
  const byAt = new Map(placed.map((p) => [p.at, p]));
  const list: Exchange[] = [];
  for (let i = 0; i < exchanges; i++) {
    const p = byAt.get(i);
    list.push(p ? wrapped(rand, lang, p.line) : ordinaryExchange(rand, lang));
  }
  const prefix = "m";
  const messages = toMessages(list, rand, prefix);
  const userIdAt = (at: number) => `${prefix}${at * 2 + 1}`;
  const questions: GeneratedQuestion[] = [];
  // One draw per question whichever wording: the conversations and the other questions stay the same.
  const fresh = o.wording === "fresh";
  const asks = (kind: FactKind) => (fresh ? kind.fresh : kind.ask);
  const asksBefore = (kind: FactKind, tuned: readonly string[]) =>
    fresh ? (kind.freshBefore ?? tuned) : tuned;
  values.forEach(({ kind, updated }, f) => {
    const state = placed.find((p) => p.fact === f && p.role === "state") as Placed;
    const update = placed.find((p) => p.fact === f && p.role === "update");
    const id = `${index}-${kind.id}`;
    if (updated && update) {
      questions.push({
        id,
        lang,
        kind: "changed",
        text: pick(rand, asks(kind)),
        evidence: [userIdAt(update.at)],
      });
      if (kind.askBefore) {
        questions.push({
          id: `${id}-before`,
          lang,
          kind: "before",
          text: pick(rand, asksBefore(kind, kind.askBefore)),
          evidence: [userIdAt(state.at), userIdAt(update.at)],
        });
      }
    } else {
      questions.push({
        id,
        lang,
        kind: kind.when ? "when" : "fact",
        text: pick(rand, asks(kind)),
        evidence: [userIdAt(state.at)],
      });
    }
  });
  // The user's other conversations: half as long, with their own generator (so the conversation with the facts does
  // not depend on them), and each holding every distractor of this conversation's facts again with other values —
  // what scope `all` must rank past.
  const others = Array.from({ length: o.others }, (_, k) => {
    const orand = prng(o.seed * 7919 + index * 131 + k + 1);
    const length = Math.max(40, Math.ceil(o.messages / 4));
    const lines = new Map<number, string>();
    values.forEach(({ kind, first, now }) => {
      for (const template of kind.distract) {
        const at = Math.floor(orand() * length);
        if (!lines.has(at)) lines.set(at, fill(template, { d: otherValue(orand, kind, [first, now]) }));
      }
    });
    const exchanges = Array.from({ length }, (_, i) => {
      const line = lines.get(i);
      return line ? wrapped(orand, lang, line) : ordinaryExchange(orand, lang);
    });
    return toMessages(exchanges, orand, `o${k}m`);
  });
  const title = lang === "zh" ? `日常聊天 ${index + 1}` : `Everyday chat ${index + 1}`;
  return { title, lang, messages, questions, others };
}

export function generate(o: GenerateOptions): GeneratedConversation[] {
  const rand = prng(o.seed);
  const zh = Math.round(o.conversations * o.zhShare);
  return Array.from({ length: o.conversations }, (_, i) => conversation(rand, i, i < zh ? "zh" : "en", o));
}
