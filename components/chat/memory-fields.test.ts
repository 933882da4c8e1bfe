import { describe, expect, it } from "vitest";
import type { MemoryStateView } from "@/lib/client/types";
import { changeOf, formOf } from "./memory-fields";

const stored = {
  enabled: true,
  policy: "window",
  maxMessages: 20,
  maxTokens: 2000,
  recall: "conversation",
  recallMaxTokens: 2000,
} as MemoryStateView;

describe("the memory form's change", () => {
  it("is empty when nothing was changed", () => {
    expect(changeOf(formOf(stored), stored)).toEqual({});
  });

  it("sends the recall scope and its token limit when they change", () => {
    const form = { ...formOf(stored), recall: "all" as const, recallMaxTokens: "4000" };
    expect(changeOf(form, stored)).toEqual({ recall: "all", recallMaxTokens: 4000 });
    expect(changeOf({ ...formOf(stored), recall: "off" }, stored)).toEqual({ recall: "off" });
  });

  it("sends a limit that is not a number as null, for the server to refuse", () => {
    expect(changeOf({ ...formOf(stored), recallMaxTokens: "" }, stored)).toEqual({ recallMaxTokens: null });
  });
});
