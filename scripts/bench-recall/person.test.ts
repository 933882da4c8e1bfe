import { describe, expect, it } from "vitest";
import { secondPerson, thirdPerson } from "./person";

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
