import { describe, expect, it } from "vitest";
import { extractFacts, normaliseSubject, parseFactQuestion, splitSentences } from "./offline-facts";
import { type OfflineMessage, offlineReply } from "./offline-model";

const user = (text: string): OfflineMessage => ({ role: "user", text });
const assistant = (text: string): OfflineMessage => ({ role: "assistant", text });
const system = (text: string): OfflineMessage => ({ role: "system", text });

/** Each statement as a user turn answered by the model, then `question`. */
function ask(statements: string[], question: string): string {
  return offlineReply([
    system("You are Recall."),
    ...statements.flatMap((s) => [user(s), assistant("ok")]),
    user(question),
  ]);
}

describe("the newcomer's first try", () => {
  it("recalls the code word 青云-4173", () => {
    expect(ask(["My code word is 青云-4173"], "What is my code word?")).toBe("Your code word is 青云-4173.");
  });

  it("recalls a Chinese code word in Chinese", () => {
    expect(ask(["我的暗号是松石-88"], "我的暗号是什么？")).toBe("你的暗号是松石-88。");
  });

  it("forgets it when the statement is not in the request", () => {
    expect(offlineReply([user("What is my code word?")])).toBe(
      "I don't know your code word — you haven't told me in this conversation.",
    );
    expect(offlineReply([user("我的暗号是什么？")])).toBe("我不知道你的暗号——你在这段对话里没有告诉过我。");
  });
});

describe("English attributes", () => {
  it.each([
    "What is my code word?",
    "what is my code word",
    "What's my code word?",
    "What’s my code word？",
    "What was my code word?",
    "So, what is my code word again?",
    "Do you know my code word?",
    "Do you remember my code word?",
    "Do you still remember what my code word is?",
    "Can you tell me my code word?",
    "Tell me my code word.",
    "Hi! What is my code word?",
  ])("answers %s", (question) => {
    expect(ask(["My code word is 青云-4173"], question)).toContain("青云-4173");
  });

  it.each([
    ["My favourite colour is teal", "What is my favourite colour?", "Your favourite colour is teal."],
    ["my favorite color is teal.", "What's my favourite colour?", "Your favourite colour is teal."],
    ["My Favourite Colour is teal!", "what is my FAVORITE color?", "Your FAVORITE color is teal."],
    ["My dog's name is Rex", "What's my dog's name?", "Your dog's name is Rex."],
    ["my locker number is 5521", "What is my locker number?", "Your locker number is 5521."],
    ["My version is v1.2.3.", "What is my version?", "Your version is v1.2.3."],
    ['My password is "open sesame".', "What is my password?", "Your password is open sesame."],
    [
      "My favourite colours are teal and amber",
      "What are my favourite colours?",
      "Your favourite colours are teal and amber.",
    ],
    ["The wifi password is hunter2.", "What's the wifi password?", "The wifi password is hunter2."],
    ["Our meeting room is B12", "What is our meeting room?", "Our meeting room is B12."],
    ["Code word is 42", "What is my code word?", "Your code word is 42."],
  ])("%s → %s", (statement, question, answer) => {
    expect(ask([statement], question)).toBe(answer);
  });

  it("finds several facts in one message, each up to its clause", () => {
    const statement = "Hi, my name is Ada and my code word is 42, and I like green tea.";
    expect(ask([statement], "What is my code word?")).toBe("Your code word is 42.");
    expect(ask([statement], "What is my name?")).toBe("Your name is Ada.");
    expect(ask([statement], "What do I like?")).toBe("You like green tea.");
  });

  it("finds a fact said in passing or inside a remember request", () => {
    expect(ask(["Ok so my train is at 9:40, thanks"], "What is my train?")).toBe("Your train is at 9:40.");
    expect(ask(["Remember: my code word is kiwi-7"], "What's my code word?")).toBe(
      "Your code word is kiwi-7.",
    );
  });

  it("does not confuse my code word with my code", () => {
    const both = ["My code is 1234", "My code word is 青云-4173"];
    expect(ask(both, "What is my code?")).toBe("Your code is 1234.");
    expect(ask(both, "What is my code word?")).toBe("Your code word is 青云-4173.");
    expect(ask(["My code word is 青云-4173"], "What is my code?")).toBe(
      "I don't know your code — you haven't told me in this conversation.",
    );
    expect(ask(["My code is 1234"], "What is my code word?")).toContain("I don't know");
  });

  it("ignores subjects that are not subjects", () => {
    expect(extractFacts("I think it is raining. This is great. What is that? There is a cat.")).toEqual([]);
    expect(extractFacts("My sister and I are twins.")).toEqual([]);
    expect(ask(["It is 42"], "What is my it?")).not.toContain("42");
  });

  it("says it does not know a personal fact nobody stated", () => {
    expect(ask(["Tell me about tea."], "What is my favourite colour?")).toBe(
      "I don't know your favourite colour — you haven't told me in this conversation.",
    );
  });

  it("leaves general questions about 'the X' to the usual reply when no statement names it", () => {
    expect(ask([], "What is the capital of France?")).toBe(
      'Offline model reply to: "What is the capital of France?" (I saw 0 earlier messages.)',
    );
  });
});

describe("likes", () => {
  it.each(["What do I like?", "what do i like", "What did I say I love?", "Do you know what I like？"])(
    "answers %s",
    (question) => {
      expect(ask(["I like green tea."], question)).toBe("You like green tea.");
    },
  );

  it("lists every like, in the order said, without repeats", () => {
    const said = ["I like green tea and I love jazz", "I really enjoy hiking.", "I like green tea"];
    expect(ask(said, "What do I like?")).toBe("You love jazz, enjoy hiking and like green tea.");
  });

  it("does not count dislikes, wishes or questions", () => {
    for (const text of ["I don't like tea", "I'd like a coffee", "I would like to ask", "Do I like tea?"]) {
      expect(extractFacts(text), text).toEqual([]);
    }
    expect(extractFacts("What I like is cake")).toEqual([]);
    expect(ask(["I don't like tea"], "What do I like?")).toBe(
      "I don't know what you like — you haven't told me in this conversation.",
    );
  });
});

describe("Chinese", () => {
  it.each([
    "我的暗号是什么？",
    "我的暗号是什么?",
    "我的暗号是啥",
    "我的暗号是什么来着？",
    "那我的暗号是什么呢？",
    "你知道我的暗号吗？",
    "你还记得我的暗号是什么吗",
  ])("answers %s", (question) => {
    expect(ask(["我的暗号是松石-88"], question)).toBe("你的暗号是松石-88。");
  });

  it.each([
    ["我最喜欢的颜色是蓝色。", "我最喜欢的颜色是什么？", "你最喜欢的颜色是蓝色。"],
    ["我的猫叫咪咪", "我的猫是什么？", "你的猫是咪咪。"],
    ["我的电话号码是 138-0000，记住哦", "我的电话号码是多少？", "你的电话号码是138-0000。"],
    ["我的暗号改成了青云-9了", "我的暗号是什么？", "你的暗号是青云-9。"],
  ])("%s → %s", (statement, question, answer) => {
    expect(ask([statement], question)).toBe(answer);
  });

  it("recalls likes and says when it knows none", () => {
    expect(ask(["我喜欢猫和狗", "我也很爱喝茶。"], "我喜欢什么？")).toBe("你喜欢猫和狗，也爱喝茶。");
    expect(ask(["我不喜欢下雨"], "我喜欢什么？")).toBe("我不知道你喜欢什么——你在这段对话里没有告诉过我。");
    expect(extractFacts("我最喜欢的颜色是蓝色")).toEqual([
      { kind: "attribute", lang: "zh", key: "最喜欢的颜色", value: "蓝色" },
    ]);
  });

  it("answers in the language of the question", () => {
    const said = ["My code word is 青云-4173", "我的暗号是松石-88"];
    expect(ask(said, "What is my code word?")).toBe("Your code word is 青云-4173.");
    expect(ask(said, "我的暗号是什么？")).toBe("你的暗号是松石-88。");
    expect(ask(["My code word is 青云-4173"], "我的暗号是什么？")).toContain("不知道");
  });
});

describe("the latest statement wins", () => {
  it("across messages, with 'now'", () => {
    const said = ["My favourite colour is teal.", "Tell me a joke.", "My favourite colour is now amber."];
    expect(ask(said, "What is my favourite colour?")).toBe("Your favourite colour is amber.");
    expect(
      ask(
        ["My favourite colour is teal.", "Now my favourite colour is amber"],
        "What's my favourite colour?",
      ),
    ).toBe("Your favourite colour is amber.");
    expect(
      ask(
        ["My favourite colour is teal.", "My favourite colour is amber now."],
        "What's my favourite colour?",
      ),
    ).toBe("Your favourite colour is amber.");
  });

  it("within one message", () => {
    expect(ask(["My code word is alpha. Actually, my code word is beta."], "What is my code word?")).toBe(
      "Your code word is beta.",
    );
  });

  it("in Chinese, with 现在", () => {
    expect(ask(["我的暗号是松石-88", "我的暗号现在是青云-1"], "我的暗号是啥")).toBe("你的暗号是青云-1。");
  });

  it("over an older remember request for another thing", () => {
    expect(ask(["My code word is 青云-4173", "remember the phrase kiwi"], "What is my code word?")).toBe(
      "Your code word is 青云-4173.",
    );
  });
});

describe("sources: earlier user messages only", () => {
  it("never uses the system prompt or assistant replies", () => {
    const messages = [
      system("My code word is SYSTEM-1. 我的暗号是SYSTEM-2。I like system prompts."),
      user("hello"),
      assistant("My code word is ASSISTANT-1. 我的暗号是ASSISTANT-2。I like being helpful."),
    ];
    expect(offlineReply([...messages, user("What is my code word?")])).toContain("I don't know");
    expect(offlineReply([...messages, user("我的暗号是什么？")])).toContain("不知道");
    expect(offlineReply([...messages, user("What do I like?")])).toContain("I don't know");
    for (const q of ["What is my code word?", "我的暗号是什么？", "What do I like?"]) {
      expect(offlineReply([...messages, user(q)])).not.toMatch(/SYSTEM|ASSISTANT/);
    }
  });

  it("never uses the question itself", () => {
    expect(offlineReply([user("My code word is 42. What is my code word?")])).toContain("I don't know");
    expect(offlineReply([user("我的暗号是松石-88，我的暗号是什么？")])).toContain("不知道");
  });

  it("never treats an earlier question as a statement", () => {
    expect(ask(["Do you know if my flight is late?"], "What is my flight?")).toContain("I don't know");
    expect(ask(["我的暗号是啥"], "我的暗号是什么？")).toContain("不知道");
    expect(ask(["你知道我的暗号是松石吗"], "我的暗号是什么？")).toContain("不知道");
  });

  it("uses only what is in the request (a memory window that dropped the statement)", () => {
    const full = [user("My code word is 青云-4173"), assistant("ok"), user("What is my code word?")];
    expect(offlineReply(full)).toContain("青云-4173");
    expect(offlineReply(full.slice(1))).toContain("I don't know");
  });

  it("is deterministic", () => {
    const messages = [user("My code word is 青云-4173"), user("I like tea"), user("What is my code word?")];
    expect(new Set(Array.from({ length: 5 }, () => offlineReply(messages))).size).toBe(1);
  });
});

describe("statements stay answered by the labelled test double", () => {
  it("replies to a statement with the synthetic reply", () => {
    expect(offlineReply([user("My code word is 青云-4173")])).toBe(
      'Offline model reply to: "My code word is 青云-4173" (I saw 0 earlier messages.)',
    );
  });
});

describe("helpers", () => {
  it("splits sentences at end punctuation, not inside values", () => {
    expect(splitSentences("My version is v1.2.3. I like tea!\nOk？我的暗号是A。好")).toEqual([
      "My version is v1.2.3.",
      "I like tea!",
      "Ok？",
      "我的暗号是A。",
      "好",
    ]);
  });

  it("normalises subjects case- and spelling-insensitively", () => {
    expect(normaliseSubject("The Favorite  Color")).toBe("favourite colour");
    expect(normaliseSubject("my Code Word")).toBe("code word");
    expect(normaliseSubject("it")).toBeNull();
    expect(normaliseSubject("what")).toBeNull();
    expect(normaliseSubject("42")).toBeNull();
  });

  it("parses the last question of a message", () => {
    expect(parseFactQuestion("Thanks! What's my code word?")).toMatchObject({ key: "code word", lang: "en" });
    expect(parseFactQuestion("我的暗号是什么？")).toMatchObject({ key: "的暗号", lang: "zh" });
    expect(parseFactQuestion("What do I like?")).toEqual({ kind: "like", lang: "en" });
    expect(parseFactQuestion("How are you?")).toBeNull();
  });
});
