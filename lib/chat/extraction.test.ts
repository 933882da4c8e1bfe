import { describe, expect, it } from "vitest";
import { demoAnswer } from "@/lib/llm/demo";
import { statedFacts } from "@/lib/llm/demo/extract";
import { EXTRACTION_MAX_CHARS, EXTRACTION_MAX_FACTS } from "@/lib/llm/extraction-instructions";
import { ExtractionParseError, extractionRequest, factKey, parseExtractedFacts } from "./extraction";

describe("the demo model's extraction", () => {
  const ask = (message: string) => {
    const messages = extractionRequest(message).map((m) => ({ role: m.role, text: m.text }));
    const answer = demoAnswer({ messages, tools: [] } as never);
    return "reply" in answer ? parseExtractedFacts(answer.reply ?? "") : [];
  };

  it("answers a real extraction request with JSON of the facts stated", () => {
    expect(ask("I'm vegetarian and I live in Lyon")).toEqual(["I'm vegetarian", "I live in Lyon"]);
    expect(ask("My favourite colour is teal. I prefer tea over coffee!")).toEqual([
      "My favourite colour is teal",
      "I prefer tea over coffee",
    ]);
    expect(ask("Hi, I am a nurse, and I like hiking")).toEqual(["I am a nurse", "I like hiking"]);
  });

  it("reads the Chinese forms", () => {
    expect(ask("我是程序员，我住在上海。我喜欢爬山")).toEqual(["我是程序员", "我住在上海", "我喜欢爬山"]);
    expect(ask("我的猫是橘猫")).toEqual(["我的猫是橘猫"]);
  });

  it("finds nothing in questions, remarks about the moment and remember requests", () => {
    expect(ask("What is my favourite colour?")).toEqual([]);
    expect(ask("I'm not sure, I'm looking for a recipe")).toEqual([]);
    expect(ask("Remember that my code word is kiwi")).toEqual([]);
    expect(ask("你住在哪里吗？")).toEqual([]);
    expect(statedFacts("The weather is nice")).toEqual([]);
  });

  it("is not an extraction without the instructions: a plain question is answered as usual", () => {
    const answer = demoAnswer({ messages: [{ role: "user", text: "I live in Lyon" }], tools: [] } as never);
    expect("reply" in answer && answer.reply).not.toContain("facts");
  });
});

describe("parseExtractedFacts", () => {
  it("reads the JSON shape, fenced or with prose around it, and bare lists", () => {
    expect(parseExtractedFacts('{"facts":[{"text":"I live in Lyon"}]}')).toEqual(["I live in Lyon"]);
    expect(parseExtractedFacts('Sure:\n```json\n{"facts":[{"text":" I  am  vegan "}]}\n```')).toEqual([
      "I am vegan",
    ]);
    expect(parseExtractedFacts('Here: {"facts":["I like jazz"]} done')).toEqual(["I like jazz"]);
    expect(parseExtractedFacts('[{"text":"I like jazz"}]')).toEqual(["I like jazz"]);
    expect(parseExtractedFacts('{"facts":[]}')).toEqual([]);
  });

  it("drops blanks, non-strings, duplicates and over-long facts, and caps the count", () => {
    const long = "x".repeat(EXTRACTION_MAX_CHARS + 1);
    expect(
      parseExtractedFacts(
        JSON.stringify({ facts: ["", 3, null, { text: long }, "I like jazz", "i like jazz."] }),
      ),
    ).toEqual(["I like jazz"]);
    const many = Array.from({ length: 20 }, (_, i) => ({ text: `Fact ${i}` }));
    expect(parseExtractedFacts(JSON.stringify({ facts: many }))).toHaveLength(EXTRACTION_MAX_FACTS);
  });

  it("refuses answers that are not of that shape", () => {
    expect(() => parseExtractedFacts("I found: you live in Lyon")).toThrow(ExtractionParseError);
    expect(() => parseExtractedFacts('{"memories":[]}')).toThrow(ExtractionParseError);
    expect(() => parseExtractedFacts("null")).toThrow(ExtractionParseError);
  });

  it("factKey ignores case, spacing and the final full stop", () => {
    expect(factKey("I live in  Lyon.")).toBe(factKey("i live in lyon"));
  });
});
