import { describe, expect, it } from "vitest";
import { composeContext, type MemoryItem } from "@/lib/memory";
import { buildContext, type ToolDefinition, withToolStep } from "./build-context";
import { REPLY_PRIMING_TOKENS, tokenizerFor } from "./tokenizer";

// Tool definitions are sent with every model call: the context counts them, and a budget has to hold them.

const tok = tokenizerFor("test-model");
const base = { systemPrompt: "You are Recall.", policyId: "window:20", model: "test-model" };

/** lib/memory decides what fits (tools included), buildContext assembles and counts. */
function context({
  policyId,
  model,
  tools = [],
  ...args
}: Omit<Parameters<typeof composeContext>[0], "count" | "replyPriming" | "tools"> & {
  policyId: string;
  model: string;
  tools?: ToolDefinition[];
}) {
  const composed = composeContext({
    ...args,
    count: tok.countItem,
    replyPriming: tok.replyPriming,
    tools: tools.map((t) => ({ name: t.name, tokens: tok.countText(t.text) })),
  });
  return buildContext({ composed, tools, policyId, model, tokenizer: tok });
}
const q = (seq: number, text = `u${seq}`): MemoryItem => ({ role: "user", text, seq });
const history = (n: number): MemoryItem[] =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    text: `message ${i + 1} ${"word ".repeat(30)}`,
    seq: i + 1,
  }));
const definition = (name: string, words = 40) => ({
  name,
  text: JSON.stringify({ type: "function", function: { name, description: "describes ".repeat(words) } }),
});

describe("tool definitions in the context", () => {
  it("are traced one by one with their tokens, and counted in the total", () => {
    const tools = [definition("current_time", 5), definition("weather__forecast")];
    const without = context({ ...base, memory: [], question: q(1) });
    const built = context({ ...base, memory: [], question: q(1), tools });
    expect(built.tools.map((t) => [t.source, t.preview, t.tokens])).toEqual(
      tools.map((t) => ["tools", t.name, tok.countText(t.text)]),
    );
    expect(built.tokens).toBe(without.tokens + tools.reduce((s, t) => s + tok.countText(t.text), 0));
    // The messages are what they were: definitions are not items.
    expect(built.items).toEqual(without.items);
    expect(built.entries).toEqual(without.entries);
    const sum =
      built.entries.reduce((s, e) => s + e.tokens, 0) + built.tools.reduce((s, e) => s + e.tokens, 0);
    expect(built.tokens).toBe(sum + REPLY_PRIMING_TOKENS);
  });

  it("take their room in the budget from the history", () => {
    const memory = history(10);
    const tools = [definition("a__one", 60), definition("a__two", 60)];
    const toolTokens = tools.reduce((s, t) => s + tok.countText(t.text), 0);
    const roomy = context({ ...base, memory, question: q(11) });
    const limit = roomy.tokens + toolTokens - 1;
    const plain = context({ ...base, memory, question: q(11), maxTokens: limit });
    const withTools = context({ ...base, memory, question: q(11), maxTokens: limit, tools });
    expect(plain.dropped).toEqual([]);
    expect(withTools.tools).toHaveLength(2);
    expect(withTools.tokens).toBeLessThanOrEqual(limit);
    expect(withTools.items.length).toBeLessThan(plain.items.length);
    expect(withTools.dropped.every((d) => d.source === "history" && d.reason === "budget")).toBe(true);
  });

  it("are left out, not the turn failed, when they alone do not fit beside the question", () => {
    const tools = [definition("a__huge", 400)];
    const built = context({ ...base, memory: [], question: q(1), maxTokens: 100, tools });
    expect(built.tools).toEqual([]);
    expect(built.dropped).toEqual([
      { source: "tools", role: "system", tokens: tok.countText(tools[0]?.text ?? ""), reason: "budget" },
    ]);
    expect(built.tokens).toBeLessThanOrEqual(100);
  });

  it("stay counted after a tool step", () => {
    const tools = [definition("a__one")];
    const built = context({ ...base, memory: [], question: q(1), tools });
    const step: MemoryItem[] = [
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "a__one", arguments: "{}" }], seq: 2 },
      { role: "tool", text: '{"output":"ok"}', toolCallId: "c1", seq: 3 },
    ];
    const next = withToolStep(built, step, tok);
    expect(next.tools).toEqual(built.tools);
    expect(next.tokens).toBe(built.tokens + step.reduce((s, i) => s + tok.countItem(i), 0));
  });
});
