import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nFor } from "@/lib/i18n/testing";
import type { Translator } from "@/lib/i18n/translate";
import * as receipt from "../ui/receipt";
import { Markdown } from "./markdown";

let en: Awaited<ReturnType<typeof i18nFor>>;
let zhReceipt: Translator<"receipt">;
beforeAll(async () => {
  en = await i18nFor("en");
  zhReceipt = (await i18nFor("zh-CN")).t("receipt");
});
const html = (text: string) => renderToStaticMarkup(en.wrap(createElement(Markdown, { text })));
const receiptSentence = (deleted: Record<string, number>) =>
  receipt.receiptSentence(en.t("receipt"), deleted);

describe("Markdown", () => {
  it("renders GFM tables, task lists, headings and quotes", () => {
    const out = html("# Plan\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n");
    expect(out).toContain("<table");
    expect(out).toContain("<td");
    expect(out).not.toContain("|---|");
    expect(out).toMatch(/<h2[^>]*>Plan<\/h2>/);
    expect(out).toContain("<blockquote");
    expect(out.match(/type="checkbox"/g)).toHaveLength(2);
  });

  it("shows a code block's language with a copy button", () => {
    const out = html("```python\nprint('hi')\n```");
    expect(out).toMatch(/data-testid="code-language"[^>]*>python</);
    expect(out).toContain('data-testid="code-copy"');
  });

  it("opens links in a new tab without an opener, and never loads remote images", () => {
    const out = html("[site](https://example.com) ![x](https://evil.example/p.png)");
    expect(out).toMatch(/<a href="https:\/\/example.com" target="_blank" rel="noopener noreferrer nofollow"/);
    expect(out).not.toContain("<img");
    expect(out).toContain("Image: x");
  });
});

describe("receiptSentence", () => {
  it("names records in words, not tables", () => {
    expect(receiptSentence({ ChatSession: 1, ChatMessage: 4, MemorySnapshot: 1, TurnContext: 2 })).toBe(
      "1 conversation, 4 messages, 1 memory snapshot and 2 recorded contexts",
    );
  });

  it("names memories and attachments only when some were deleted, with the bytes freed", () => {
    const none = { ChatSession: 1, ChatMessage: 2, MemoryFact: 0, Attachment: 0, AttachmentBytes: 0 };
    expect(receiptSentence(none)).toBe("1 conversation and 2 messages");
    expect(receiptSentence({ ...none, MemoryFact: 2, Attachment: 1, AttachmentBytes: 2048 })).toBe(
      "1 conversation, 2 messages, 2 memories and 1 attachment (2.0 KB)",
    );
  });
});

describe("receiptSentence in Chinese", () => {
  it("counts and joins the Chinese way", () => {
    expect(receipt.receiptSentence(zhReceipt, { ChatSession: 1, ChatMessage: 4, TurnContext: 2 })).toBe(
      "1 个对话、4 条消息和 2 条上下文记录",
    );
  });
});
