import { describe, expect, it } from "vitest";
import { MemoryFormatError } from "./errors";
import { SUMMARY_PREFIX, toChatMessages, toResponsesInput } from "./projections";
import { deepFreeze } from "./test-fixtures";
import type { MemoryItem } from "./types";

const IMG_A = "https://example.test/a.png";
const IMG_B = "data:image/png;base64,AAAA";

type Case = { name: string; item: MemoryItem; chat: unknown[]; responses: unknown[] };

const cases: Case[] = [
  {
    name: "system text",
    item: { role: "system", text: "Be brief." },
    chat: [{ role: "system", content: "Be brief." }],
    responses: [{ type: "message", role: "system", content: [{ type: "input_text", text: "Be brief." }] }],
  },
  {
    name: "user text",
    item: { role: "user", text: "Hi", seq: 1 },
    chat: [{ role: "user", content: "Hi" }],
    responses: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }],
  },
  {
    name: "user empty text",
    item: { role: "user", text: "", seq: 1 },
    chat: [{ role: "user", content: "" }],
    responses: [{ type: "message", role: "user", content: [{ type: "input_text", text: "" }] }],
  },
  {
    name: "user text with images",
    item: { role: "user", text: "What is this?", imageUrls: [IMG_A, IMG_B], seq: 2 },
    chat: [
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: IMG_A } },
          { type: "image_url", image_url: { url: IMG_B } },
        ],
      },
    ],
    responses: [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What is this?" },
          { type: "input_image", image_url: IMG_A, detail: "auto" },
          { type: "input_image", image_url: IMG_B, detail: "auto" },
        ],
      },
    ],
  },
  {
    name: "user image without text",
    item: { role: "user", text: "", imageUrls: [IMG_A] },
    chat: [{ role: "user", content: [{ type: "image_url", image_url: { url: IMG_A } }] }],
    responses: [
      { type: "message", role: "user", content: [{ type: "input_image", image_url: IMG_A, detail: "auto" }] },
    ],
  },
  {
    name: "user with an empty image list",
    item: { role: "user", text: "Hi", imageUrls: [] },
    chat: [{ role: "user", content: "Hi" }],
    responses: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }],
  },
  {
    name: "assistant text",
    item: { role: "assistant", text: "Hello!", seq: 3 },
    chat: [{ role: "assistant", content: "Hello!" }],
    responses: [{ type: "message", role: "assistant", content: "Hello!" }],
  },
  {
    name: "assistant images are not sent (the APIs accept images from users only)",
    item: { role: "assistant", text: "Here", imageUrls: [IMG_A] },
    chat: [{ role: "assistant", content: "Here" }],
    responses: [{ type: "message", role: "assistant", content: "Here" }],
  },
  {
    name: "system images are not sent",
    item: { role: "system", text: "S", imageUrls: [IMG_A] },
    chat: [{ role: "system", content: "S" }],
    responses: [{ type: "message", role: "system", content: [{ type: "input_text", text: "S" }] }],
  },
  {
    name: "assistant tool calls without text",
    item: {
      role: "assistant",
      text: "",
      toolCalls: [
        { id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
        { id: "call_2", name: "time", arguments: "{}" },
      ],
    },
    chat: [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
          { id: "call_2", type: "function", function: { name: "time", arguments: "{}" } },
        ],
      },
    ],
    responses: [
      { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call", call_id: "call_2", name: "time", arguments: "{}" },
    ],
  },
  {
    name: "assistant tool call with text",
    item: { role: "assistant", text: "Let me check.", toolCalls: [{ id: "c", name: "f", arguments: "{}" }] },
    chat: [
      {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    ],
    responses: [
      { type: "message", role: "assistant", content: "Let me check." },
      { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
    ],
  },
  {
    name: "assistant with an empty toolCalls list",
    item: { role: "assistant", text: "Plain", toolCalls: [] },
    chat: [{ role: "assistant", content: "Plain" }],
    responses: [{ type: "message", role: "assistant", content: "Plain" }],
  },
  {
    name: "tool output",
    item: { role: "tool", text: '{"temp":3}', toolCallId: "call_1", seq: 5 },
    chat: [{ role: "tool", tool_call_id: "call_1", content: '{"temp":3}' }],
    responses: [{ type: "function_call_output", call_id: "call_1", output: '{"temp":3}' }],
  },
  {
    name: "summary with system role",
    item: { role: "system", text: "User likes tea.", summary: true },
    chat: [{ role: "system", content: `${SUMMARY_PREFIX}User likes tea.` }],
    responses: [
      {
        type: "message",
        role: "system",
        content: [{ type: "input_text", text: `${SUMMARY_PREFIX}User likes tea.` }],
      },
    ],
  },
  {
    name: "summary with assistant role is still a system message",
    item: { role: "assistant", text: "Earlier: tea.", summary: true },
    chat: [{ role: "system", content: `${SUMMARY_PREFIX}Earlier: tea.` }],
    responses: [
      {
        type: "message",
        role: "system",
        content: [{ type: "input_text", text: `${SUMMARY_PREFIX}Earlier: tea.` }],
      },
    ],
  },
];

describe.each(cases)("projection of $name", ({ item, chat, responses }) => {
  it("to Chat Completions", () => {
    expect(toChatMessages([item])).toStrictEqual(chat);
  });
  it("to Responses input", () => {
    expect(toResponsesInput([item])).toStrictEqual(responses);
  });
});

describe("projections of a whole conversation", () => {
  const items: MemoryItem[] = deepFreeze([
    { role: "system", text: "S" },
    { role: "system", text: "old", summary: true },
    { role: "user", text: "q", seq: 1, imageUrls: [IMG_A] },
    { role: "assistant", text: "", seq: 2, toolCalls: [{ id: "x", name: "f", arguments: "{}" }] },
    { role: "tool", text: "r", seq: 3, toolCallId: "x" },
    { role: "assistant", text: "a", seq: 4 },
  ]);

  it("keeps the order in Chat Completions, one message per item", () => {
    const messages = toChatMessages(items);
    expect(messages.map((m) => m.role)).toEqual([
      "system",
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("keeps the order in Responses input, one item per call", () => {
    const input = toResponsesInput(items);
    expect(input.map((i) => ("role" in i ? `${i.type}:${i.role}` : i.type))).toEqual([
      "message:system",
      "message:system",
      "message:user",
      "function_call",
      "function_call_output",
      "message:assistant",
    ]);
  });

  it("does not leak seq or other memory fields", () => {
    expect(JSON.stringify(toChatMessages(items))).not.toContain("seq");
    expect(JSON.stringify(toResponsesInput(items))).not.toContain("seq");
    expect(JSON.stringify(toResponsesInput(items))).not.toContain('summary"');
  });

  it("works on frozen input (never mutates it)", () => {
    expect(() => toChatMessages(items)).not.toThrow();
    expect(() => toResponsesInput(items)).not.toThrow();
    expect(items[3]?.toolCalls).toEqual([{ id: "x", name: "f", arguments: "{}" }]);
  });

  it("projects an empty list to an empty list", () => {
    expect(toChatMessages([])).toEqual([]);
    expect(toResponsesInput([])).toEqual([]);
  });
});

describe("malformed items", () => {
  it.each([
    { name: "tool without toolCallId", item: { role: "tool", text: "r" } as MemoryItem },
    { name: "tool with empty toolCallId", item: { role: "tool", text: "r", toolCallId: "" } as MemoryItem },
  ])("$name is rejected by both projections", ({ item }) => {
    const items = [{ role: "user", text: "q" } as MemoryItem, item];
    expect(() => toChatMessages(items)).toThrow(MemoryFormatError);
    expect(() => toResponsesInput(items)).toThrow(MemoryFormatError);
    expect(() => toChatMessages(items)).toThrow("items[1].toolCallId");
  });
});

describe("attachment references", () => {
  const ref = "attachment:abc123?w=640&h=480";

  it("are refused by both projections until resolved to their data", () => {
    const items: MemoryItem[] = [{ role: "user", text: "look", imageUrls: [IMG_A, ref] }];
    expect(() => toChatMessages(items)).toThrow("items[0].imageUrls[1]");
    expect(() => toResponsesInput(items)).toThrow(MemoryFormatError);
  });

  it("once resolved, carry the image to both APIs", () => {
    const data = "data:image/png;base64,iVBORw0KGgo=";
    const items: MemoryItem[] = [{ role: "user", text: "look", imageUrls: [data] }];
    expect(toChatMessages(items)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: data } },
        ],
      },
    ]);
    expect(toResponsesInput(items)).toEqual([
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", image_url: data, detail: "auto" },
        ],
      },
    ]);
  });
});
