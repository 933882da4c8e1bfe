import { describe, expect, it } from "vitest";
import {
  chatRequestMessages,
  chunkReply,
  estimateTokens,
  type OfflineMessage,
  offlineReply,
  parseRememberRequest,
  responsesRequestMessages,
} from "./offline-model";

const user = (text: string): OfflineMessage => ({ role: "user", text });
const assistant = (text: string): OfflineMessage => ({ role: "assistant", text });
const system = (text: string): OfflineMessage => ({ role: "system", text });

const MEMORY_CHECK = "Memory check: remember the phrase 青云-4173 and reply only 'noted'";

describe("offlineReply: remember requests", () => {
  it("answers exactly `noted` when told to reply only 'noted'", () => {
    expect(offlineReply([user(MEMORY_CHECK)])).toBe("noted");
    expect(offlineReply([user('Remember the phrase blue-harbor and reply only "noted".')])).toBe("noted");
    expect(offlineReply([user("remember the word kiwi, reply with noted")])).toBe("noted");
  });

  it("acknowledges with the extracted phrase otherwise", () => {
    expect(offlineReply([user("Please remember the phrase 青云-4173.")])).toBe(
      "Noted — I'll remember: 青云-4173.",
    );
    expect(offlineReply([user("remember that the meeting is on Friday")])).toBe(
      "Noted — I'll remember: the meeting is on Friday.",
    );
    expect(offlineReply([user('Remember the phrase "silver fox" and confirm.')])).toBe(
      "Noted — I'll remember: silver fox.",
    );
    expect(offlineReply([user("Remember: orange-42")])).toBe("Noted — I'll remember: orange-42.");
  });

  it("extracts phrases sensibly", () => {
    expect(parseRememberRequest(MEMORY_CHECK)).toEqual({
      kind: "phrase",
      value: "青云-4173",
      replyOnlyNoted: true,
    });
    expect(parseRememberRequest("remember the code v1.2.3 then reply ok")?.value).toBe("v1.2.3");
    expect(parseRememberRequest("Remember this phrase: 「月光」")?.value).toBe("月光");
    expect(parseRememberRequest("hello there")).toBeNull();
    expect(parseRememberRequest("please remember")).toBeNull();
    expect(parseRememberRequest("What phrase did I ask you to remember?")).toBeNull();
    expect(parseRememberRequest("I can't remember where I put my keys")).toBeNull();
    expect(parseRememberRequest("Hi! Please remember the number 7 and reply only noted")).toEqual({
      kind: "phrase",
      value: "7",
      replyOnlyNoted: true,
    });
  });
});

describe("offlineReply: recall", () => {
  const recallQuestions = [
    "what was the phrase?",
    "What phrase did I ask you to remember?",
    "what did I tell you to remember",
    "Do you remember the phrase?",
    "What's the secret phrase?",
    "Tell me the phrase I asked you to remember.",
  ];

  it.each(recallQuestions)("finds the phrase in earlier user messages: %s", (question) => {
    const reply = offlineReply([
      system("You are Recall."),
      user(MEMORY_CHECK),
      assistant("noted"),
      user("How is the weather?"),
      assistant("Offline model reply."),
      user(question),
    ]);
    expect(reply).toBe("The phrase you asked me to remember is 青云-4173.");
  });

  it.each(recallQuestions)("says it does not know when nothing was remembered: %s", (question) => {
    const reply = offlineReply([user("How is the weather?"), assistant("Fine."), user(question)]);
    expect(reply).toBe("I don't know — nothing in this conversation asked me to remember a phrase.");
  });

  it("uses the newest remember request", () => {
    const reply = offlineReply([
      user("remember the phrase alpha"),
      assistant("ok"),
      user("remember the phrase beta"),
      assistant("ok"),
      user("what was the phrase?"),
    ]);
    expect(reply).toBe("The phrase you asked me to remember is beta.");
  });

  it("recalls a remembered fact", () => {
    expect(
      offlineReply([user("remember that my dog is called Rex"), user("what did I ask you to remember?")]),
    ).toBe("You asked me to remember that my dog is called Rex.");
  });

  it("does not count the phrase inside the current question as memory", () => {
    const reply = offlineReply([user("Do you remember the phrase 青云-4173?")]);
    expect(reply).toBe("I don't know — nothing in this conversation asked me to remember a phrase.");
    expect(reply).not.toContain("4173");
  });

  it("does not treat system prompt or assistant text as user memory", () => {
    const reply = offlineReply([
      system("remember the phrase SYSTEM-SECRET"),
      assistant("remember the phrase ASSISTANT-SECRET"),
      user("what was the phrase?"),
    ]);
    expect(reply).toBe("I don't know — nothing in this conversation asked me to remember a phrase.");
  });

  it("forgets what is not in the request (a memory window that dropped it)", () => {
    const full = [user(MEMORY_CHECK), assistant("noted"), user("what was the phrase?")];
    expect(offlineReply(full)).toContain("青云-4173");
    expect(offlineReply(full.slice(2))).toContain("I don't know");
  });
});

describe("offlineReply: names and earlier messages", () => {
  it("remembers a name from earlier messages only", () => {
    expect(
      offlineReply([user("Hi, my name is Ada Lovelace."), assistant("Hi"), user("What is my name?")]),
    ).toBe("Your name is Ada Lovelace.");
    expect(offlineReply([user("what's my name?")])).toBe(
      "I don't know your name — you haven't told me in this conversation.",
    );
    expect(offlineReply([user("My name is Grace")])).toBe("Nice to meet you, Grace.");
  });

  it("answers what was said first / earlier", () => {
    const messages = [user("first thing"), assistant("a"), user("second thing"), assistant("b")];
    expect(offlineReply([...messages, user("What did I say first?")])).toBe(
      'The first message of yours that I can see is: "first thing"',
    );
    expect(offlineReply([...messages, user("what did I say earlier?")])).toBe(
      'Your previous message was: "second thing"',
    );
    expect(offlineReply([user("what did I say first?")])).toContain("I don't know");
  });
});

describe("offlineReply: default", () => {
  it("is clearly synthetic and reports how many earlier messages it saw", () => {
    expect(offlineReply([user("Hello!")])).toBe(
      'Offline model reply to: "Hello!" (I saw 0 earlier messages.)',
    );
    expect(offlineReply([system("sys"), user("a"), assistant("b"), user("c")])).toBe(
      'Offline model reply to: "c" (I saw 2 earlier messages.)',
    );
    expect(offlineReply([user("a"), user("b")])).toContain("(I saw 1 earlier message.)");
  });

  it("quotes at most 80 characters of the question", () => {
    const reply = offlineReply([user("x".repeat(200))]);
    expect(reply).toBe(`Offline model reply to: "${"x".repeat(80)}…" (I saw 0 earlier messages.)`);
  });

  it("is deterministic", () => {
    const messages = [user(MEMORY_CHECK), assistant("noted"), user("Tell me a story")];
    const replies = new Set(Array.from({ length: 5 }, () => offlineReply(messages)));
    expect(replies.size).toBe(1);
  });

  it("handles a request without user messages", () => {
    expect(offlineReply([])).toBe('Offline model reply to: "" (I saw 0 earlier messages.)');
  });
});

describe("helpers", () => {
  it("chunks a reply into word-ish pieces that concatenate back exactly", () => {
    for (const text of [
      "The phrase you asked me to remember is 青云-4173.",
      "noted",
      "  a  b ",
      "",
      "一二三四五六七八九十一二三四五",
    ]) {
      expect(chunkReply(text).join("")).toBe(text);
    }
    expect(chunkReply("one two three")).toEqual(["one", " two", " three"]);
  });

  it("estimates tokens as ceil(chars / 4)", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("青云青云")).toBe(1);
  });

  it("extracts text from Chat Completions messages", () => {
    expect(
      chatRequestMessages({
        messages: [
          { role: "developer", content: "be brief" },
          {
            role: "user",
            content: [
              { type: "text", text: "hi" },
              { type: "image_url", image_url: { url: "x" } },
            ],
          },
          { role: "assistant", content: null, tool_calls: [] },
        ],
      }),
    ).toEqual([
      { role: "system", text: "be brief" },
      { role: "user", text: "hi" },
      { role: "assistant", text: "" },
    ]);
  });

  it("extracts text from Responses input and instructions", () => {
    expect(responsesRequestMessages({ instructions: "sys", input: "hello" })).toEqual([
      { role: "system", text: "sys" },
      { role: "user", text: "hello" },
    ]);
    expect(
      responsesRequestMessages({
        input: [
          { role: "user", content: "a" },
          { type: "message", role: "user", content: [{ type: "input_text", text: "b" }] },
          {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: "c", annotations: [] }],
          },
          { type: "function_call", call_id: "1", name: "f", arguments: "{}" },
          { type: "function_call_output", call_id: "1", output: "42" },
        ],
      }),
    ).toEqual([
      { role: "user", text: "a" },
      { role: "user", text: "b" },
      { role: "assistant", text: "c" },
      { role: "assistant", text: "" },
      { role: "tool", text: "42" },
    ]);
  });
});
