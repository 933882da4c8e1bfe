import { describe, expect, it } from "vitest";
import { addressedByName, labelledByName, secondPerson, thirdPerson } from "./person";

describe("questions about another speaker", () => {
  it("asks the assistant in the second person", () => {
    expect(secondPerson("What language am I trying to pick up?")).toBe(
      "What language are you trying to pick up?",
    );
    expect(secondPerson("Where did I work before I changed jobs?")).toBe(
      "Where did you work before you changed jobs?",
    );
    expect(secondPerson("My dog? What's our pup called again?")).toBe(
      "Your dog? What's your pup called again?",
    );
    expect(secondPerson("我们给那只小动物起的名字是什么？我的车呢")).toBe(
      "你们给那只小动物起的名字是什么？你的车呢",
    );
  });

  it("asks about a third person by name, with no pronoun of either speaker left", () => {
    const asked = [
      "Which city am I based in at the moment?",
      "When did my partner and I celebrate our anniversary?",
      "Is there anything I can't eat for medical reasons?",
      "Remind me what my puppy's name is?",
      "I've been growing what on my plot?",
      "换工作之前我在哪儿工作？",
    ].map(thirdPerson);
    expect(asked[0]).toBe("Which city is Sam based in at the moment?");
    expect(asked[4]).toBe("Sam has been growing what on Sam's plot?");
    for (const q of asked) {
      expect(q).not.toMatch(/\b(I|me|my|we|our|us|you|your)\b/i);
      expect(q).not.toMatch(/[我你]/);
    }
  });
});

describe("speakers who address each other by name", () => {
  const messages = Array.from({ length: 20 }, (_, i) => ({
    seq: i + 1,
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    text: i % 2 === 0 ? "I adopted a terrier." : "That sounds great!",
  }));

  it("names the one asked about in the other speaker's messages, and the other in theirs", () => {
    const out = addressedByName(messages, "user", "en");
    const byUser = out.filter((m) => m.role === "user" && m.text !== "I adopted a terrier.");
    const byAssistant = out.filter((m) => m.role === "assistant" && m.text !== "That sounds great!");
    expect(byUser.map((m) => m.text)).toEqual([
      "Alex, I adopted a terrier.",
      "I adopted a terrier. Thanks, Alex!",
    ]);
    expect(byAssistant.map((m) => m.text)).toEqual([
      "Sam, that sounds great!",
      "That sounds great! Thanks, Sam!",
    ]);
    expect(out.filter((m, i) => m.text !== messages[i]?.text)).toHaveLength(4);
  });

  it("swaps the names when the assistant is asked about, and writes Chinese vocatives", () => {
    const out = addressedByName(messages, "assistant", "zh");
    expect(out.filter((m) => m.text.startsWith("小林，")).every((m) => m.role === "user")).toBe(true);
    expect(out.filter((m) => m.text.startsWith("老陈，")).every((m) => m.role === "assistant")).toBe(true);
    expect(out.filter((m) => m.text.startsWith("小林，"))).toHaveLength(2);
  });
});

describe("speakers' labels", () => {
  it("opens every message with its speaker's name", () => {
    const out = labelledByName(
      [
        { role: "user" as const, text: "I adopted a terrier." },
        { role: "assistant" as const, text: "Lovely!" },
      ],
      "user",
      "en",
    );
    expect(out.map((m) => m.text)).toEqual(["Sam: I adopted a terrier.", "Alex: Lovely!"]);
    expect(labelledByName([{ role: "assistant" as const, text: "好的" }], "user", "zh")[0]?.text).toBe(
      "老陈：好的",
    );
  });
});
