import { describe, expect, it } from "vitest";
import { composeContext } from "./context";
import { CONVERSATION_INSTRUCTIONS_HEADER, instructionItems, USER_INSTRUCTIONS_HEADER } from "./instructions";
import type { MemoryItem, TokenCounter } from "./types";

/** 3 tokens of envelope plus one per word. */
const count: TokenCounter = (item) => 3 + item.text.split(/\s+/).filter(Boolean).length;

const history: MemoryItem[] = [
  { role: "user", text: "first question here", seq: 1 },
  { role: "assistant", text: "first answer here", seq: 2 },
];
const question: MemoryItem = { role: "user", text: "what now", seq: 3 };
const all = instructionItems({
  aboutMe: "I live in Lyon.",
  howToAnswer: "Reply in French.",
  systemPrompt: "Be a pirate.",
});

describe("instructionItems", () => {
  it("makes the user's item (About me, then How to answer) and then the conversation's", () => {
    expect(all.map((i) => i.scope)).toEqual(["user", "conversation"]);
    expect(all[0]?.item).toEqual({
      role: "system",
      text: `${USER_INSTRUCTIONS_HEADER}\n\nAbout me:\nI live in Lyon.\n\nHow to answer:\nReply in French.`,
    });
    expect(all[1]?.item).toEqual({
      role: "system",
      text: `${CONVERSATION_INSTRUCTIONS_HEADER}\n\nBe a pirate.`,
    });
  });

  it("leaves out empty and blank texts, and a part that is empty", () => {
    expect(instructionItems({})).toEqual([]);
    expect(instructionItems({ aboutMe: "  \n", howToAnswer: "", systemPrompt: "   " })).toEqual([]);
    const only = instructionItems({ howToAnswer: "Be brief." });
    expect(only).toHaveLength(1);
    expect(only[0]?.item.text).not.toContain("About me");
    expect(instructionItems({ systemPrompt: "x" }).map((i) => i.scope)).toEqual(["conversation"]);
  });

  it("has headers without a colon on the first line (the offline model never reads them as notes)", () => {
    for (const i of all) expect(i.item.text.split("\n")[0]).not.toContain(":");
  });
});

describe("composeContext with instructions", () => {
  const base = { systemPrompt: "You are Recall.", memory: history, question, count, replyPriming: 3 };

  it("places them right after the system prompt, the user's first, each marked with its scope", () => {
    const composed = composeContext({ ...base, instructions: all });
    expect(composed.placed.map((p) => p.source)).toEqual([
      "system",
      "instructions",
      "instructions",
      "history",
      "history",
      "current",
    ]);
    const scopes = composed.placed.flatMap((p) => (p.source === "instructions" ? [p.scope] : []));
    expect(scopes).toEqual(["user", "conversation"]);
    expect(composed.placed[1]?.item.text).toContain("I live in Lyon.");
  });

  it("sends them without a system prompt too, and changes nothing when there are none", () => {
    expect(composeContext({ ...base, systemPrompt: "", instructions: all }).placed[0]?.source).toBe(
      "instructions",
    );
    expect(composeContext({ ...base, instructions: [] })).toEqual(composeContext(base));
  });

  it("counts them in the budget before history: the window gives way to them", () => {
    const long: MemoryItem[] = [
      { role: "user", text: "question ".repeat(40), seq: 1 },
      { role: "assistant", text: "answer ".repeat(40), seq: 2 },
    ];
    const tokens = (items: MemoryItem[]) => items.reduce((n, i) => n + count(i), 0);
    const fixed = count({ role: "system", text: "You are Recall." }) + count(question) + 3;
    const instructionTokens = tokens(all.map((i) => i.item));
    // Room for everything but one history message.
    const maxTokens = fixed + instructionTokens + tokens(long) - 1;
    expect(maxTokens).toBeGreaterThanOrEqual(fixed + tokens(long));
    const without = composeContext({ ...base, memory: long, maxTokens });
    expect(without.placed.filter((p) => p.source === "history")).toHaveLength(2);
    const withThem = composeContext({ ...base, memory: long, maxTokens, instructions: all });
    expect(withThem.placed.filter((p) => p.source === "instructions")).toHaveLength(2);
    expect(withThem.placed.filter((p) => p.source === "history").map((p) => p.item.seq)).toEqual([2]);
    expect(withThem.dropped.map((d) => [d.source, d.item.seq])).toEqual([["history", 1]]);
    expect(tokens(withThem.placed.map((p) => p.item)) + 3).toBeLessThanOrEqual(maxTokens);
  });

  it("leaves out one that does not fit beside the system prompt and the question, recorded as dropped", () => {
    const long = instructionItems({ aboutMe: "word ".repeat(200), systemPrompt: "Short prompt." });
    const composed = composeContext({ ...base, memory: [], maxTokens: 100, instructions: long });
    expect(composed.placed.map((p) => p.source)).toEqual(["system", "instructions", "current"]);
    expect(composed.placed[1]?.item.text).toContain("Short prompt.");
    expect(composed.dropped).toEqual([{ item: long[0]?.item, source: "instructions", reason: "budget" }]);
  });
});
