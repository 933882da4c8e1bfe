import { describe, expect, it } from "vitest";
import { findUnstorable, MAX_JSON_DEPTH, unstorableMessage } from "./text";

describe("findUnstorable", () => {
  it("names the first string or key holding a NUL, by its path", () => {
    expect(findUnstorable({ title: "ok", list: ["a", { deep: "b\u0000" }] })).toEqual({
      path: "list.1.deep",
      problem: "nul",
    });
    expect(findUnstorable({ "k\u0000": 1 })).toEqual({ path: "k\u0000", problem: "nul" });
    expect(findUnstorable("\u0000")).toEqual({ path: "", problem: "nul" });
    expect(findUnstorable({ a: "fine", b: [1, true, null, "\ud800"] })).toBeNull();
  });

  it("refuses nesting deeper than MAX_JSON_DEPTH without recursion", () => {
    let v: unknown = "x";
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(findUnstorable(v)?.problem).toBe("depth");
    let ok: unknown = "x";
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = { k: ok };
    expect(findUnstorable(ok)).toBeNull();
  });

  it("says what is wrong and where", () => {
    expect(unstorableMessage({ path: "content", problem: "nul" })).toMatch(/^content contains a NUL/);
    expect(unstorableMessage({ path: "", problem: "depth" })).toMatch(/^The request body is nested/);
  });
});
