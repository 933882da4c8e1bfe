import type { MemoryItem } from "./types";

/**
 * Test shorthand: `conversation("S u1 c2:x,y t3:x t4:y a5 Σ")` builds items whose text is their token, so a
 * result reads back with `labels()`. `S…` system, `Σ…` summary, `u<seq>` user, `a<seq>` assistant,
 * `c<seq>:ids` assistant calling tools `ids`, `t<seq>:id` tool output answering `id`.
 */
function item(token: string): MemoryItem {
  if (token.startsWith("S")) return { role: "system", text: token };
  if (token.startsWith("Σ")) return { role: "system", text: token, summary: true };
  const match = /^([uact])(\d+)(?::(.+))?$/.exec(token);
  if (!match) throw new Error(`bad token ${token}`);
  const [, kind, seqText, ids] = match;
  const seq = Number(seqText);
  switch (kind) {
    case "u":
      return { role: "user", text: token, seq };
    case "a":
      return { role: "assistant", text: token, seq };
    case "c":
      return {
        role: "assistant",
        text: token,
        seq,
        toolCalls: (ids ?? "")
          .split(",")
          .map((id) => ({ id, name: `fn_${id}`, arguments: `{"id":"${id}"}` })),
      };
    default:
      return { role: "tool", text: token, seq, toolCallId: ids ?? "" };
  }
}

export function conversation(tokens: string): MemoryItem[] {
  return tokens
    .split(/\s+/)
    .filter((token) => token !== "")
    .map(item);
}

export function labels(items: readonly MemoryItem[]): string {
  return items.map((i) => i.text).join(" ");
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** mulberry32: a tiny seeded PRNG, so every run checks the same histories. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random histories with groups (some outputs missing or reordered), orphans, system items and summaries. */
export function randomHistory(random: () => number): MemoryItem[] {
  const int = (max: number) => Math.floor(random() * max);
  const items: MemoryItem[] = [];
  let seq = 0;
  let callId = 0;
  const length = int(30);
  // Every item gets a unique text so results can be mapped back to input positions.
  const text = () => `#${items.length}`;
  while (items.length < length) {
    const r = random();
    if (r < 0.3) items.push({ role: "user", text: text(), seq: ++seq });
    else if (r < 0.55) items.push({ role: "assistant", text: text(), seq: ++seq });
    else if (r < 0.6) items.push({ role: "system", text: text() });
    else if (r < 0.65) items.push({ role: "system", text: text(), summary: true });
    else if (r < 0.72) items.push({ role: "tool", text: text(), seq: ++seq, toolCallId: `orphan${int(3)}` });
    else {
      const ids = Array.from({ length: 1 + int(3) }, () => `call${callId++}`);
      items.push({
        role: "assistant",
        text: text(),
        seq: ++seq,
        toolCalls: ids.map((id) => ({ id, name: "f", arguments: "{}" })),
      });
      const answered = ids.filter(() => random() < 0.9).sort(() => random() - 0.5);
      for (const id of answered) {
        if (random() < 0.1) items.push({ role: "system", text: text() });
        items.push({ role: "tool", text: text(), seq: ++seq, toolCallId: id });
      }
    }
  }
  return items;
}
