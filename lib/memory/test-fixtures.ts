import type { MemoryItem } from "./types";

/**
 * Test shorthand: `conversation("S u1 c2:x,y t3:x t4:y a5 Σ")` builds items whose text is their token, so a
 * result reads back with `labels()`. `S…` system, `Σ…` summary, `u<seq>` user, `a<seq>` assistant,
 * `c<seq>:ids` assistant calling tools `ids`, `t<seq>:id` tool output answering `id`.
 */
export function item(token: string): MemoryItem {
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
