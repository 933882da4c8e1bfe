import { describe, expect, it } from "vitest";
import en from "@/messages/en/chat.json";
import zh from "@/messages/zh-CN/chat.json";
import type { WireMessage } from "../wire";
import { demoAnswer } from ".";

// The four example prompts of an empty chat are what a newcomer tries first in `npm run demo`: each gets an answer
// of its own from the offline model (none is echoed back), in both languages.

const msg = (role: WireMessage["role"], text: string): WireMessage => ({ role, text, images: [], calls: [] });
const PROMPT = msg("system", "You are Recall, a helpful assistant.");
const TOOLS = ["remember", "search_memories", "forget", "current_time"];
const examples = (list: typeof en.list) => [list.example1, list.example2, list.example3, list.example4];

describe("the example prompts in the offline demo", () => {
  for (const [locale, list] of [
    ["en", en.list],
    ["zh-CN", zh.list],
  ] as const) {
    it(`${locale}: none is echoed, in a new chat and after the first example`, () => {
      for (const q of examples(list)) {
        for (const before of [[], [msg("user", list.example1), msg("assistant", "ok")]]) {
          const answer = demoAnswer({ messages: [PROMPT, ...before, msg("user", q)], tools: TOOLS });
          const text = "reply" in answer ? answer.reply : JSON.stringify(answer.calls);
          expect(text, q).not.toMatch(/Offline model reply to/);
        }
      }
    });
  }

  it("a recap lists what the user said here, oldest first, and only that", () => {
    const reply = (messages: WireMessage[]) => {
      const a = demoAnswer({ messages, tools: [] });
      return "reply" in a ? a.reply : "";
    };
    const recap = "Summarise what we have talked about so far.";
    expect(reply([PROMPT, msg("user", recap)])).toMatch(/^We haven't talked about anything yet/);
    expect(
      reply([
        PROMPT,
        msg("user", "I like tea."),
        msg("assistant", "ok"),
        msg("user", "And cake."),
        msg("user", recap),
      ]),
    ).toBe("So far you said:\n- I like tea.\n- And cake.");
    expect(reply([PROMPT, msg("user", "我喜欢茶。"), msg("user", zh.list.example4)])).toBe(
      "到目前为止你说了：\n- 我喜欢茶。",
    );
  });
});
