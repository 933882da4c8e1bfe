import { describe, expect, it } from "vitest";
import type { ExportConversation, ExportMessage } from "./format";
import { conversationToMarkdown, inlineCode, markdownDate, oneLine } from "./markdown";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute)).toISOString();

function m(
  seq: number,
  role: ExportMessage["role"],
  text: string,
  extra: Partial<ExportMessage> = {},
): ExportMessage {
  return {
    localId: `m${seq}`,
    parentLocalId: seq === 1 ? null : `m${seq - 1}`,
    seq,
    role,
    text,
    parts: null,
    toolCallId: null,
    status: "complete",
    model: role === "assistant" ? "gpt-test" : null,
    promptTokens: null,
    completionTokens: null,
    createdAt: at(seq),
    ...extra,
  };
}

function conversation(
  messages: ExportMessage[],
  extra: Partial<ExportConversation> = {},
): ExportConversation {
  return {
    localId: "c1",
    title: "Kyoto",
    titleByUser: false,
    createdAt: at(0),
    updatedAt: at(0),
    memorySettings: null,
    memoryStartSeq: 0,
    branches: "path",
    activeLeafLocalId: messages.at(-1)?.localId ?? null,
    messages,
    attachments: [],
    ...extra,
  };
}

describe("conversationToMarkdown", () => {
  it("renders the title, who said what and when, and folds a tool step into the answer it led to", () => {
    const md = conversationToMarkdown(
      conversation([
        m(1, "user", "Where should I eat?"),
        m(2, "assistant", "", {
          parts: { toolCalls: [{ id: "call_1", name: "search_memories", arguments: '{"query":"food"}' }] },
        }),
        m(3, "tool", "Likes tofu.\nHates natto.", { toolCallId: "call_1" }),
        m(4, "assistant", "Try **yudofu**."),
      ]),
      { exportedAt: at(30) },
    );
    expect(md).toBe(
      [
        "# Kyoto",
        "",
        "_Exported from Recall on 2026-01-02 10:30 UTC · 4 messages on this branch_",
        "",
        "---",
        "",
        "### You · 2026-01-02 10:01 UTC",
        "",
        "Where should I eat?",
        "",
        "---",
        "",
        "### Assistant · gpt-test · 2026-01-02 10:04 UTC",
        "",
        '- Tool `search_memories` `{"query":"food"}` → Likes tofu. Hates natto.',
        "",
        "Try **yudofu**.",
        "",
      ].join("\n"),
    );
  });

  it("lists attachments by name, linked when the server's address is known, and marks unfinished answers", () => {
    const c = conversation(
      [
        m(1, "user", "Look", {
          parts: {
            attachments: [
              { id: "a1", kind: "image", name: "map [1].png", mime: "image/png", bytes: 2048 },
              { id: "a2", kind: "text", name: "notes.txt", mime: "text/plain", bytes: 10, text: "x" },
            ],
          },
        }),
        m(2, "assistant", "Half an ans", { status: "interrupted" }),
        m(3, "user", "Again"),
        m(4, "assistant", "", { status: "failed" }),
      ],
      {
        attachments: [
          {
            localId: "a1",
            messageLocalId: "m1",
            sourceId: "cabc",
            kind: "image",
            name: "map [1].png",
            mime: "image/png",
            bytes: 2048,
            width: 4,
            height: 3,
            createdAt: at(1),
          },
        ],
      },
    );
    const linked = conversationToMarkdown(c, {
      exportedAt: at(30),
      attachmentUrl: (id) => `https://recall.test/api/attachments/${id}`,
    });
    expect(linked).toContain(
      "Attachments: [map \\[1\\].png](https://recall.test/api/attachments/cabc) (image/png, 2 KB) · notes.txt (text/plain, 10 B)",
    );
    expect(linked).toContain("Half an ans\n\n_(the answer was interrupted here)_");
    expect(linked).toContain("_(the answer failed)_");
    const plain = conversationToMarkdown(c, { exportedAt: at(30) });
    expect(plain).toContain("Attachments: map [1].png (image/png, 2 KB)");
    expect(plain).not.toContain("https://");
  });

  it("shows a tool step whose answer never came under its own heading", () => {
    const md = conversationToMarkdown(
      conversation([
        m(1, "user", "Remember I like tea"),
        m(2, "assistant", "", { parts: { toolCalls: [{ id: "c1", name: "remember", arguments: "{}" }] } }),
      ]),
      { exportedAt: at(30) },
    );
    expect(md.trimEnd().endsWith("### Assistant\n\n- Tool `remember` `{}` → no result")).toBe(true);
  });
});

describe("markdown helpers", () => {
  it("formats dates in UTC the same everywhere", () => {
    expect(markdownDate("2026-05-01T23:59:59.000Z")).toBe("2026-05-01 23:59 UTC");
  });
  it("shortens to one line", () => {
    expect(oneLine("a\n\n b")).toBe("a b");
    expect(oneLine("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
  });
  it("keeps backticks inside a code span", () => {
    expect(inlineCode("a`b")).toBe("``a`b``");
    expect(inlineCode("`x`")).toBe("`` `x` ``");
  });
});
