import { describe, expect, it } from "vitest";
import { composeContext, longTermSection, type MemoryItem } from "@/lib/memory";
import { buildContext } from "./build-context";
import { memoryUsedByAnswer, memoryUsedOf } from "./memory-used";
import { tokenizerFor } from "./tokenizer";

const tok = tokenizerFor("test-model");
type ComposeArgs = Parameters<typeof composeContext>[0];
/** A context as a turn records it: composed by lib/memory, then assembled and counted. */
const contextFor = (args: Omit<ComposeArgs, "count" | "replyPriming" | "systemPrompt">) =>
  buildContext({
    composed: composeContext({
      systemPrompt: "You are Recall.",
      ...args,
      count: tok.countItem,
      replyPriming: tok.replyPriming,
    }),
    policyId: "window:20",
    model: "test-model",
    tokenizer: tok,
  });
const question: MemoryItem = { role: "user", text: "what is my cat called?", seq: 90 };

const recalled = (over: Record<string, unknown> = {}) => ({
  source: "recalled",
  role: "user",
  seq: 12,
  sessionId: "s1",
  messageId: "m12",
  createdAt: "2026-11-02T10:00:00.000Z",
  score: 0.82,
  tokens: 14,
  chars: 30,
  preview: "My cat is called Miso.",
  ...over,
});

describe("memoryUsedOf", () => {
  it("is null when the turn used only its window", () => {
    const built = contextFor({
      memory: [
        { role: "user", text: "hello", seq: 88 },
        { role: "assistant", text: "hi", seq: 89 },
      ],
      question,
    });
    expect(memoryUsedOf(built.entries)).toBeNull();
  });

  it("reads the summary range and the memories from a context as the builder records it", () => {
    const summary: MemoryItem = {
      role: "system",
      text: "Summary: the user has a cat.",
      summary: true,
      summaryMeta: {
        fromSeq: 1,
        throughSeq: 40,
        messages: 40,
        version: 2,
        model: "m",
        createdAt: "2026-11-01T00:00:00.000Z",
      },
    };
    const facts = [
      { id: "f1", text: "Has a cat", sourceSessionId: "s0", sourceMessageId: "m3" },
      { id: "f2", text: "Lives in Lyon", sourceSessionId: "s1", sourceMessageId: "m7" },
    ];
    const built = contextFor({
      memory: [summary, { role: "user", text: "and?", seq: 89 }],
      question,
      longTerm: longTermSection({ facts, question: question.text, maxTokens: 1000, count: tok.countItem }),
    });
    expect(memoryUsedOf(built.entries)).toEqual({
      recalled: [],
      files: [],
      facts: [
        { id: "f1", sessionId: "s0", messageId: "m3" },
        { id: "f2", sessionId: "s1", messageId: "m7" },
      ],
      summary: { fromSeq: 1, throughSeq: 40, messages: 40 },
    });
  });

  it("reads the recalled messages from a context with a recall section as the builder records it", () => {
    const said = (seq: number, role: "user" | "assistant", text: string, sessionId = "s1") => ({
      messageId: `m${seq}`,
      sessionId,
      sessionTitle: "Pets",
      seq,
      role,
      createdAt: new Date(Date.UTC(2026, 10, 2, 10, seq)),
      text,
    });
    const built = contextFor({
      memory: [{ role: "user", text: "and?", seq: 89 }],
      question,
      recall: {
        sessionId: "s1",
        maxTokens: 2000,
        candidates: [
          {
            ...said(12, "user", "My cat is called Miso."),
            score: 0.82,
            partner: said(13, "assistant", "Miso is a nice name."),
          },
        ],
      },
    });
    const used = memoryUsedOf(built.entries);
    expect(used?.recalled.map((r) => [r.messageId, r.role, r.seq, r.sessionId, r.preview])).toEqual([
      ["m12", "user", 12, "s1", "My cat is called Miso."],
      ["m13", "assistant", 13, "s1", "Miso is a nice name."],
    ]);
    expect(used?.recalled[0]).toMatchObject({ score: 0.82, createdAt: "2026-11-02T10:12:00.000Z" });
    expect(used?.facts).toEqual([]);
    expect(used?.summary).toBeNull();
  });

  it("lists recalled messages in the order sent, with where they are and their score", () => {
    const used = memoryUsedOf([
      { source: "system", role: "system", tokens: 5, chars: 10, preview: "You are Recall." },
      recalled(),
      recalled({ role: "assistant", seq: 13, messageId: "m13", score: 0.5, preview: "Miso is a nice name." }),
      recalled({ sessionId: "s2", seq: 4, messageId: "x4", createdAt: "2026-10-01T08:00:00.000Z" }),
      { source: "history", role: "user", seq: 89, tokens: 3, chars: 4, preview: "and?" },
      { source: "current", role: "user", seq: 90, tokens: 6, chars: 20, preview: "what is my cat called?" },
    ]);
    expect(used?.summary).toBeNull();
    expect(used?.facts).toEqual([]);
    expect(used?.recalled).toEqual([
      {
        sessionId: "s1",
        messageId: "m12",
        seq: 12,
        role: "user",
        createdAt: "2026-11-02T10:00:00.000Z",
        score: 0.82,
        preview: "My cat is called Miso.",
      },
      {
        sessionId: "s1",
        messageId: "m13",
        seq: 13,
        role: "assistant",
        createdAt: "2026-11-02T10:00:00.000Z",
        score: 0.5,
        preview: "Miso is a nice name.",
      },
      {
        sessionId: "s2",
        messageId: "x4",
        seq: 4,
        role: "user",
        createdAt: "2026-10-01T08:00:00.000Z",
        score: 0.82,
        preview: "My cat is called Miso.",
      },
    ]);
  });

  it("reads the file passages from a context with a recall section as the builder records it", () => {
    const passage = (chunkId: number, position: number, text: string) => ({
      chunkId,
      fileId: "file1",
      fileName: "handbook.md",
      position,
      chunkCount: 12,
      text,
      score: 0.7,
    });
    const built = contextFor({
      memory: [{ role: "user", text: "and?", seq: 89 }],
      question: { role: "user", text: "what is the badge code?", seq: 90 },
      recall: {
        sessionId: "s1",
        maxTokens: 2000,
        candidates: [],
        passages: [passage(31, 3, "The badge code is walnut-4417."), passage(40, 12, "Badges are blue.")],
      },
    });
    const used = memoryUsedOf(built.entries);
    expect(used?.recalled).toEqual([]);
    expect(used?.files).toEqual([
      {
        fileId: "file1",
        fileName: "handbook.md",
        chunkId: 31,
        position: 3,
        chunkCount: 12,
        preview: "The badge code is walnut-4417.",
      },
      {
        fileId: "file1",
        fileName: "handbook.md",
        chunkId: 40,
        position: 12,
        chunkCount: 12,
        preview: "Badges are blue.",
      },
    ]);
  });

  it("lists a passage once, and skips file entries without their file", () => {
    const file = (over: Record<string, unknown> = {}) => ({
      source: "file",
      role: "system",
      fileId: "f",
      fileName: "a.md",
      chunkId: 7,
      position: 2,
      chunkCount: 4,
      score: 1,
      tokens: 5,
      preview: "x",
      ...over,
    });
    expect(memoryUsedOf([file(), file()])?.files).toHaveLength(1);
    expect(
      memoryUsedOf([file({ fileName: "" }), file({ chunkId: "7" }), file({ position: null })]),
    ).toBeNull();
    expect(memoryUsedOf([file({ chunkCount: undefined })])?.files[0]?.chunkCount).toBe(2);
  });

  it("counts a message recalled twice once", () => {
    expect(memoryUsedOf([recalled(), recalled()])?.recalled).toHaveLength(1);
  });

  it("joins several summaries into the one range they cover", () => {
    const summaryEntry = (fromSeq: number, throughSeq: number) => ({
      source: "summary",
      role: "system",
      tokens: 9,
      chars: 9,
      preview: "Summary",
      summary: {
        fromSeq,
        throughSeq,
        messages: throughSeq - fromSeq + 1,
        version: 1,
        model: "m",
        createdAt: "",
      },
    });
    expect(memoryUsedOf([summaryEntry(21, 40), summaryEntry(1, 20)])?.summary).toEqual({
      fromSeq: 1,
      throughSeq: 40,
      messages: 40,
    });
  });

  it("skips what a stored record lacks instead of failing", () => {
    expect(memoryUsedOf(null)).toBeNull();
    expect(memoryUsedOf({ entries: [] })).toBeNull();
    expect(
      memoryUsedOf([
        null,
        "history",
        recalled({ messageId: undefined }),
        recalled({ role: "tool" }),
        recalled({ createdAt: 5 }),
        { source: "summary", role: "system", preview: "old summary without its range" },
        { source: "fact", role: "system", preview: "Long-term memory", facts: [{ id: "f1" }] },
      ]),
    ).toBeNull();
  });

  it("gives a recalled item without a score or preview zero and empty text", () => {
    const used = memoryUsedOf([recalled({ score: undefined, preview: undefined })]);
    expect(used?.recalled[0]).toMatchObject({ score: 0, preview: "" });
  });
});

describe("memoryUsedByAnswer", () => {
  it("maps each answer of a page to what its context used, null without a record", () => {
    const used = memoryUsedByAnswer(
      ["a1", "a2", "a3"],
      [
        { messageId: "a1", entries: [recalled()] },
        { messageId: "a2", entries: [{ source: "history", role: "user", seq: 1, preview: "hi" }] },
      ],
    );
    expect(used.get("a1")?.recalled.map((r) => r.messageId)).toEqual(["m12"]);
    expect(used.get("a2")).toBeNull();
    expect(used.get("a3")).toBeNull();
    expect([...used.keys()]).toEqual(["a1", "a2", "a3"]);
  });
});
