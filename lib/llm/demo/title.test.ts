import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/memory";
import { TITLE_INSTRUCTIONS } from "../title-instructions";
import { demoAnswer, demoReply as offlineReply } from ".";
import { isTitleRequest, titleOf, titleRequestParts, writeTitle } from "./title";

const user = (text: string): MemoryItem => ({ role: "user", text });
const system = (text: string): MemoryItem => ({ role: "system", text });
const request = (question: string, answer = "Some answer.") => [
  system(TITLE_INSTRUCTIONS),
  user(`Question:\n${question}\n\nAnswer:\n${answer}`),
];

describe("recognizing a title request", () => {
  it("knows one by the first line of a system message", () => {
    expect(isTitleRequest(request("What is my name?"))).toBe(true);
    expect(isTitleRequest([system("You are Recall."), user("Give this chat a title")])).toBe(false);
    expect(isTitleRequest([user(TITLE_INSTRUCTIONS)])).toBe(false);
  });

  it("reads the question and the answer back from the request", () => {
    expect(titleRequestParts(request("Line one\nline two", "The answer.\n\nAnswer:\nnot a heading"))).toEqual(
      {
        question: "Line one\nline two",
        answer: "The answer.\n\nAnswer:\nnot a heading",
      },
    );
    expect(titleRequestParts([user("just text")])).toEqual({ question: "just text", answer: "" });
  });
});

describe("the title the offline model writes", () => {
  it("keeps a short first sentence as it is, without its full stop", () => {
    expect(titleOf("My name is Ada.")).toBe("My name is Ada");
    expect(titleOf("What is my name?")).toBe("What is my name");
  });

  it("drops greetings and politeness, and capitalizes what is left", () => {
    expect(titleOf("Hi! Can you please tell me a joke about cats?")).toBe("Tell me a joke about cats");
    expect(titleOf("hello, could you tell me a joke about cats?")).toBe("Tell me a joke about cats");
    expect(titleOf("Please explain how binary search works on sorted arrays today")).toBe(
      "Explain how binary search works",
    );
  });

  it("has at most six words and never ends on a little word", () => {
    const title = titleOf("Write a short checklist for moving to a new flat in Lisbon next spring");
    expect(title).toBe("Write a short checklist for moving");
    expect(title.split(" ").length).toBeLessThanOrEqual(6);
    expect(titleOf("Tell me about the history of the Roman empire")).toBe("Tell me about the history");
    expect(titleOf("The")).toBe("The");
  });

  it("takes the first line of markdown without its markers and quotes", () => {
    expect(titleOf('## "Fix" the `build`\nmore text')).toBe("Fix the build");
    expect(titleOf("- first item\n- second")).toBe("First item");
  });

  it("cuts a text without spaces at 60 characters", () => {
    const title = titleOf("我".repeat(100));
    expect(title.length).toBe(60);
    expect(title.endsWith("…")).toBe(true);
    expect(titleOf("我的名字是小明。你好")).toBe("我的名字是小明");
  });

  it("names the conversation from the answer when the question has no words, and is blank with neither", () => {
    expect(writeTitle(request("📎", "A photo of a red bicycle."))).toBe("A photo of a red bicycle");
    expect(writeTitle(request("", ""))).toBe("");
  });

  it("is what the demo answers a title request with, and never plans a tool call for it", () => {
    const messages = request("Remember that my code word is heron");
    expect(offlineReply(messages)).toBe("Remember that my code word");
    const wire = messages.map((m) => ({ ...m, images: [], calls: [] }));
    expect(demoAnswer({ messages: wire, tools: ["remember", "search_memories"] })).toEqual({
      reply: "Remember that my code word",
    });
  });

  it("is deterministic", () => {
    const messages = request("Plan a three-day trip to Lisbon with a small budget");
    expect(offlineReply(messages)).toBe(offlineReply(messages));
    expect(offlineReply(messages)).toBe("Plan a three-day trip to Lisbon");
  });
});
