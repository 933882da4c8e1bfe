import { beforeAll, describe, expect, it } from "vitest";
import type { MemoryStateView } from "@/lib/client/types";
import { compileMessages } from "@/lib/i18n/compile";
import { loadMessages } from "@/lib/i18n/messages";
import { createTranslator, type Translator } from "@/lib/i18n/translate";
import * as words from "./memory-words";

let en: Translator<"chatMemory">;
let zh: Translator<"chatMemory">;
beforeAll(async () => {
  en = createTranslator("en", compileMessages(await loadMessages("en")), "chatMemory");
  zh = createTranslator("zh-CN", compileMessages(await loadMessages("zh-CN")), "chatMemory");
});
const describePolicy = (id: string) => words.describePolicy(en, id);
const describeMemory = (s: MemoryStateView) => words.describeMemory(en, s);
const describeSummary = (s: Parameters<typeof words.describeSummary>[1]) => words.describeSummary(en, s);

/** Digits are grouped with a no-break space (formatCount). */
const nbsp = (s: string) => s.replace(/(\d) (\d)/g, "$1\u00a0$2");

function state(change: Partial<MemoryStateView> = {}): MemoryStateView {
  const settings = { enabled: true, policy: "window", maxMessages: 20, maxTokens: 2000 } as const;
  return {
    ...settings,
    custom: false,
    effective: { ...settings, policyId: "window:20", maxContextTokens: null, modelContextTokens: 128000 },
    inMemory: { fromSeq: 1, throughSeq: 4, count: 4, tokens: 40 },
    clearedThroughSeq: 0,
    historyMessages: 4,
    ...change,
  } as MemoryStateView;
}

const summary = { fromSeq: 1, throughSeq: 40, messages: 40, version: 3, model: "m", createdAt: "2026-01-01" };

describe("describePolicy", () => {
  it.each([
    ["window:20", "Window of the last 20 messages"],
    ["window:1", "Window of the last message"],
    ["tokens:2000", "Within 2 000 tokens"],
    ["tokens:2000+window:20", "Within 2 000 tokens, at most the last 20 messages"],
    ["summary:4/8", "Summary + the last 4 messages"],
    ["none", "Memory off"],
    ["unbounded", "The whole history"],
    ["facts:3+window:2", "facts:3+window:2"],
    ["something-new", "something-new"],
  ])("%s → %s", (id, words) => {
    expect(describePolicy(id)).toBe(nbsp(words));
  });
});

describe("describeMemory", () => {
  it("says the window, the token budget, or that memory is off", () => {
    expect(describeMemory(state())).toBe("Remembers the last 20 messages");
    expect(describeMemory(state({ policy: "tokens" }))).toBe(nbsp("Within 2 000 tokens · up to 20 messages"));
    expect(describeMemory(state({ enabled: false, policy: "summary" }))).toBe("Memory off");
  });

  it("counts the summarized messages under the summary policy", () => {
    expect(describeMemory(state({ policy: "summary" }))).toBe("Summary + the last 20 messages");
    expect(describeMemory(state({ policy: "summary", summary: { ...summary, messages: 12 } }))).toBe(
      "Summary + the last 20 messages · 12 earlier ones summarized",
    );
    expect(describeMemory(state({ policy: "summary", summary: { ...summary, messages: 1 } }))).toBe(
      "Summary + the last 20 messages · 1 earlier one summarized",
    );
  });

  it("says memory was cleared, and what it holds once the conversation goes on", () => {
    expect(describeMemory(state({ clearedThroughSeq: 6, historyMessages: 6 }))).toBe(
      "Memory cleared — remembers only what was said since",
    );
    expect(describeMemory(state({ clearedThroughSeq: 6, historyMessages: 8 }))).toBe(
      "Remembers the last 20 messages · since memory was cleared",
    );
  });
});

describe("describeSummary", () => {
  it("names the range, the version and the message count", () => {
    expect(describeSummary(summary)).toBe("Summary of #1–#40, v3 (40 messages)");
    expect(describeSummary({ ...summary, fromSeq: 5, throughSeq: 5, messages: 1, version: 1 })).toBe(
      "Summary of #5, v1 (1 message)",
    );
  });
});

describe("in Chinese", () => {
  it("says the same things", () => {
    expect(words.describePolicy(zh, "window:20")).toBe("窗口：最后 20 条消息");
    expect(
      words.describeMemory(zh, state({ policy: "summary", summary: { ...summary, messages: 12 } })),
    ).toBe("摘要 + 最后 20 条消息 · 更早的 12 条已摘要");
    expect(words.describeSummary(zh, summary)).toBe("#1–#40 的摘要，第 3 版（40 条消息）");
  });
});

describe("describeMemoryUsed", () => {
  const recalled = (messageId: string) => ({
    sessionId: "s",
    messageId,
    seq: 1,
    role: "user" as const,
    createdAt: "2026-01-01T00:00:00.000Z",
    score: 1,
    preview: "p",
  });
  const fact = (id: string) => ({ id, sessionId: "s", messageId: "m" });
  const file = (chunkId: number) => ({
    fileId: "file1",
    fileName: "handbook.md",
    chunkId,
    position: chunkId,
    chunkCount: 12,
    preview: "p",
  });
  const used = {
    recalled: [recalled("a"), recalled("b"), recalled("c")],
    files: [file(3), file(4)],
    facts: [fact("f1"), fact("f2")],
    summary: { fromSeq: 1, throughSeq: 40, messages: 40 },
  };

  it("lists what the answer used beyond its window, in English and in Chinese", () => {
    expect(words.describeMemoryUsed(en, used)).toBe(
      "Used 3 earlier messages · 2 file passages · 2 memories · summary of #1–#40",
    );
    expect(words.describeMemoryUsed(zh, used)).toBe(
      "用到了 3 条较早的消息 · 2 个文件段落 · 2 条记忆 · #1–#40 的摘要",
    );
  });

  it("names only what was used, in the singular for one", () => {
    expect(
      words.describeMemoryUsed(en, { recalled: [recalled("a")], files: [], facts: [], summary: null }),
    ).toBe("Used 1 earlier message");
    expect(words.describeMemoryUsed(en, { recalled: [], files: [], facts: [fact("f")], summary: null })).toBe(
      "Used 1 memory",
    );
    expect(
      words.describeMemoryUsed(en, {
        recalled: [],
        files: [],
        facts: [],
        summary: { fromSeq: 3, throughSeq: 3, messages: 1 },
      }),
    ).toBe("Used summary of #3");
  });

  it("names one file passage, and a passage by its file and part", () => {
    expect(words.describeMemoryUsed(en, { recalled: [], files: [file(3)], facts: [], summary: null })).toBe(
      "Used 1 file passage",
    );
    expect(words.describeFileUsed(en, file(3))).toBe("handbook.md · part 3 of 12");
    expect(words.describeFileUsed(zh, file(3))).toBe("handbook.md · 第 3 段（共 12 段）");
  });

  it("describes the summary item with its message count", () => {
    expect(words.describeSummaryUsed(en, used.summary)).toBe("Summary of #1–#40 (40 messages)");
    expect(words.describeSummaryUsed(zh, used.summary)).toBe("#1–#40 的摘要（40 条消息）");
  });
});
