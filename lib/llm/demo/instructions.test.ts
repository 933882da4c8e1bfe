import { describe, expect, it } from "vitest";
import { instructionItems } from "@/lib/memory";
import { demoReply } from ".";

// The offline model and the instruction items sent after the system prompt: read like the system prompt — never as
// notes about the user, never breaking a reply — however they are worded.

const sent = instructionItems({
  aboutMe: "- I like tea\nMy name is Ana.",
  howToAnswer: "How to answer: reply in French.\n- be brief",
  systemPrompt: "Rules:\n- you are a pirate",
}).map((i) => ({ role: i.item.role, text: i.item.text }));

const ask = (text: string, before: { role: string; text: string }[] = []) =>
  demoReply([{ role: "system", text: "You are Recall." }, ...before, { role: "user", text }]);

describe("the offline model with instructions", () => {
  it("answers exactly as without them", () => {
    for (const q of [
      "Hello there",
      "What do you know about me?",
      "What is my name?",
      "What did I say first?",
    ]) {
      expect(ask(q, sent)).toBe(ask(q));
    }
  });

  it("still reads the conversation and the long-term notes sent beside them", () => {
    const notes = { role: "system", text: "Long-term memory about the user:\n- likes green tea" };
    expect(ask("What do you know about me?", [...sent, notes])).toContain("likes green tea");
    expect(ask("What do you know about me?", [...sent, notes])).not.toContain("pirate");
  });
});
