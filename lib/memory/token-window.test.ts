import { describe, expect, it } from "vitest";
import { messageWindow, none } from "./policies";
import { conversation, deepFreeze, labels } from "./test-fixtures";
import { composePolicies, tokenWindow, windowPolicy } from "./token-window";
import type { MemoryItem, MemoryPolicy, TokenCounter } from "./types";

/** Each item costs the number after `*` in its text (`u1*30`), else 10. */
const count: TokenCounter = (item) => Number(/\*(\d+)$/.exec(item.text)?.[1] ?? 10);
/** `conversation` with costs: `"S*5 u1*30 a2"` (the cost suffix is kept in the text). */
function costed(tokens: string): MemoryItem[] {
  return tokens
    .split(/\s+/)
    .filter((t) => t !== "")
    .map((token) => {
      const [base = "", cost] = token.split("*");
      const item = conversation(base)[0] as MemoryItem;
      return cost === undefined ? item : { ...item, text: token };
    });
}
const window = (maxTokens: number) => tokenWindow({ maxTokens, count });

describe("tokenWindow: LangChain4j's TokenWindowChatMemory behaviours", () => {
  it("keeps the newest messages that fit and evicts the oldest first", () => {
    expect(labels(window(30).apply(costed("u1 a2 u3 a4")))).toBe("a2 u3 a4");
    expect(labels(window(29).apply(costed("u1 a2 u3 a4")))).toBe("u3 a4");
  });

  it("keeps the system message and counts it", () => {
    expect(labels(window(30).apply(costed("S u1 a2 u3 a4")))).toBe("S u3 a4");
    expect(labels(window(30).apply(costed("u1 S a2 u3 a4")))).toBe("S u3 a4");
  });

  it("a memory holding only a system message keeps it, even over the budget", () => {
    expect(labels(window(10).apply(costed("S")))).toBe("S");
    expect(labels(window(5).apply(costed("S*50")))).toBe("S*50");
    expect(labels(window(5).apply(costed("S*50 u1*1")))).toBe("S*50");
  });

  it("drops a first message that alone exceeds the budget (never truncates it)", () => {
    expect(window(20).apply(costed("u1*21"))).toEqual([]);
    expect(labels(window(20).apply(costed("S*5 u1*16")))).toBe("S*5");
    const item = costed("u1*20")[0] as MemoryItem;
    expect(window(20).apply([item])).toEqual([item]);
  });

  it("a newest message over the budget empties the history: older ones do not fill the gap", () => {
    expect(labels(window(30).apply(costed("u1 a2 u3*31")))).toBe("");
    expect(labels(window(30).apply(costed("S*1 u1 a2*40 u3")))).toBe("S*1 u3");
  });

  it("evicts an assistant tool call together with its results (no orphan results)", () => {
    expect(labels(window(30).apply(costed("u1 c2:x t3:x a4")))).toBe("c2:x t3:x a4");
    expect(labels(window(29).apply(costed("u1 c2:x t3:x a4")))).toBe("a4");
    expect(labels(window(40).apply(costed("u1 c2:x,y t3:x t4:y a5")))).toBe("c2:x,y t3:x t4:y a5");
    expect(labels(window(39).apply(costed("u1 c2:x,y t3:x t4:y a5")))).toBe("a5");
  });

  it("never keeps an orphan tool result, and orphans cost nothing", () => {
    expect(labels(window(100).apply(costed("t1:z u2 a3")))).toBe("u2 a3");
    expect(labels(window(20).apply(costed("u1 t2:q*500 a3")))).toBe("u1 a3");
  });

  it("keeps summaries (pinned) and counts them", () => {
    expect(labels(window(30).apply(costed("Σ u1 a2 u3")))).toBe("Σ a2 u3");
    expect(labels(window(30).apply(costed("Σ*25 u1 a2 u3")))).toBe("Σ*25");
  });

  it("a window may begin with an assistant message", () => {
    expect(labels(window(20).apply(costed("u1 a2 u3")))).toBe("a2 u3");
  });

  it("empty memory and a zero budget", () => {
    expect(window(100).apply([])).toEqual([]);
    expect(labels(window(0).apply(costed("S u1*0 a2")))).toBe("S");
  });

  it("returns copies and does not mutate its input", () => {
    const input = deepFreeze(costed("S c1:x t2:x a3"));
    const output = window(1000).apply(input);
    expect(output).toEqual(input);
    output.forEach((item, i) => {
      expect(item).not.toBe(input[i]);
    });
  });

  it("rejects a negative or fractional budget", () => {
    expect(() => tokenWindow({ maxTokens: -1, count })).toThrow(RangeError);
    expect(() => tokenWindow({ maxTokens: 1.5, count })).toThrow(RangeError);
    expect(() => tokenWindow({ maxTokens: Number.NaN, count })).toThrow(RangeError);
  });

  it("has the id tokens:<n>", () => {
    expect(window(2000).id).toBe("tokens:2000");
  });
});

describe("composition with the message window (the tighter wins)", () => {
  const items = costed("S u1 a2 u3*50 a4 u5 a6");

  it.each([
    { maxMessages: 2, maxTokens: 1000, want: "S u5 a6" },
    { maxMessages: 10, maxTokens: 39, want: "S u5 a6" },
    { maxMessages: 3, maxTokens: 45, want: "S a4 u5 a6" },
    { maxMessages: 5, maxTokens: 1000, want: "S a2 u3*50 a4 u5 a6" },
    { maxMessages: 5, maxTokens: 89, want: "S a4 u5 a6" },
    { maxMessages: 5, maxTokens: 90, want: "S u3*50 a4 u5 a6" },
  ])("window:$maxMessages + tokens:$maxTokens → $want", ({ maxMessages, maxTokens, want }) => {
    const policy = windowPolicy({ maxMessages, maxTokens, count });
    expect(labels(policy.apply(items))).toBe(want);
    // Either order gives the same result.
    const reversed = composePolicies(messageWindow(maxMessages), tokenWindow({ maxTokens, count }));
    expect(reversed.apply(items)).toEqual(policy.apply(items));
  });

  it("ids encode both, so a snapshot from another combination is stale", () => {
    expect(windowPolicy({ maxMessages: 20 }).id).toBe("window:20");
    expect(windowPolicy({ maxTokens: 2000, count }).id).toBe("tokens:2000");
    expect(windowPolicy({ maxMessages: 20, maxTokens: 2000, count }).id).toBe("tokens:2000+window:20");
    expect(composePolicies(none).id).toBe("none");
  });

  it("needs a counter for tokens and at least one limit", () => {
    expect(() => windowPolicy({ maxTokens: 100 })).toThrow(RangeError);
    expect(() => windowPolicy({})).toThrow(RangeError);
    expect(() => composePolicies()).toThrow(RangeError);
  });

  it("applies policies in order", () => {
    const tag = (name: string): MemoryPolicy => ({
      id: name,
      apply: (input) => [...input, { role: "system", text: name }],
    });
    expect(labels(composePolicies(tag("a"), tag("b"), tag("c")).apply([]))).toBe("a b c");
    expect(composePolicies(tag("a"), tag("b")).id).toBe("a+b");
  });
});
