import { describe, expect, it } from "vitest";
import { chatCompletionRequestSchema, parseMemoryMode, planTurn, requestedSession } from "./chat-request";

const body = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  chatCompletionRequestSchema.parse({ model: "m", messages, ...extra });

describe("planTurn", () => {
  const conversation = [
    { role: "system", content: "Be brief." },
    { role: "developer", content: [{ type: "text", text: "Answer in English." }] },
    { role: "user", content: "My code word is X." },
    { role: "assistant", content: "Noted." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is " },
        { type: "text", text: "my code word?" },
      ],
    },
  ];

  it("server memory: the last user message is the question; leading system messages replace the prompt", () => {
    expect(planTurn(body(conversation), "server")).toEqual({
      question: "What is my code word?",
      systemPrompt: "Be brief.\n\nAnswer in English.",
    });
  });

  it("client memory: the messages in between become the turn's memory", () => {
    expect(planTurn(body(conversation), "client")).toEqual({
      question: "What is my code word?",
      systemPrompt: "Be brief.\n\nAnswer in English.",
      clientMemory: [
        { role: "user", text: "My code word is X." },
        { role: "assistant", text: "Noted." },
      ],
    });
    expect(planTurn(body([{ role: "user", content: "hi" }]), "client")).toEqual({
      question: "hi",
      clientMemory: [],
    });
  });

  it("refuses a last message that is not the user's, images, and tool messages with client memory", () => {
    expect(() =>
      planTurn(
        body([
          { role: "user", content: "a" },
          { role: "assistant", content: "b" },
        ]),
        "server",
      ),
    ).toThrow(/last message must be the user's/);
    expect(() =>
      planTurn(body([{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }]), "server"),
    ).toThrow(/image_url/);
    const withTool = body([
      { role: "assistant", content: null, tool_calls: [{ id: "1" }] },
      { role: "tool", content: "r", tool_call_id: "1" },
      { role: "user", content: "q" },
    ]);
    expect(planTurn(withTool, "server")).toEqual({ question: "q" });
    expect(() => planTurn(withTool, "client")).toThrow(/tool calls/);
  });

  it("validates the body: messages required, n = 1 only", () => {
    expect(() => body([])).toThrow();
    expect(() => body([{ role: "user", content: "q" }], { n: 2 })).toThrow(/n = 1/);
    expect(() => body([{ role: "robot", content: "q" }])).toThrow(/role/);
  });
});

describe("headers", () => {
  it("X-Recall-Memory is server (default) or client", () => {
    expect(parseMemoryMode(null)).toBe("server");
    expect(parseMemoryMode(" Client ")).toBe("client");
    expect(() => parseMemoryMode("both")).toThrow(/X-Recall-Memory/);
  });

  it("the conversation comes from the header, else metadata.recall_session", () => {
    const b = body([{ role: "user", content: "q" }], { metadata: { recall_session: "meta-id" } });
    expect(requestedSession("header-id", b)).toBe("header-id");
    expect(requestedSession(null, b)).toBe("meta-id");
    expect(requestedSession("", body([{ role: "user", content: "q" }]))).toBeUndefined();
  });
});
