import { describe, expect, it } from "vitest";
import { type MemoryItem, SUMMARY_PREFIX } from "@/lib/memory";
import { createModel } from "./client";
import { type OfflineMessage, offlineReply, statedSubjects } from "./offline-model";
import {
  isSummaryRequest,
  MAX_SUMMARY_STATEMENTS,
  SUMMARY_REQUEST_MARK,
  summaryStatements,
  writeSummary,
} from "./offline-summary";
import { SUMMARY_INSTRUCTIONS, summarizeWithModel, summaryRequest } from "./summarize";

const user = (text: string): MemoryItem => ({ role: "user", text });
const assistant = (text: string): MemoryItem => ({ role: "assistant", text });
const system = (text: string): MemoryItem => ({ role: "system", text });
const summaryMessage = (text: string): OfflineMessage => system(`${SUMMARY_PREFIX}${text}`);

/** The offline model's summary of `messages`, merged with `previous`, from the exact request the app sends. */
function summarize(messages: MemoryItem[], previous?: string): string {
  return offlineReply(summaryRequest(previous === undefined ? { messages } : { previous, messages }));
}

describe("recognizing a summary request", () => {
  it("knows the instructions summarize.ts sends by their first line", () => {
    expect(SUMMARY_INSTRUCTIONS.split("\n")[0]?.startsWith(SUMMARY_REQUEST_MARK)).toBe(true);
    expect(isSummaryRequest(summaryRequest({ messages: [user("hi")] }))).toBe(true);
  });

  it("does not take a chat for one", () => {
    expect(isSummaryRequest([system("You are Recall."), user("Summarize our chat")])).toBe(false);
    // The instructions are recognized only as a system message.
    expect(isSummaryRequest([user(SUMMARY_INSTRUCTIONS)])).toBe(false);
  });
});

describe("the summary the offline model writes", () => {
  it("keeps the sentences that state facts, verbatim, one per line, in order", () => {
    const summary = summarize([
      user("Hi there!"),
      assistant("Hello! How can I help?"),
      user("My code word is 青云-4173. What's the weather like today?"),
      assistant("I can't see the weather. My code word is not yours."),
      user("I really like green tea, and I hate coffee."),
      assistant("Noted."),
      user("Please remember the phrase blue-harbor and reply only 'noted'"),
      assistant("noted"),
      user("What is my code word?"),
      assistant("Your code word is 青云-4173."),
    ]);
    expect(summary).toBe(
      [
        "User: My code word is 青云-4173.",
        "User: I really like green tea, and I hate coffee.",
        "User: Please remember the phrase blue-harbor and reply only 'noted'",
      ].join("\n"),
    );
  });

  it("keeps Chinese statements", () => {
    const summary = summarize([
      user("你好"),
      assistant("你好！"),
      user("我的暗号是松石-88。我最喜欢的颜色是蓝色。今天天气不错。"),
      assistant("好的"),
      user("我也很喜欢猫"),
      user("我的暗号是什么？"),
    ]);
    expect(summary).toBe(
      ["User: 我的暗号是松石-88。", "User: 我最喜欢的颜色是蓝色。", "User: 我也很喜欢猫"].join("\n"),
    );
  });

  it("reads a user message over several lines as one message", () => {
    expect(summarize([user("hello\nMy locker number is 5521\nthanks"), assistant("ok")])).toBe(
      "User: My locker number is 5521",
    );
  });

  it("merges the previous summary, older statements first", () => {
    const previous = "User: My code word is 青云-4173.\nUser: I like tea.";
    expect(summarize([user("My favourite colour is teal."), assistant("Nice.")], previous)).toBe(
      "User: My code word is 青云-4173.\nUser: I like tea.\nUser: My favourite colour is teal.",
    );
  });

  it("merges several previous summaries, as memory joins them (a blank line between)", () => {
    const previous = "User: My code word is 青云-4173.\n\nUser: I like tea.\nUser: My code word is amber-7.";
    expect(summarize([user("Hi")], previous)).toBe("User: I like tea.\nUser: My code word is amber-7.");
  });

  it("lets the latest statement of a subject replace the older one", () => {
    const previous = "User: My code word is 青云-4173.\nUser: I like tea.";
    expect(summarize([user("Actually, my code word is now amber-7."), assistant("ok")], previous)).toBe(
      "User: I like tea.\nUser: Actually, my code word is now amber-7.",
    );
    // Within one batch, and in Chinese.
    expect(summarize([user("我的暗号是松石-88"), user("我的暗号改成了青云-9"), user("我喜欢猫")])).toBe(
      "User: 我的暗号改成了青云-9\nUser: 我喜欢猫",
    );
    // The same request twice is kept once, at its newest place.
    expect(summarize([user("I like tea."), user("My dog's name is Rex."), user("I love tea.")])).toBe(
      "User: My dog's name is Rex.\nUser: I love tea.",
    );
  });

  it("keeps a sentence while it is still the newest statement of one of its subjects", () => {
    const summary = summarize([
      user("My name is Ann and my code word is A-1."),
      user("My code word is B-2."),
    ]);
    expect(summary).toBe("User: My name is Ann and my code word is A-1.\nUser: My code word is B-2.");
    // Read back, the newer line wins for the code word and the older one still gives the name.
    const context = [summaryMessage(summary), user("What is my code word?")];
    expect(offlineReply(context)).toBe("Your code word is B-2.");
    expect(offlineReply([summaryMessage(summary), user("What's my name?")])).toBe("Your name is Ann.");
  });

  it("is a fixed point: summarizing a summary with nothing new gives it back", () => {
    const summary = summarize([
      user("My code word is 青云-4173."),
      user("我喜欢猫"),
      user("Remember: orange-42"),
    ]);
    expect(summarize([], summary)).toBe(summary);
    expect(summarize([assistant("Anything else?")], summary)).toBe(summary);
  });

  it("counts the user messages when nothing is worth keeping, and carries the count", () => {
    expect(summarize([user("Hi"), assistant("Hello"), user("How are you?"), assistant("Fine")])).toBe(
      "User: talked about 2 other things.",
    );
    expect(summarize([user("Thanks!")])).toBe("User: talked about 1 other thing.");
    expect(summarize([user("Bye")], "User: talked about 2 other things.")).toBe(
      "User: talked about 3 other things.",
    );
    // Once a fact is stated, the summary holds the facts only.
    expect(summarize([user("My code word is X-1.")], "User: talked about 2 other things.")).toBe(
      "User: My code word is X-1.",
    );
  });

  it("is blank only when there was no user message at all", () => {
    expect(summarize([])).toBe("");
    expect(summarize([assistant("Hello")])).toBe("");
    expect(summarize([assistant("Hello")], "The user greeted the assistant.")).toBe("");
    expect(summarize([user("")])).toBe("User: talked about 1 other thing.");
  });

  it("reads a previous summary written by another model: its User lines count, other lines are ignored", () => {
    const previous =
      "- User: My code word is 青云-4173.\nAssistant: acknowledged it.\nUser: asked about the weather.";
    expect(summarize([user("ok")], previous)).toBe("User: My code word is 青云-4173.");
  });

  it("keeps the newest statements when there are too many", () => {
    const messages = Array.from({ length: MAX_SUMMARY_STATEMENTS + 5 }, (_, i) =>
      user(`My item ${i} is v${i}.`),
    );
    const lines = summarize(messages).split("\n");
    expect(lines).toHaveLength(MAX_SUMMARY_STATEMENTS);
    expect(lines[0]).toBe("User: My item 5 is v5.");
    expect(lines.at(-1)).toBe(
      `User: My item ${MAX_SUMMARY_STATEMENTS + 4} is v${MAX_SUMMARY_STATEMENTS + 4}.`,
    );
  });

  it("is deterministic", () => {
    const messages = [
      user("My code word is 青云-4173. I like tea."),
      assistant("ok"),
      user("我的暗号是松石-88"),
    ];
    const first = summarize(messages, "User: I love jazz.");
    for (let i = 0; i < 5; i++) expect(summarize(messages, "User: I love jazz.")).toBe(first);
    expect(writeSummary(["Messages to add:\nUser: I like tea."], statedSubjects)).toBe("User: I like tea.");
  });
});

describe("summaryStatements", () => {
  it("reads the User lines of a summary", () => {
    expect(
      summaryStatements("User: My code word is X.\nAssistant: ok\n* User: I like tea.\nUser:   \n"),
    ).toEqual(["My code word is X.", "I like tea."]);
    expect(summaryStatements("User: talked about 3 other things.")).toEqual([]);
  });
});

describe("recall through a summary", () => {
  it("recalls a fact, a name, a like and a phrase that only a summary holds", () => {
    const summary = [
      "User: My name is Ann.",
      "User: My code word is 青云-4173.",
      "User: I really like green tea.",
      "User: Memory check: remember the phrase silver-fox and reply only 'noted'",
      "User: 我的暗号是松石-88。",
    ].join("\n");
    const ask = (question: string) =>
      offlineReply([
        system("You are Recall."),
        summaryMessage(summary),
        user("Hello"),
        assistant("Hi"),
        user(question),
      ]);
    expect(ask("What is my code word?")).toBe("Your code word is 青云-4173.");
    expect(ask("我的暗号是什么？")).toBe("你的暗号是松石-88。");
    expect(ask("What's my name?")).toBe("Your name is Ann.");
    expect(ask("What do I like?")).toBe("You like green tea.");
    expect(ask("What phrase did I ask you to remember?")).toBe(
      "The phrase you asked me to remember is silver-fox.",
    );
  });

  it("does not count summary lines as messages", () => {
    const reply = offlineReply([summaryMessage("User: My code word is X."), user("Tell me a story")]);
    expect(reply).toBe('Offline model reply to: "Tell me a story" (I saw 0 earlier messages.)');
    expect(offlineReply([summaryMessage("User: My code word is X."), user("What did I say first?")])).toBe(
      "I don't know — I can't see any earlier message from you in this conversation.",
    );
  });

  it("never reads facts from the system prompt or any other system message", () => {
    for (const text of [
      "User: My code word is 青云-4173.",
      "My code word is 青云-4173.",
      `x${SUMMARY_PREFIX}User: My code word is 青云-4173.`,
    ]) {
      expect(offlineReply([system(text), user("What is my code word?")])).toBe(
        "I don't know your code word — you haven't told me in this conversation.",
      );
    }
    expect(
      offlineReply([
        system("User: remember the phrase silver-fox"),
        user("What phrase did I ask you to remember?"),
      ]),
    ).toBe("I don't know — nothing in this conversation asked me to remember a phrase.");
  });

  it("lets a later user message win over the summary, wherever the summary is placed", () => {
    const summary = summaryMessage("User: My code word is 青云-4173.\nUser: I like tea.");
    const later = [user("My code word is amber-7."), assistant("ok")];
    expect(offlineReply([summary, ...later, user("What is my code word?")])).toBe(
      "Your code word is amber-7.",
    );
    expect(offlineReply([...later, summary, user("What is my code word?")])).toBe(
      "Your code word is amber-7.",
    );
    // Likes are listed oldest first: the summary's come before the messages'.
    expect(offlineReply([summary, user("I love jazz."), user("What do I like?")])).toBe(
      "You like tea and love jazz.",
    );
  });

  it("recalls a fact from turn 1 at turn 15 with a window of 4 only because of the summary", () => {
    const history: MemoryItem[] = [user("My code word is 青云-4173."), assistant("Got it.")];
    for (let turn = 2; turn < 15; turn++)
      history.push(user(`Tell me fact number ${turn}.`), assistant(`Fact ${turn}.`));
    const window = history.slice(-4);
    const dropped = history.slice(0, -4);
    const question = user("What is my code word?");
    // Summarized in two steps, as memory does: the second merges the first.
    const first = summarize(dropped.slice(0, 10));
    const summary = summarize(dropped.slice(10), first);
    expect(summary).toBe("User: My code word is 青云-4173.");
    expect(offlineReply([system("You are Recall."), summaryMessage(summary), ...window, question])).toBe(
      "Your code word is 青云-4173.",
    );
    expect(offlineReply([system("You are Recall."), ...window, question])).toBe(
      "I don't know your code word — you haven't told me in this conversation.",
    );
  });
});

describe("summarizeWithModel with the offline model", () => {
  const input = {
    previous: "User: My code word is 青云-4173.\nUser: I like tea.",
    messages: [
      user("我的暗号是松石-88"),
      assistant("好的"),
      user("Actually, my code word is now amber-7. What time is it?"),
      assistant("I don't know."),
    ],
  };
  const expected = "User: I like tea.\nUser: 我的暗号是松石-88\nUser: Actually, my code word is now amber-7.";

  it.each(["chat", "responses"] as const)(
    "returns the summary through the %s API, streamed",
    async (style) => {
      const model = createModel({ style, offlineTokenDelayMs: 1 });
      expect(await summarizeWithModel(input, undefined, model)).toBe(expected);
      expect(await summarizeWithModel(input, undefined, model)).toBe(expected);
    },
  );
});
