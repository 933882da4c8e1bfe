import { countTokens as cl100kCount } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/memory";
import {
  COUNT_CACHE_SIZE,
  DEFAULT_IMAGE_TOKENS,
  encodingForModel,
  imageTokens,
  memoizedCount,
  pieces,
  REPLY_PRIMING_TOKENS,
  TOKENS_PER_MESSAGE,
  tokenizerFor,
} from "./tokenizer";

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini", "o200k_base"],
    ["gpt-4.1", "o200k_base"],
    ["gpt-4.5-preview", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["offline", "o200k_base"],
    ["llama3.1:8b", "o200k_base"],
    ["", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-0613", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-4-32k", "cl100k_base"],
    ["GPT-3.5-Turbo", "cl100k_base"],
    ["gpt-35-turbo", "cl100k_base"],
    ["openai/gpt-4", "cl100k_base"],
    ["openai/gpt-4o", "o200k_base"],
    ["text-embedding-3-small", "cl100k_base"],
  ])("%s → %s", (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
    expect(tokenizerFor(model).encoding).toBe(encoding);
  });

  it("shares one tokenizer per encoding", () => {
    expect(tokenizerFor("gpt-4o")).toBe(tokenizerFor("gpt-5"));
    expect(tokenizerFor("gpt-4")).not.toBe(tokenizerFor("gpt-4o"));
  });
});

describe("OpenAI's counting rule", () => {
  // The example of OpenAI's cookbook "How to count tokens with tiktoken", with its published results.
  const example = [
    {
      role: "system",
      content:
        "You are a helpful, pattern-following assistant that translates corporate jargon into plain English.",
    },
    { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
    {
      role: "system",
      name: "example_assistant",
      content: "Things working well together will increase revenue.",
    },
    {
      role: "system",
      name: "example_user",
      content:
        "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
    },
    {
      role: "system",
      name: "example_assistant",
      content: "Let's talk later when we're less busy about how to do better.",
    },
    {
      role: "user",
      content: "This late pivot means we don't have time to boil the ocean for the client deliverable.",
    },
  ];

  it.each([
    ["gpt-4", 129],
    ["gpt-3.5-turbo", 129],
    ["gpt-4o", 124],
    ["gpt-4o-mini", 124],
  ])("%s counts the cookbook example as %i prompt tokens", (model, tokens) => {
    expect(tokenizerFor(model).countMessages(example)).toBe(tokens);
  });

  it("an empty request is the reply priming", () => {
    expect(tokenizerFor("gpt-4o").countMessages([])).toBe(REPLY_PRIMING_TOKENS);
  });

  it("an item costs envelope + role + content", () => {
    const tok = tokenizerFor("gpt-4o");
    const item: MemoryItem = { role: "user", text: "Hello, world!" };
    expect(tok.countItem(item)).toBe(
      TOKENS_PER_MESSAGE + tok.countText("user") + tok.countText("Hello, world!"),
    );
    expect(tok.countItem(item)).toBe(3 + 1 + 4);
    expect(tok.countMessages([{ role: "user", content: "Hello, world!" }])).toBe(
      tok.countItem(item) + REPLY_PRIMING_TOKENS,
    );
  });

  it("counts tool call ids, names and arguments, and a tool output's call id", () => {
    const tok = tokenizerFor("gpt-4o");
    const call: MemoryItem = {
      role: "assistant",
      text: "",
      toolCalls: [{ id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' }],
    };
    expect(tok.countItem(call)).toBe(
      3 +
        tok.countText("assistant") +
        tok.countText("call_1") +
        tok.countText("weather") +
        tok.countText('{"city":"Oslo"}'),
    );
    const output: MemoryItem = { role: "tool", text: "3°C", toolCallId: "call_1" };
    expect(tok.countItem(output)).toBe(
      3 + tok.countText("tool") + tok.countText("3°C") + tok.countText("call_1"),
    );
  });

  it("counts a summary as the system message the model sees, prefix included", () => {
    const tok = tokenizerFor("gpt-4o");
    const plain = tok.countItem({ role: "system", text: "tea" });
    const summary = tok.countItem({ role: "assistant", text: "tea", summary: true });
    expect(summary).toBeGreaterThan(plain);
  });

  it("counts special-token text as plain text instead of throwing", () => {
    const tok = tokenizerFor("gpt-4o");
    expect(tok.countText("<|endoftext|>")).toBeGreaterThan(1);
    expect(() => tok.countItem({ role: "user", text: "say <|im_start|> and <|endoftext|>" })).not.toThrow();
  });

  it("counts more text as more tokens, deterministically", () => {
    const tok = tokenizerFor("gpt-4o");
    expect(tok.countText("")).toBe(0);
    let previous = 0;
    for (const length of [1, 10, 100, 1000]) {
      const tokens = tok.countText("word ".repeat(length));
      expect(tokens).toBeGreaterThan(previous);
      expect(tok.countText("word ".repeat(length))).toBe(tokens);
      previous = tokens;
    }
  });
});

describe("imageTokens (OpenAI's published examples)", () => {
  it.each([
    [{ width: 1024, height: 1024, detail: "high" as const }, 765],
    [{ width: 2048, height: 4096, detail: "high" as const }, 1105],
    [{ width: 4096, height: 8192, detail: "low" as const }, 85],
    [{ width: 512, height: 512, detail: "high" as const }, 255],
    [{ width: 100, height: 100, detail: "auto" as const }, 255],
    [{ detail: "low" as const }, 85],
    [{}, DEFAULT_IMAGE_TOKENS],
  ])("%j → %i", (image, tokens) => {
    expect(imageTokens(image)).toBe(tokens);
  });

  it("the default for an unknown size is a high-detail 1024×1024 image", () => {
    expect(DEFAULT_IMAGE_TOKENS).toBe(imageTokens({ width: 1024, height: 1024, detail: "high" }));
  });
});

describe("count cache", () => {
  it("gives the same counts from the cache as counted afresh, also past its size", () => {
    const { countText } = tokenizerFor("gpt-4o");
    const texts = Array.from(
      { length: COUNT_CACHE_SIZE + 10 },
      (_, i) => `text number ${i} ${"x".repeat(i % 7)}`,
    );
    const first = texts.map((t) => countText(t));
    const again = texts.map((t) => countText(t));
    expect(again).toEqual(first);
    expect(countText("hello world")).toBe(2);
  });

  /** A counter that records what it was asked to count (one "token" a character). */
  function spied(bounds: { entries?: number; chars?: number }) {
    const counted: string[] = [];
    const count = memoizedCount((text) => {
      counted.push(text);
      return text.length;
    }, bounds);
    return { count, counted };
  }

  it("keeps at most its characters' worth of texts, the oldest going first", () => {
    const { count, counted } = spied({ entries: 100, chars: 1000 });
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(400)) as [string, string, string];
    for (const t of [a, b, c]) expect(count(t)).toBe(400);
    expect(counted).toHaveLength(3);
    count(c);
    count(b);
    expect(counted).toHaveLength(3);
    count(a); // pushed out by c: counted again (b, now the oldest, goes)
    expect(counted).toHaveLength(4);
  });

  it("counts a text longer than its characters without keeping it or dropping the others", () => {
    const { count, counted } = spied({ entries: 100, chars: 1000 });
    count("short");
    const huge = "h".repeat(1500);
    expect(count(huge)).toBe(1500);
    expect(count(huge)).toBe(1500);
    count("short");
    expect(counted).toEqual(["short", huge, huge]);
  });

  it("keeps a long text of several lines as its lines, never whole", () => {
    const { count, counted } = spied({});
    const lines = ["first line\n", `${"x".repeat(300)}\n`, `${"y".repeat(300)}\n`];
    const text = lines.join("");
    expect(count(text)).toBe(text.length);
    expect(count(text)).toBe(text.length);
    expect(counted).toEqual(lines);
    // A new combination of the same lines costs no encoding.
    expect(count([lines[2], lines[0], lines[1]].join(""))).toBe(text.length);
    expect(counted).toHaveLength(3);
  });
});

describe("long texts counted in pieces", () => {
  const whole = {
    "gpt-4o": (text: string) => o200kCount(text, { disallowedSpecial: new Set() }),
    "gpt-4": (text: string) => cl100kCount(text, { disallowedSpecial: new Set() }),
  };
  const endings = [
    "end.",
    "end. ",
    "end.\n",
    "a\n\n",
    "x  ",
    "😀",
    "中文。",
    "a/",
    "'s",
    "<|endoftext|>",
    "123",
    "\r",
  ];
  const starts = ["/path", "  indented", "\tTab", "- item", "'s", "中文", "123", "é", "\u0301x", "!!"];

  it("cuts before a line that starts with anything but white space or a slash", () => {
    const text = "head\n- [a] one.\n  more\n/root\n\nnext\n";
    expect(pieces(text)).toEqual(["head\n", "- [a] one.\n  more\n/root\n\n", "next\n"]);
    expect(pieces(text).join("")).toBe(text);
  });

  it.each(Object.entries(whole))(
    "%s: the sum of the pieces is the count of the whole text",
    (model, count) => {
      const { countText } = tokenizerFor(model);
      // Where a cut would change the count: "!\n/" is one pre-token in o200k, "\n\n" one in both.
      for (const tricky of ["a!\n/b", "a\n\nb", "x\n  indented", "end.\n- [b]"]) {
        const text = `${"word ".repeat(120)}\n${tricky}\n${"more ".repeat(20)}`;
        expect(countText(text)).toBe(count(text));
      }
      let x = 7;
      const next = (n: number) => {
        x = (x * 1103515245 + 12345) % 2147483648;
        return x % n;
      };
      for (let t = 0; t < 200; t++) {
        const lines = Array.from({ length: 3 + next(30) }, (_, i) => {
          const body = Array.from(
            { length: 1 + next(12) },
            () => ["word", "Two", "中文", "😀", "42", "-", "/", " "][next(8)],
          );
          return `${next(2) ? (starts[next(starts.length)] as string) : `- [#${i}]`} ${body.join(" ")}${endings[next(endings.length)]}`;
        });
        const text = `Header line:\n${lines.join("\n")}`.padEnd(600, "·");
        expect(pieces(text).length).toBeGreaterThan(1);
        expect(countText(text)).toBe(count(text));
        // Counted again from the cached pieces, in another order.
        const shuffled = `Header line:\n${[...lines].reverse().join("\n")}`.padEnd(600, "·");
        expect(countText(shuffled)).toBe(count(shuffled));
      }
    },
  );
});
