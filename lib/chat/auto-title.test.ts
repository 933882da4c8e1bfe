import { beforeEach, describe, expect, it, vi } from "vitest";
import { createModel } from "@/lib/llm/client";
import { isTitleRequest } from "@/lib/llm/demo/title";
import { expectConsoleError } from "@/test/console";

const setAutoTitle = vi.fn(async (_: { sessionId: string; title: string }) => true);
vi.mock("@/lib/db/titles", () => ({
  setAutoTitle: (input: { sessionId: string; title: string }) => setAutoTitle(input),
}));
// The configured model: the offline one (no OPENAI_API_KEY in tests).
vi.mock("@/lib/llm", async (original) => ({
  ...(await original<typeof import("@/lib/llm")>()),
  getModel: () => createModel({ style: "chat" }),
}));

const { cleanTitle, scheduleAutoTitle, titleRequest, titlesSettled, titleWithModel } = await import(
  "./auto-title"
);

beforeEach(() => setAutoTitle.mockClear());

describe("the title request", () => {
  it("opens with the line the offline model knows it by, and holds the question and the answer", () => {
    const items = titleRequest({ question: " My name is Ada. ", answer: "Nice to meet you, Ada." });
    expect(isTitleRequest(items)).toBe(true);
    expect(items[1]).toEqual({
      role: "user",
      text: "Question:\nMy name is Ada.\n\nAnswer:\nNice to meet you, Ada.",
    });
  });

  it("sends at most 2000 characters of each", () => {
    const items = titleRequest({ question: "q".repeat(5000), answer: "a".repeat(5000) });
    expect(items[1]?.text.length).toBeLessThan(4100);
  });
});

describe("cleanTitle", () => {
  it("keeps the first line without labels, quotes, markdown and a final full stop", () => {
    expect(cleanTitle('\n  Title: "Trip to Lisbon".\nSecond line')).toBe("Trip to Lisbon");
    expect(cleanTitle("## **Binary search basics**")).toBe("Binary search basics");
    expect(cleanTitle("《旅行计划》。")).toBe("旅行计划");
  });

  it("cuts to six words and 60 characters, and gives null for nothing", () => {
    expect(cleanTitle("one two three four five six seven eight")).toBe("one two three four five six");
    expect(cleanTitle("x".repeat(80))?.length).toBe(60);
    expect(cleanTitle('  \n "" ')).toBeNull();
    expect(cleanTitle("")).toBeNull();
  });
});

describe("automatic titles", () => {
  it("asks the model and gets the offline model's deterministic title", async () => {
    const model = createModel({ style: "chat" });
    const input = {
      question: "Please explain how binary search works on sorted arrays",
      answer: "It halves.",
    };
    expect(await titleWithModel(input, model)).toBe("Explain how binary search works");
    expect(await titleWithModel(input, createModel({ style: "responses" }))).toBe(
      "Explain how binary search works",
    );
  });

  it("writes the title in the background, through the conditional update", async () => {
    scheduleAutoTitle({ sessionId: "s1", question: "My name is Ada.", answer: "Nice to meet you, Ada." });
    expect(setAutoTitle).not.toHaveBeenCalled();
    await titlesSettled();
    expect(setAutoTitle).toHaveBeenCalledWith({ sessionId: "s1", title: "My name is Ada" });
  });

  it("writes nothing when there is nothing to name", async () => {
    scheduleAutoTitle({ sessionId: "s2", question: "  ", answer: "" });
    await titlesSettled();
    expect(setAutoTitle).not.toHaveBeenCalled();
  });

  it("logs a failure and never throws it", async () => {
    expectConsoleError(/\[title\] naming session s3 failed: database is down/);
    setAutoTitle.mockRejectedValueOnce(new Error("database is down"));
    expect(() => scheduleAutoTitle({ sessionId: "s3", question: "Hello there", answer: "Hi" })).not.toThrow();
    await titlesSettled();
    expect(setAutoTitle).toHaveBeenCalledTimes(1);
  });
});
