import { describe, expect, it } from "vitest";
import { LONG_TERM_HEADER } from "@/lib/memory";
import { offeredTools, offlineStep } from "./offline-model";
import { aboutMe, factToRemember, plannedCalls, replyAfterTools } from "./offline-tools";

const ALL = new Set(["remember", "forget", "search_memories", "current_time"]);
const section = (...facts: string[]) => ({
  role: "system",
  text: [`${LONG_TERM_HEADER}: facts …`, ...facts.map((f, i) => `- [f${i}] ${f}`)].join("\n"),
});
const user = (text: string) => ({ role: "user", text });

describe("the offline model's tool calls", () => {
  it("remembers what it is asked to remember, in English and Chinese", () => {
    expect(factToRemember("Remember that my favourite colour is teal.")).toBe("My favourite colour is teal");
    expect(factToRemember("Please remember that I live in Lisbon")).toBe("I live in Lisbon");
    expect(factToRemember("记住我最喜欢的颜色是蓝色。")).toBe("我最喜欢的颜色是蓝色");
    expect(factToRemember("I can't remember that song")).toBeNull();
    expect(plannedCalls("Remember that my favourite colour is teal", ALL, [])).toEqual([
      { name: "remember", arguments: { fact: "My favourite colour is teal" } },
    ]);
  });

  it("only calls what it was offered", () => {
    expect(plannedCalls("Remember that my favourite colour is teal", new Set(["current_time"]), [])).toEqual(
      [],
    );
    expect(plannedCalls("what time is it?", new Set(), [])).toEqual([]);
  });

  it("updates a fact when a statement changes a subject long-term memory holds", () => {
    const messages = [section("My favourite colour is teal")];
    expect(plannedCalls("my favourite colour is now amber", ALL, messages)).toEqual([
      { name: "remember", arguments: { fact: "My favourite colour is amber" } },
    ]);
    // Nothing to update: no such subject, or the same fact.
    expect(plannedCalls("my favourite food is ramen", ALL, messages)).toEqual([]);
    expect(plannedCalls("my favourite colour is teal", ALL, messages)).toEqual([]);
    expect(plannedCalls("my favourite colour is now amber", ALL, [])).toEqual([]);
  });

  it("forgets, searches and tells the time", () => {
    expect(plannedCalls("Forget my favourite colour", ALL, [])).toEqual([
      { name: "forget", arguments: { memory: "my favourite colour" } },
    ]);
    expect(plannedCalls("忘记我的生日", ALL, [])).toEqual([
      { name: "forget", arguments: { memory: "我的生日" } },
    ]);
    expect(plannedCalls("Search my memories for colour", ALL, [])).toEqual([
      { name: "search_memories", arguments: { query: "colour" } },
    ]);
    expect(plannedCalls("What time is it?", ALL, [])).toEqual([{ name: "current_time", arguments: {} }]);
  });

  it("answers from the tool results after the question, and stops calling unless told to keep checking", () => {
    const remembered = JSON.stringify({
      remembered: { id: "f1", text: "My favourite colour is amber" },
      replaced: [{ id: "f0", text: "My favourite colour is teal" }],
    });
    const messages = [
      user("my favourite colour is now amber"),
      { role: "assistant", text: "" },
      { role: "tool", text: remembered },
    ];
    expect(offlineStep(messages, ALL)).toEqual({
      reply:
        "Got it — I'll remember: My favourite colour is amber. This replaces: My favourite colour is teal.",
    });
    const time = [
      user("keep checking the time"),
      { role: "assistant", text: "" },
      { role: "tool", text: '{"now":"x"}' },
    ];
    expect(offlineStep(time, ALL)).toEqual({ calls: [{ name: "current_time", arguments: {} }] });
    expect(replyAfterTools("记住我的生日是五月", [JSON.stringify({ error: "boom" })])).toBe(
      "工具出错了：boom",
    );
  });

  it("recalls from the long-term section, and says what it knows", () => {
    const messages = [
      section("My favourite colour is teal", "I live in Lisbon"),
      user("What is my favourite colour?"),
    ];
    expect(offlineStep(messages, ALL)).toEqual({ reply: "Your favourite colour is teal." });
    expect(aboutMe("What do you know about me?", messages)).toBe(
      "Here is what I remember about you:\n- My favourite colour is teal\n- I live in Lisbon",
    );
    expect(aboutMe("What do you know about me?", [])).toMatch(/^I don't have any long-term memories/);
  });

  it("reads the offered tools from both request shapes, and none under tool_choice none", () => {
    expect(offeredTools({ tools: [{ type: "function", function: { name: "remember" } }] })).toEqual(
      new Set(["remember"]),
    );
    expect(offeredTools({ tools: [{ type: "function", name: "forget" }] })).toEqual(new Set(["forget"]));
    expect(offeredTools({ tools: [{ type: "function", name: "forget" }], tool_choice: "none" })).toEqual(
      new Set(),
    );
  });
});
