import { describe, expect, it } from "vitest";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory/instructions";
import { CHUNK_CHARS } from "@/lib/projects/chunk";
import { MAX_FILES_PER_PROJECT, MAX_PROJECT_FILE_CHARS, MAX_PROJECTS } from "@/lib/projects/limits";
import { exportFileName } from "./download";
import {
  attachmentLocalIdOf,
  checkConsistency,
  type ExportFile,
  exportSchema,
  withAttachmentId,
} from "./format";
import { activePath } from "./tree";

const at = "2026-01-02T10:00:00.000Z";

function message(localId: string, seq: number, parentLocalId: string | null, extra: object = {}) {
  return {
    localId,
    parentLocalId,
    seq,
    role: "user",
    text: `text ${localId}`,
    parts: null,
    toolCallId: null,
    status: "complete",
    model: null,
    promptTokens: null,
    completionTokens: null,
    createdAt: at,
    ...extra,
  };
}

function file(overrides: Record<string, unknown> = {}): unknown {
  return {
    format: "recall-export",
    version: 1,
    exportedAt: at,
    attachments: "reference",
    conversations: [
      {
        localId: "c1",
        title: "A chat",
        titleByUser: false,
        createdAt: at,
        updatedAt: at,
        memorySettings: null,
        memoryStartSeq: 0,
        branches: "tree",
        activeLeafLocalId: "m3",
        messages: [message("m1", 1, null), message("m2", 2, "m1"), message("m3", 3, "m1")],
        attachments: [],
      },
    ],
    ...overrides,
  };
}

const parse = (value: unknown) => exportSchema.parse(value) as ExportFile;

const fact = (localId: string, extra: object = {}) => ({
  localId,
  text: `fact ${localId}`,
  subject: null,
  conversationLocalId: "c1",
  messageLocalId: "m1",
  supersededByLocalId: null,
  createdAt: at,
  updatedAt: at,
  ...extra,
});

/** The file with one project of one file, its conversations and facts changed as given (by index). */
function withProjects({ conversations = [], facts = [] }: { conversations?: object[]; facts?: object[] }) {
  const f = file() as { conversations: object[]; projects: object[]; longTermMemory?: object };
  f.conversations = f.conversations.map((c, i) => ({ ...c, ...conversations[i] }));
  f.projects = [
    {
      localId: "p1",
      name: "Client A",
      instructions: "Answer briefly.",
      createdAt: at,
      updatedAt: at,
      files: [
        {
          localId: "pf1",
          name: "notes.md",
          mime: "text/markdown",
          bytes: 40,
          createdAt: at,
          chunks: [
            { position: 1, text: "# Notes" },
            { position: 2, text: "The badge code is 42." },
          ],
        },
      ],
    },
  ];
  if (facts.length > 0) {
    f.longTermMemory = { enabled: true, facts: facts.map((x, i) => fact(`f${i + 1}`, x)) };
  }
  return f;
}

describe("the export format", () => {
  it("accepts a well-formed file and finds nothing inconsistent", () => {
    expect(checkConsistency(parse(file()))).toEqual([]);
  });

  it("names the field of a shape error", () => {
    const bad = file() as { conversations: { messages: { role: string }[] }[] };
    (bad.conversations[0]?.messages[1] as { role: string }).role = "robot";
    const result = exportSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["conversations", 0, "messages", 1, "role"]);
  });

  it("says which version a file is when it is not version 1", () => {
    const result = exportSchema.safeParse(file({ version: 3 }));
    expect(result.error?.issues[0]?.message).toBe(
      "This file is version 3; this server reads version 1 files.",
    );
    expect(exportSchema.safeParse(file({ format: "other" })).success).toBe(false);
  });

  it("refuses image URLs that are not attachment references", () => {
    const f = file() as { conversations: { messages: Record<string, unknown>[] }[] };
    (f.conversations[0]?.messages[0] as Record<string, unknown>).parts = {
      imageUrls: ["https://evil.test/x.png"],
    };
    expect(exportSchema.safeParse(f).success).toBe(false);
  });

  it("finds dangling links, parents after children, duplicates and a missing leaf", () => {
    const f = parse(file());
    const c = f.conversations[0];
    if (!c) throw new Error("no conversation");
    c.messages.push({ ...c.messages[0], localId: "m4", seq: 2, parentLocalId: "m9" } as never);
    c.messages.push({ ...c.messages[0], localId: "m5", seq: 5, parentLocalId: "m6" } as never);
    c.messages.push({ ...c.messages[0], localId: "m6", seq: 6, parentLocalId: null } as never);
    c.activeLeafLocalId = "m7";
    c.attachments.push({
      localId: "a1",
      messageLocalId: "m8",
      sourceId: null,
      kind: "image",
      name: "x.png",
      mime: "image/png",
      bytes: 1,
      width: null,
      height: null,
      createdAt: at,
    });
    (c.messages[0] as { parts: unknown }).parts = { imageUrls: ["attachment:a2"] };
    f.longTermMemory = {
      enabled: true,
      facts: [
        {
          localId: "f1",
          text: "x",
          subject: null,
          conversationLocalId: "c1",
          messageLocalId: "m99",
          supersededByLocalId: "f1",
          createdAt: at,
          updatedAt: at,
        },
      ],
    };
    expect(checkConsistency(f)).toEqual([
      { path: "conversations.0.messages.3.seq", message: "duplicate seq 2" },
      { path: "conversations.0.messages.3.parentLocalId", message: "no message m9 here" },
      {
        path: "conversations.0.messages.4.parentLocalId",
        message: "a parent must have a smaller seq than its child",
      },
      { path: "conversations.0.activeLeafLocalId", message: "no message m7 here" },
      { path: "conversations.0.attachments.0.messageLocalId", message: "no message m8 here" },
      {
        path: "conversations.0.messages.0.parts.imageUrls.0",
        message: "not an attachment of this conversation",
      },
      { path: "longTermMemory.facts.0.messageLocalId", message: "no message m99 in conversation c1" },
      { path: "longTermMemory.facts.0.supersededByLocalId", message: "no other fact f1 here" },
    ]);
  });

  it("finds facts that replace each other in a loop, each loop once, naming where it starts", () => {
    const fact = (localId: string, supersededByLocalId: string | null) => ({
      localId,
      text: `fact ${localId}`,
      subject: null,
      conversationLocalId: "c1",
      messageLocalId: "m1",
      supersededByLocalId,
      createdAt: at,
      updatedAt: at,
    });
    const looped = parse(
      file({
        longTermMemory: {
          enabled: true,
          // f0 → f1 → f2 → f1 (a loop entered from f0), f3 → f4 → f3, f5 → f6 (a chain: fine).
          facts: [
            fact("f0", "f1"),
            fact("f1", "f2"),
            fact("f2", "f1"),
            fact("f3", "f4"),
            fact("f4", "f3"),
            fact("f5", "f6"),
            fact("f6", null),
          ],
        },
      }),
    );
    expect(checkConsistency(looped)).toEqual([
      {
        path: "longTermMemory.facts.1.supersededByLocalId",
        message: "the facts f1 → f2 → f1 replace each other in a loop",
      },
      {
        path: "longTermMemory.facts.3.supersededByLocalId",
        message: "the facts f3 → f4 → f3 replace each other in a loop",
      },
    ]);
  });

  it("holds a fact to the limits of an edit: trimmed, at most 500 characters", () => {
    const withFact = (text: string) =>
      exportSchema.safeParse(
        file({
          longTermMemory: {
            enabled: true,
            facts: [
              {
                localId: "f1",
                text,
                subject: null,
                conversationLocalId: "c1",
                messageLocalId: "m1",
                supersededByLocalId: null,
                createdAt: at,
                updatedAt: at,
              },
            ],
          },
        }),
      );
    expect(withFact("x".repeat(500)).success).toBe(true);
    const long = withFact("x".repeat(3030));
    expect(long.error?.issues[0]).toMatchObject({
      path: ["longTermMemory", "facts", 0, "text"],
      message: "A memory can have at most 500 characters.",
    });
    expect(withFact("   ").success).toBe(false);
    expect(withFact(`  ${"x".repeat(500)}  `).data?.longTermMemory?.facts[0]?.text).toBe("x".repeat(500));
  });

  it("reads a file without projects, and one whose conversations and facts name its projects", () => {
    // An older file: no projects, no placement, no fact project.
    expect(parse(file()).projects).toBeUndefined();
    const placed = parse(
      withProjects({
        conversations: [{ projectLocalId: "p1", pinnedAt: at, archivedAt: null }],
        facts: [{ projectLocalId: "p1" }, { projectLocalId: null }],
      }),
    );
    expect(checkConsistency(placed)).toEqual([]);
    expect(placed.projects?.[0]).toMatchObject({ name: "Client A", instructions: "Answer briefly." });
    expect(placed.conversations[0]).toMatchObject({ projectLocalId: "p1", pinnedAt: at, archivedAt: null });
    // Instructions of null read as none, as the projects API takes them.
    const none = withProjects({});
    (none.projects[0] as { instructions: unknown }).instructions = null;
    expect(parse(none).projects?.[0]?.instructions).toBe("");
  });

  it("finds project references that do not resolve, duplicate ids and passages out of order", () => {
    const broken = withProjects({
      conversations: [{ projectLocalId: "p9" }],
      facts: [{ projectLocalId: "p8" }],
    });
    const project = broken.projects[0] as { files: { chunks: { position: number }[] }[] };
    (project.files[0]?.chunks[1] as { position: number }).position = 3;
    broken.projects.push({ ...(broken.projects[0] as object), files: [] });
    expect(checkConsistency(parse(broken))).toEqual([
      {
        path: "projects.0.files.0.chunks.1.position",
        message: "must be 2: passages are numbered 1, 2, 3… in order",
      },
      { path: "projects.1.localId", message: "duplicate project id p1" },
      { path: "conversations.0.projectLocalId", message: "no project p9 here" },
      { path: "longTermMemory.facts.0.projectLocalId", message: "no project p8 here" },
    ]);
  });

  it("holds projects to the limits of the projects API and of an upload", () => {
    const issueOf = (edit: (f: ReturnType<typeof withProjects>) => void) => {
      const f = withProjects({});
      edit(f);
      return exportSchema.safeParse(f).error?.issues[0];
    };
    const p = (f: ReturnType<typeof withProjects>) =>
      f.projects[0] as {
        name: string;
        instructions: string;
        files: { chunks: { position: number; text: string }[] }[];
      };
    expect(issueOf((f) => (p(f).name = "n".repeat(101)))).toMatchObject({
      path: ["projects", 0, "name"],
      message: "A project name can have at most 100 characters.",
    });
    expect(issueOf((f) => (p(f).name = "   "))).toMatchObject({ message: "A project needs a name." });
    expect(issueOf((f) => (p(f).instructions = "i".repeat(MAX_INSTRUCTION_CHARS + 1)))).toMatchObject({
      path: ["projects", 0, "instructions"],
    });
    expect(
      issueOf((f) => ((p(f).files[0]?.chunks[0] as { text: string }).text = "t".repeat(CHUNK_CHARS + 1))),
    ).toMatchObject({
      path: ["projects", 0, "files", 0, "chunks", 0, "text"],
      message: `A passage of a project file has at most ${CHUNK_CHARS} characters.`,
    });
    expect(issueOf((f) => ((p(f).files[0] as { chunks: unknown[] }).chunks = []))).toMatchObject({
      path: ["projects", 0, "files", 0, "chunks"],
    });
    expect(
      issueOf((f) => {
        const one = p(f).files[0];
        p(f).files = Array.from({ length: MAX_FILES_PER_PROJECT + 1 }, (_, i) => ({
          ...one,
          localId: `pf${i}`,
        })) as never;
      }),
    ).toMatchObject({
      path: ["projects", 0, "files"],
      message: `A project can hold at most ${MAX_FILES_PER_PROJECT} files.`,
    });
    expect(
      issueOf((f) => {
        f.projects = Array.from({ length: MAX_PROJECTS + 1 }, (_, i) => ({ ...p(f), localId: `p${i}` }));
      }),
    ).toMatchObject({ path: ["projects"], message: `An account can have at most ${MAX_PROJECTS} projects.` });
    // A file's text in all: at most what an upload keeps.
    const big = withProjects({});
    p(big).files[0] = {
      ...(p(big).files[0] as object),
      chunks: Array.from({ length: Math.ceil(MAX_PROJECT_FILE_CHARS / CHUNK_CHARS) + 1 }, (_, i) => ({
        position: i + 1,
        text: "w".repeat(CHUNK_CHARS),
      })),
    } as never;
    expect(checkConsistency(parse(big))).toEqual([
      {
        path: "projects.0.files.0.chunks",
        message: `A project file holds at most ${MAX_PROJECT_FILE_CHARS} characters of text.`,
      },
    ]);
  });

  it("rewrites attachment references and keeps their size", () => {
    expect(attachmentLocalIdOf("attachment:a1?w=4&h=3")).toBe("a1");
    expect(attachmentLocalIdOf("https://x.test/a1")).toBeNull();
    expect(withAttachmentId("attachment:a1?w=4&h=3", "cnew")).toBe("attachment:cnew?w=4&h=3");
    expect(withAttachmentId("attachment:a1", "cnew")).toBe("attachment:cnew");
  });
});

describe("the active path", () => {
  const nodes = [
    { id: "a", parentId: null, seq: 1 },
    { id: "b", parentId: "a", seq: 2 },
    { id: "c", parentId: "a", seq: 3 },
    { id: "d", parentId: "c", seq: 4 },
  ];
  it("walks from the leaf to the root, oldest first, skipping other branches", () => {
    expect(activePath(nodes, "d").map((n) => n.id)).toEqual(["a", "c", "d"]);
    expect(activePath(nodes, "b").map((n) => n.id)).toEqual(["a", "b"]);
    expect(activePath(nodes, null)).toEqual([]);
    expect(activePath(nodes, "zz")).toEqual([]);
  });
  it("stops at a cycle in corrupt data", () => {
    const loop = [
      { id: "x", parentId: "y", seq: 1 },
      { id: "y", parentId: "x", seq: 2 },
    ];
    expect(activePath(loop, "y").map((n) => n.id)).toEqual(["x", "y"]);
  });
});

describe("export file names", () => {
  const day = new Date("2026-03-04T05:06:07Z");
  it("are ASCII, dated, and never carry a path", () => {
    expect(exportFileName("Trip plans ✈", day, "md")).toBe("recall-trip-plans-2026-03-04.md");
    expect(exportFileName("../../etc/passwd", day, "json")).toBe("recall-etc-passwd-2026-03-04.json");
    expect(exportFileName("旅行计划", day, "md")).toBe("recall-conversation-2026-03-04.md");
    expect(exportFileName(null, day, "json")).toBe("recall-export-2026-03-04.json");
  });
});
