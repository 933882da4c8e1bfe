import { describe, expect, it } from "vitest";
import { composeContext } from "./context";
import {
  passageLine,
  RECALL_HEADER,
  type RecallCandidate,
  type RecallMessage,
  type RecallPassage,
  recallLine,
  selectRecall,
} from "./recall";
import { conversation, deepFreeze, labels } from "./test-fixtures";
import type { MemoryItem, TokenCounter } from "./types";

/** 3 tokens of envelope plus one per word: additive over lines, so budgets in these tests are exact. */
const count: TokenCounter = (item) => 3 + item.text.split(/\s+/).filter(Boolean).length;
const HEADER_TOKENS = count({ role: "system", text: RECALL_HEADER });

const SESSION = "s1";
const at = (minute: number) => new Date(Date.UTC(2026, 10, 3, 14, minute, 30));

function message(seq: number, text: string, extra: Partial<RecallMessage> = {}): RecallMessage {
  return {
    messageId: `m${seq}${extra.sessionId ?? ""}`,
    sessionId: SESSION,
    sessionTitle: "This chat",
    seq,
    role: seq % 2 === 1 ? "user" : "assistant",
    createdAt: at(seq),
    text,
    ...extra,
  };
}

/** A hit on `seq` with its partner (the answer after a question, the question before an answer). */
function hit(seq: number, score: number, text = `text of ${seq}`, partner = true): RecallCandidate {
  const other = seq % 2 === 1 ? seq + 1 : seq - 1;
  return {
    ...message(seq, text),
    score,
    ...(partner ? { partner: message(other, `text of ${other}`) } : {}),
  };
}

const select = (candidates: RecallCandidate[], over: Partial<Parameters<typeof selectRecall>[0]> = {}) =>
  selectRecall({
    candidates,
    sessionId: SESSION,
    windowSeqs: new Set(),
    questionSeq: 99,
    maxTokens: 1000,
    count,
    ...over,
  });
const seqsOf = (section: ReturnType<typeof selectRecall>) => section?.messages.map((m) => m.seq) ?? [];

describe("recallLine", () => {
  it("gives the date in UTC, the role and the seq", () => {
    expect(recallLine(message(45, "the message text"), SESSION)).toBe(
      "- [2026-11-03 14:45 UTC · user · #45] the message text",
    );
    expect(recallLine(message(46, "the answer text"), SESSION)).toBe(
      "- [2026-11-03 14:46 UTC · assistant · #46] the answer text",
    );
  });

  it("names another conversation by its title, on one line", () => {
    const other = message(3, "hi", { sessionId: "s2", sessionTitle: "Trip\nplanning" });
    expect(recallLine(other, SESSION)).toBe('- [2026-11-03 14:03 UTC · user · #3 · from "Trip planning"] hi');
  });

  it("indents the continuation lines of a multi-line message by two spaces", () => {
    expect(recallLine(message(1, "first\nsecond\r\n- not an item"), SESSION)).toBe(
      "- [2026-11-03 14:01 UTC · user · #1] first\n  second\n  - not an item",
    );
  });
});

describe("selectRecall", () => {
  it("renders one section: the header, then the messages in order of conversation and seq", () => {
    const section = select([hit(7, 3), hit(1, 2)]);
    expect(section?.item.role).toBe("system");
    expect(section?.item.text.split("\n")).toEqual([
      RECALL_HEADER,
      "- [2026-11-03 14:01 UTC · user · #1] text of 1",
      "- [2026-11-03 14:02 UTC · assistant · #2] text of 2",
      "- [2026-11-03 14:07 UTC · user · #7] text of 7",
      "- [2026-11-03 14:08 UTC · assistant · #8] text of 8",
    ]);
    // A partner carries the score of the hit that brought it.
    expect(section?.messages.map((m) => [m.seq, m.score])).toEqual([
      [1, 2],
      [2, 2],
      [7, 3],
      [8, 3],
    ]);
  });

  it("orders by conversation, then seq", () => {
    const other = { ...message(1, "elsewhere", { sessionId: "s0", sessionTitle: "Old" }), score: 1 };
    const section = select([hit(5, 3, "here", false), other]);
    expect(section?.messages.map((m) => [m.sessionId, m.seq])).toEqual([
      ["s0", 1],
      [SESSION, 5],
    ]);
  });

  it("never takes a message of the window, the current question or one already taken", () => {
    const section = select([hit(3, 5), hit(4, 4), hit(9, 3), hit(11, 2), hit(12, 1)], {
      windowSeqs: new Set([9, 10]),
      questionSeq: 11,
    });
    // 3 brings 4; 4 is taken already; 9 is in the window; 11 is the question; 12 comes alone (its question is 11).
    expect(seqsOf(section)).toEqual([3, 4, 12]);
    expect(new Set(section?.messages.map((m) => m.messageId)).size).toBe(3);
  });

  it("excludes window seqs only in the current conversation", () => {
    const elsewhere = { ...message(9, "same seq", { sessionId: "s2", sessionTitle: "Other" }), score: 1 };
    const section = select([elsewhere], { windowSeqs: new Set([9]), questionSeq: 9 });
    expect(section?.messages.map((m) => [m.sessionId, m.seq])).toEqual([["s2", 9]]);
  });

  it("fits in maxTokens with its header; whole messages only; a partner only when it fits", () => {
    // Each line: "- [date time UTC · role · #n] text of n" = 11 words with its text.
    const line = count({ role: "system", text: recallLine(message(1, "text of 1"), SESSION) }) - 3;
    expect(line).toBe(11);
    const one = select([hit(1, 2)], { maxTokens: HEADER_TOKENS + line });
    expect(seqsOf(one)).toEqual([1]);
    expect(one && count(one.item)).toBe(HEADER_TOKENS + line);
    const both = select([hit(1, 2)], { maxTokens: HEADER_TOKENS + 2 * line });
    expect(seqsOf(both)).toEqual([1, 2]);
    expect(select([hit(1, 2)], { maxTokens: HEADER_TOKENS + line - 1 })).toBeNull();
  });

  it("skips a hit too long for what is left and goes on with smaller ones", () => {
    const long = hit(1, 9, "word ".repeat(500), false);
    const section = select([long, hit(5, 1, "short", false)], { maxTokens: 100 });
    expect(seqsOf(section)).toEqual([5]);
    expect(section?.item.text).not.toContain("word word");
  });

  it("does not count a message far longer than the budget", () => {
    let counted = 0;
    const counting: TokenCounter = (item) => {
      counted += item.text.length;
      return count(item);
    };
    const huge = hit(1, 9, "x".repeat(200_000), false);
    const section = select([huge, hit(5, 1, "short", false)], { maxTokens: 200, count: counting });
    expect(seqsOf(section)).toEqual([5]);
    expect(counted).toBeLessThan(10_000);
  });

  it("counts no further candidate once less than a line's prefix is left", () => {
    const texts: string[] = [];
    const counting: TokenCounter = (item) => {
      texts.push(item.text);
      return count(item);
    };
    // The first line costs 9 (its prefix 8 words + "one"), leaving 5: no line is that short.
    const candidates = [hit(1, 3, "one", false), hit(3, 2, "two", false), hit(5, 1, "three", false)];
    const section = select(candidates, { maxTokens: HEADER_TOKENS + 9 + 5, count: counting });
    expect(seqsOf(section)).toEqual([1]);
    expect(texts.some((t) => t.endsWith("two") || t.endsWith("three"))).toBe(false);
  });

  it("counts the joined section once when it fits", () => {
    const sections: string[] = [];
    const counting: TokenCounter = (item) => {
      if (item.text.startsWith(`${RECALL_HEADER}\n`)) sections.push(item.text);
      return count(item);
    };
    const section = select([hit(1, 2), hit(5, 1)], { count: counting });
    expect(seqsOf(section)).toEqual([1, 2, 5, 6]);
    expect(sections).toEqual([section?.item.text]);
  });

  it("is null when there is nothing to recall or only room for the header", () => {
    expect(select([])).toBeNull();
    expect(select([hit(1, 1)], { maxTokens: HEADER_TOKENS })).toBeNull();
    expect(select([hit(1, 1, "x", false)], { windowSeqs: new Set([1]) })).toBeNull();
  });

  it("line tokens and header tokens add up to the section's tokens", () => {
    const section = select([hit(1, 2), hit(5, 1, "a\nmulti line\nmessage")]);
    expect(section).not.toBeNull();
    if (!section) return;
    const lines = section.messages.reduce((total, m) => total + m.tokens, 0);
    expect(lines + section.headerTokens).toBe(count(section.item));
    expect(section.headerTokens).toBe(HEADER_TOKENS);
  });
});

describe("composeContext with recall", () => {
  const q = (seq: number): MemoryItem => ({ role: "user", text: `u${seq}`, seq });
  const base = { systemPrompt: "Sys", count, replyPriming: 3 };
  const sources = (placed: { source: string }[]) => placed.map((p) => p.source);

  it("places the section after long-term memory and summaries, before the window", () => {
    const composed = composeContext({
      ...base,
      memory: conversation("Σ1 u5 a6"),
      question: q(7),
      longTerm: { item: { role: "system", text: "Long-term memory: x" }, facts: [] },
      recall: { candidates: [hit(1, 1)], sessionId: SESSION, maxTokens: 500 },
      modelContextTokens: 100_000,
    });
    expect(sources(composed.placed)).toEqual([
      "system",
      "fact",
      "summary",
      "recall",
      "history",
      "history",
      "current",
    ]);
  });

  it("without recall it is exactly the context without the section", () => {
    const memory = deepFreeze(conversation("u1 a2 u3 a4"));
    const plain = composeContext({ ...base, memory, question: q(5), maxTokens: 200 });
    for (const recall of [null, undefined, { candidates: [], sessionId: SESSION, maxTokens: 500 }]) {
      expect(composeContext({ ...base, memory, question: q(5), maxTokens: 200, recall })).toEqual(plain);
    }
    expect(labels(plain.placed.map((p) => p.item))).toBe("Sys u1 a2 u3 a4 u5");
  });

  it("does not recall what the window holds", () => {
    const composed = composeContext({
      ...base,
      memory: conversation("u3 a4"),
      question: q(5),
      recall: { candidates: [hit(3, 5), hit(1, 1)], sessionId: SESSION, maxTokens: 500 },
    });
    const recall = composed.placed.find((p) => p.source === "recall");
    expect(recall?.source === "recall" && recall.recall.messages.map((m) => m.seq)).toEqual([1, 2]);
  });

  it("the window keeps priority: recall gets what the budget leaves, up to its own limit", () => {
    // A long prompt, so the budget can be set to the token without going under the smallest one.
    const systemPrompt = "pad ".repeat(80);
    const memory = conversation("u1 a2 u3 a4");
    const question = q(5);
    const fixed = count({ role: "system", text: systemPrompt }) + count(question) + 3;
    const windowTokens = memory.reduce((t, i) => t + count(i), 0);
    const recall = { candidates: [hit(21, 1, "far", false)], sessionId: SESSION, maxTokens: 500 };
    const lineTokens = 9;
    // Exactly room for the window and the section.
    const roomy = composeContext({
      ...base,
      systemPrompt,
      memory,
      question,
      recall,
      maxTokens: fixed + windowTokens + HEADER_TOKENS + lineTokens,
    });
    expect(sources(roomy.placed)).toEqual([
      "system",
      "recall",
      "history",
      "history",
      "history",
      "history",
      "current",
    ]);
    // One token less: the section goes, the window stays whole.
    const tight = composeContext({
      ...base,
      systemPrompt,
      memory,
      question,
      recall,
      maxTokens: fixed + windowTokens + HEADER_TOKENS + lineTokens - 1,
    });
    expect(sources(tight.placed)).toEqual(["system", "history", "history", "history", "history", "current"]);
    expect(tight.dropped).toEqual([]);
    // Its own limit holds however much the budget leaves.
    const limited = composeContext({
      ...base,
      systemPrompt,
      memory,
      question,
      recall: { ...recall, maxTokens: HEADER_TOKENS + lineTokens - 1 },
      modelContextTokens: 1_000_000,
    });
    expect(sources(limited.placed)).not.toContain("recall");
  });
});

function passage(
  position: number,
  score: number,
  text = `passage ${position} text`,
  fileName = "notes.md",
): RecallPassage {
  return { chunkId: position, fileId: `f-${fileName}`, fileName, position, chunkCount: 9, text, score };
}

describe("project file passages in the section", () => {
  it("renders a passage with its file name and position, further lines indented", () => {
    expect(passageLine(passage(2, 1, "first line\nsecond line", 'My "big"\nplan.md'))).toBe(
      "- [file \"My 'big' plan.md\" · part 2 of 9] first line\n  second line",
    );
  });

  it("takes messages and passages in turns, best first, and sends the passages after the messages in file order", () => {
    const section = select([hit(5, 3, "five", false), hit(7, 2, "seven", false)], {
      passages: [passage(4, 9), passage(1, 8, "one", "a.txt")],
    });
    expect(seqsOf(section)).toEqual([5, 7]);
    expect(section?.passages.map((p) => [p.fileName, p.position])).toEqual([
      ["a.txt", 1],
      ["notes.md", 4],
    ]);
    const lines = section?.item.text.split("\n") ?? [];
    expect(lines[0]).toBe(RECALL_HEADER);
    expect(lines.slice(3)).toEqual([passageLine(passage(1, 8, "one", "a.txt")), passageLine(passage(4, 9))]);
    // Header, envelope and lines add up to the section's count.
    const total =
      (section?.headerTokens ?? 0) +
      [...(section?.messages ?? []), ...(section?.passages ?? [])].reduce((s, m) => s + m.tokens, 0);
    expect(total).toBe(count(section?.item as MemoryItem));
  });

  it("fits the passages in the limit, and sends a section of passages alone", () => {
    const lineTokens = count({ role: "system", text: passageLine(passage(1, 1)) }) - 3;
    const section = select([], {
      passages: [passage(1, 3), passage(2, 2), passage(3, 1)],
      maxTokens: HEADER_TOKENS + 2 * lineTokens,
    });
    expect(section?.messages).toEqual([]);
    expect(section?.passages.map((p) => p.position)).toEqual([1, 2]);
    expect(select([], { passages: [], maxTokens: 1000 })).toBeNull();
  });

  it("interleaves fairly: the first message and the first passage both come before either list's second", () => {
    const lineTokens = count({ role: "system", text: `\n${passageLine(passage(1, 1, "aa bb"))}` }) - 3;
    const section = select([hit(5, 3, "aa bb", false), hit(7, 2, "aa bb", false)], {
      passages: [passage(1, 9, "aa bb"), passage(2, 8, "aa bb")],
      maxTokens: HEADER_TOKENS + 2 * lineTokens + 2,
    });
    expect(seqsOf(section)).toEqual([5]);
    expect(section?.passages.map((p) => p.position)).toEqual([1]);
  });
});
