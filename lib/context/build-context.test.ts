import { describe, expect, it } from "vitest";
import {
  type MemoryItem,
  messageWindow,
  none,
  SUMMARY_PREFIX,
  toChatMessages,
  toResponsesInput,
} from "@/lib/memory";
import { conversation, deepFreeze, labels } from "@/lib/memory/test-fixtures";
import { buildContext, PREVIEW_CHARS } from "./build-context";
import { estimateTokens, IMAGE_TOKENS } from "./estimate-tokens";

const base = { systemPrompt: "You are Recall.", policyId: "window:20", model: "test-model" };
const q = (seq: number, text = `u${seq}`): MemoryItem => ({ role: "user", text, seq });

describe("buildContext ordering", () => {
  it("puts system prompt → summaries → memory window → question", () => {
    const built = buildContext({ ...base, memory: conversation("u1 Σ1 a2 S u3 a4 Σ2"), question: q(5) });
    expect(labels(built.items)).toBe("You are Recall. Σ1 Σ2 u1 a2 S u3 a4 u5");
    expect(built.entries.map((e) => e.source)).toEqual([
      "system",
      "summary",
      "summary",
      "history",
      "history",
      "system",
      "history",
      "history",
      "current",
    ]);
  });

  it("keeps tool groups in order and labels them history", () => {
    const built = buildContext({ ...base, memory: conversation("u1 c2:x t3:x a4"), question: q(5) });
    expect(labels(built.items)).toBe("You are Recall. u1 c2:x t3:x a4 u5");
    expect(built.entries.map((e) => e.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
  });

  it("omits an empty system prompt", () => {
    const built = buildContext({ ...base, systemPrompt: "", memory: conversation("u1 a2"), question: q(3) });
    expect(labels(built.items)).toBe("u1 a2 u3");
    expect(built.entries.some((e) => e.source === "system")).toBe(false);
  });

  it("with empty memory is system prompt + question", () => {
    const built = buildContext({ ...base, memory: [], question: q(1) });
    expect(built.items).toStrictEqual([{ role: "system", text: "You are Recall." }, q(1)]);
  });

  it("with empty memory and no system prompt is the question alone", () => {
    const built = buildContext({ ...base, systemPrompt: "", memory: [], question: q(1) });
    expect(built.items).toStrictEqual([q(1)]);
    expect(built.entries.map((e) => e.source)).toEqual(["current"]);
  });
});

describe("the current question appears exactly once", () => {
  const count = (items: readonly MemoryItem[], text: string) => items.filter((i) => i.text === text).length;

  it.each([
    { name: "memory without the question", memory: conversation("u1 a2"), question: q(3) },
    { name: "memory ending with the question (same seq)", memory: conversation("u1 a2 u3"), question: q(3) },
    {
      name: "memory holding the question with the same seq but older text",
      memory: [...conversation("u1 a2"), q(3, "draft")],
      question: q(3, "u3"),
    },
    {
      name: "memory holding a seq-less copy",
      memory: [...conversation("u1 a2"), { role: "user", text: "u3" } as MemoryItem],
      question: q(3),
    },
    {
      name: "question without seq, memory holding it with a seq",
      memory: conversation("u1 a2 u3"),
      question: { role: "user", text: "u3" } as MemoryItem,
    },
    {
      name: "question with images, memory holding a seq-less copy",
      memory: [{ role: "user", text: "u3", imageUrls: ["i"] } as MemoryItem],
      question: { role: "user", text: "u3", imageUrls: ["i"], seq: 3 } as MemoryItem,
    },
  ])("$name", ({ memory, question }) => {
    const built = buildContext({ ...base, memory, question });
    expect(built.items.at(-1)).toStrictEqual(question);
    expect(count(built.items, question.text)).toBe(1);
    expect(built.entries.filter((e) => e.source === "current")).toHaveLength(1);
    expect(built.entries.at(-1)?.source).toBe("current");
  });

  it("keeps an earlier message with the same text but another seq", () => {
    const built = buildContext({
      ...base,
      memory: [q(1, "yes"), ...conversation("a2")],
      question: q(3, "yes"),
    });
    expect(labels(built.items)).toBe("You are Recall. yes a2 yes");
    expect(built.entries.map((e) => e.seq)).toEqual([undefined, 1, 2, 3]);
  });

  it("a seq-less item with different content is kept", () => {
    const built = buildContext({ ...base, memory: [{ role: "user", text: "other" }], question: q(3) });
    expect(labels(built.items)).toBe("You are Recall. other u3");
  });

  it("is never evicted: the question is appended after a full window", () => {
    const memory = messageWindow(2).apply(conversation("u1 a2 u3 a4"));
    const built = buildContext({ ...base, memory, question: q(5) });
    expect(labels(built.items)).toBe("You are Recall. u3 a4 u5");
  });

  it("with the none policy the context is only system items and the question", () => {
    const memory = none.apply(conversation("S u1 Σ a2 c3:x t4:x u5"));
    const built = buildContext({ ...base, memory, question: q(5) });
    expect(labels(built.items)).toBe("You are Recall. S u5");
    expect(built.entries.map((e) => e.source)).toEqual(["system", "system", "current"]);
  });
});

describe("entries and token estimate", () => {
  it("describes each item", () => {
    const built = buildContext({
      ...base,
      systemPrompt: "Sys",
      memory: [q(1, "hello")],
      question: q(2, "why?"),
    });
    expect(built.entries).toStrictEqual([
      { source: "system", role: "system", chars: 3, tokens: estimateTokens("Sys"), preview: "Sys" },
      {
        source: "history",
        role: "user",
        seq: 1,
        chars: 5,
        tokens: estimateTokens("hello"),
        preview: "hello",
      },
      { source: "current", role: "user", seq: 2, chars: 4, tokens: estimateTokens("why?"), preview: "why?" },
    ]);
    expect(built.tokenEstimate).toBe(
      estimateTokens("Sys") + estimateTokens("hello") + estimateTokens("why?"),
    );
    expect(built.tokenEstimate).toBe(1 + 4 + (2 + 4) + (1 + 4));
  });

  it("sums entry tokens into tokenEstimate", () => {
    const built = buildContext({ ...base, memory: conversation("Σ u1 c2:x t3:x a4"), question: q(5) });
    expect(built.tokenEstimate).toBe(built.entries.reduce((sum, e) => sum + e.tokens, 0));
    expect(built.entries).toHaveLength(built.items.length);
  });

  it("counts the summary prefix the model sees", () => {
    const built = buildContext({
      ...base,
      systemPrompt: "",
      memory: [{ role: "system", text: "x", summary: true }],
      question: q(1),
    });
    const text = `${SUMMARY_PREFIX}x`;
    expect(built.entries[0]).toMatchObject({
      source: "summary",
      chars: text.length,
      tokens: estimateTokens(text),
    });
    expect(built.entries[0]?.preview.startsWith(SUMMARY_PREFIX.slice(0, 20))).toBe(true);
  });

  it("counts tool calls as name(arguments)", () => {
    const memory: MemoryItem[] = [
      {
        role: "assistant",
        text: "",
        seq: 1,
        toolCalls: [{ id: "c", name: "weather", arguments: '{"c":"Oslo"}' }],
      },
    ];
    const built = buildContext({ ...base, systemPrompt: "", memory, question: q(2) });
    expect(built.entries[0]).toMatchObject({
      chars: 'weather({"c":"Oslo"})'.length,
      preview: 'weather({"c":"Oslo"})',
    });
  });

  it("adds a flat cost per image", () => {
    const question: MemoryItem = { role: "user", text: "abcd", seq: 1, imageUrls: ["a", "b"] };
    const built = buildContext({ ...base, systemPrompt: "", memory: [], question });
    expect(built.entries[0]?.tokens).toBe(estimateTokens("abcd") + 2 * IMAGE_TOKENS);
  });

  it("previews the first 120 characters without splitting a surrogate pair", () => {
    const long = `${"a".repeat(119)}🐈tail`;
    const built = buildContext({ ...base, systemPrompt: "", memory: [], question: q(1, long) });
    const entry = built.entries[0];
    expect(entry?.chars).toBe(long.length);
    expect(entry?.preview).toBe(`${"a".repeat(119)}🐈`);
    expect(Array.from(entry?.preview ?? "")).toHaveLength(PREVIEW_CHARS);
    expect(
      buildContext({ ...base, memory: [], question: q(1, "x".repeat(500)) }).entries[1]?.preview,
    ).toHaveLength(PREVIEW_CHARS);
  });

  it("passes policyId and model through for the turn record", () => {
    const built = buildContext({ ...base, memory: [], question: q(1) });
    expect(built.policyId).toBe("window:20");
    expect(built.model).toBe("test-model");
  });
});

describe("purity", () => {
  it("does not mutate its inputs and returns copies", () => {
    const memory = deepFreeze(conversation("u1 c2:x t3:x a4"));
    const question = deepFreeze(q(5));
    const built = buildContext({ ...base, memory, question });
    expect(built.items[1]).not.toBe(memory[0]);
    expect(built.items.at(-1)).not.toBe(question);
    expect(built.items[2]?.toolCalls).not.toBe(memory[1]?.toolCalls);
  });

  it("projects to both APIs", () => {
    const built = buildContext({ ...base, memory: conversation("Σ u1 c2:x t3:x a4"), question: q(5) });
    expect(toChatMessages(built.items).map((m) => m.role)).toEqual([
      "system",
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    // The fixture's tool-call item has text, so it projects to a message plus a function_call.
    expect(toResponsesInput(built.items).map((i) => i.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "function_call",
      "function_call_output",
      "message",
      "message",
    ]);
  });
});
