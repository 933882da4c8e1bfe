import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/memory";
import { createModel, type ReplyEvent, streamReply, type ToolSpec } from "./client";
import { scriptedAnswer } from "./scripted";
import { formatListing, parseListing } from "./scripted-listing";
import { summaryRequest } from "./summarize";
import type { WireMessage } from "./wire";

const msg = (role: WireMessage["role"], text: string, extra: Partial<WireMessage> = {}): WireMessage => ({
  role,
  text,
  images: [],
  calls: [],
  ...extra,
});
const replyOf = (messages: WireMessage[], tools: string[] = []) => {
  const answer = scriptedAnswer({ messages, tools });
  if (!("reply" in answer)) throw new Error("expected a reply");
  return answer.reply;
};

describe("the scripted model's listing", () => {
  it("lists every message it received, in order, with roles and section headings", () => {
    const text = replyOf(
      [
        msg("system", "You are Recall."),
        msg("system", "Long-term memory: facts.\n- [f1] My favourite colour is teal"),
        msg("user", "My code word is 青云-4173", { images: ["data:image/png;base64,AA"] }),
        msg("assistant", "scripted: 3 received\n1 system: You are Recall."),
        msg("assistant", "", { calls: [{ name: "remember", arguments: '{"fact":"x"}' }] }),
        msg("tool", '{"remembered":{"text":"x"}}'),
        msg("user", "What is my code word?"),
      ],
      ["remember", "forget"],
    );
    expect(text).toBe(
      [
        "scripted: 7 received · tools remember,forget",
        "1 system: You are Recall.",
        "2 system [Long-term memory]: Long-term memory: facts. ⏎ - [f1] My favourite colour is teal",
        "3 user: My code word is 青云-4173 +1 image",
        "4 assistant: scripted: 3 received",
        '5 assistant → remember {"fact":"x"}',
        '6 tool: {"remembered":{"text":"x"}}',
        "7 user: What is my code word?",
      ].join("\n"),
    );
    expect(parseListing(text)).toEqual({
      received: 7,
      tools: ["remember", "forget"],
      entries: [
        { index: 1, role: "system", text: "You are Recall." },
        {
          index: 2,
          role: "system",
          section: "Long-term memory",
          text: "Long-term memory: facts. ⏎ - [f1] My favourite colour is teal",
        },
        { index: 3, role: "user", text: "My code word is 青云-4173 +1 image" },
        { index: 4, role: "assistant", text: "scripted: 3 received" },
        { index: 5, role: "assistant", text: '→ remember {"fact":"x"}' },
        { index: 6, role: "tool", text: '{"remembered":{"text":"x"}}' },
        { index: 7, role: "user", text: "What is my code word?" },
      ],
    });
  });

  it("reads back what it writes, and nothing else", () => {
    const listing = { received: 1, tools: [], entries: [{ index: 1, role: "user", text: "a\nb" }] };
    expect(parseListing(formatListing(listing))?.entries[0]?.text).toBe("a ⏎ b");
    expect(parseListing("Your code word is 青云-4173.")).toBeNull();
  });

  it("summarizes with the User lines it was sent, so a fact reaches the next context only through them", () => {
    const first = summaryRequest({
      messages: [
        { role: "user", text: "My code word is 青云-4173." },
        { role: "assistant", text: "scripted: 2 received" },
      ],
    }).map((m: MemoryItem) => msg(m.role as WireMessage["role"], m.text));
    expect(replyOf(first)).toBe("User: My code word is 青云-4173.");
    const next = summaryRequest({
      previous: "User: My code word is 青云-4173.",
      messages: [{ role: "user", text: "Filler 1" }],
    }).map((m: MemoryItem) => msg(m.role as WireMessage["role"], m.text));
    expect(replyOf(next)).toBe("User: My code word is 青云-4173.\nUser: Filler 1");
  });
});

describe("scripted tool calls through the SDK", () => {
  const remember: ToolSpec = {
    name: "remember",
    description: "Keep a fact.",
    parameters: { type: "object" },
  };

  it.each(["chat", "responses"] as const)(
    "calls the tool a /tool question names, then says its result (%s)",
    async (style) => {
      const model = createModel({ style, offline: "scripted" });
      const question: MemoryItem = { role: "user", text: '/tool remember {"fact":"I like figs"}' };
      const run = async (items: MemoryItem[]) => {
        const events: ReplyEvent[] = [];
        for await (const e of streamReply({ items, model, tools: [remember] })) events.push(e);
        return events.at(-1);
      };
      const step = await run([question]);
      expect(step).toMatchObject({
        type: "done",
        toolCalls: [{ name: "remember", arguments: '{"fact":"I like figs"}' }],
      });
      const id = step?.type === "done" ? (step.toolCalls?.[0]?.id ?? "") : "";
      const answer = await run([
        question,
        {
          role: "assistant",
          text: "",
          toolCalls: [{ id, name: "remember", arguments: '{"fact":"I like figs"}' }],
        },
        { role: "tool", text: '{"remembered":{"text":"I like figs"}}', toolCallId: id },
      ]);
      expect(answer).toMatchObject({
        type: "done",
        text: 'remember → {"remembered":{"text":"I like figs"}}',
      });
    },
  );

  it("says so when the tool is not offered or the arguments are not JSON", () => {
    expect(replyOf([msg("user", "/tool remember {}")])).toBe(
      "/tool: remember is not offered (offered: none).",
    );
    expect(replyOf([msg("user", "/tool remember {oops")], ["remember"])).toBe(
      "/tool: the arguments of remember are not JSON.",
    );
  });
});
