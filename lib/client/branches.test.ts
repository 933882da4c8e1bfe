import { describe, expect, it } from "vitest";
import {
  hasVersions,
  joinPath,
  parentForEdit,
  pathAbove,
  pathThroughQuestion,
  versionId,
  versionsKey,
} from "./branches";
import { foldToolSteps } from "./tool-steps-fold";
import type { ChatMessageView, Siblings } from "./types";

const msg = (id: string, seq: number, role: ChatMessageView["role"], extra: Partial<ChatMessageView> = {}) =>
  ({
    id,
    seq,
    role,
    text: id,
    status: "complete",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  }) as ChatMessageView;
const versions = (ids: string[], index: number): Siblings => ({ ids, index, count: ids.length });
const ids = (list: readonly ChatMessageView[]) => list.map((m) => m.id);

describe("versions", () => {
  it("steps to the previous and next version, and stops at either end", () => {
    const s = versions(["a", "b", "c"], 1);
    expect(versionId(s, -1)).toBe("a");
    expect(versionId(s, 1)).toBe("c");
    expect(versionId(versions(["a", "b"], 0), -1)).toBeNull();
    expect(versionId(versions(["a", "b"], 1), 1)).toBeNull();
    expect(versionId(undefined, 1)).toBeNull();
  });

  it("shows a switcher only for more than one version, named by the oldest", () => {
    expect(hasVersions(versions(["a"], 0))).toBe(false);
    expect(hasVersions(undefined)).toBe(false);
    expect(hasVersions(versions(["a", "b"], 1))).toBe(true);
    expect(versionsKey(versions(["a", "b"], 1))).toBe("a");
  });
});

describe("joinPath", () => {
  const local = [
    msg("q1", 1, "user"),
    msg("a1", 2, "assistant"),
    msg("q2", 3, "user"),
    msg("a2", 4, "assistant"),
  ];

  it("keeps the loaded messages above the page's first one and takes the page from there", () => {
    const page = { messages: [msg("q2", 3, "user"), msg("a2b", 7, "assistant")], hasMore: true };
    const joined = joinPath(local, false, page);
    expect(ids(joined.messages)).toEqual(["q1", "a1", "q2", "a2b"]);
    // Older history is as loaded here: nothing more above q1.
    expect(joined.hasMore).toBe(false);
  });

  it("takes the page alone when it starts somewhere this view has not loaded", () => {
    const page = { messages: [msg("q1b", 5, "user"), msg("a1b", 6, "assistant")], hasMore: false };
    expect(ids(joinPath(local, true, page).messages)).toEqual(["q1b", "a1b"]);
    expect(joinPath(local, true, page).hasMore).toBe(false);
    expect(joinPath(local, false, { messages: [], hasMore: false }).messages).toEqual([]);
  });
});

describe("cutting the path for a new version", () => {
  const path = [
    msg("q1", 1, "user"),
    msg("a1", 2, "assistant"),
    msg("q2", 3, "user"),
    msg("call", 4, "assistant", { parts: { toolCalls: [{ id: "c1", name: "remember", arguments: "{}" }] } }),
    msg("result", 5, "tool", { toolCallId: "c1" }),
    msg("a2", 6, "assistant"),
  ];

  it("an edited question replaces it and everything below", () => {
    expect(ids(pathAbove(path, "q2") ?? [])).toEqual(["q1", "a1"]);
    expect(pathAbove(path, "q1")).toEqual([]);
    expect(pathAbove(path, "nope")).toBeNull();
  });

  it("a regenerated answer keeps its question and drops its tool steps", () => {
    expect(ids(pathThroughQuestion(path, "a2") ?? [])).toEqual(["q1", "a1", "q2"]);
    expect(ids(pathThroughQuestion(path, "a1") ?? [])).toEqual(["q1"]);
    expect(pathThroughQuestion(path, "nope")).toBeNull();
  });

  it("an edit takes the question's parent, or the message before it when the server has not said", () => {
    expect(parentForEdit(path, { ...path[2], parentId: "a1" } as ChatMessageView, false)).toBe("a1");
    expect(parentForEdit(path, { ...path[0], parentId: null } as ChatMessageView, true)).toBeNull();
    expect(parentForEdit(path, path[2] as ChatMessageView, false)).toBe("a1");
    expect(parentForEdit(path, path[0] as ChatMessageView, false)).toBeNull();
    // The first loaded message of a longer conversation: its parent is not known here.
    expect(parentForEdit(path, path[0] as ChatMessageView, true)).toBeUndefined();
  });
});

describe("folding tool steps keeps the versions of the answer", () => {
  it("a folded answer switches with the versions of its group's first row", () => {
    const shown = foldToolSteps([
      msg("q", 1, "user", { siblings: versions(["q"], 0) }),
      msg("call", 2, "assistant", {
        parts: { toolCalls: [{ id: "c1", name: "remember", arguments: "{}" }] },
        siblings: versions(["call", "a-other"], 0),
      }),
      msg("result", 3, "tool", { toolCallId: "c1", text: "{}", siblings: versions(["result"], 0) }),
      msg("a", 4, "assistant", { siblings: versions(["a"], 0) }),
    ]);
    expect(ids(shown)).toEqual(["q", "a"]);
    expect(shown[1]?.siblings).toEqual(versions(["call", "a-other"], 0));
    expect(shown[1]?.steps?.map((s) => s.id)).toEqual(["c1"]);
  });

  it("a plain answer keeps its own versions", () => {
    const shown = foldToolSteps([
      msg("q", 1, "user"),
      msg("a", 2, "assistant", { siblings: versions(["x", "a"], 1) }),
    ]);
    expect(shown[1]?.siblings).toEqual(versions(["x", "a"], 1));
  });
});
