import { describe, expect, it } from "vitest";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "./estimate-tokens";

describe("estimateTokens", () => {
  it.each([
    ["", 4],
    ["a", 5],
    ["abcd", 5],
    ["abcde", 6],
    ["x".repeat(400), 104],
    ["x".repeat(401), 105],
  ])("%j → %i", (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });

  it("is deterministic and monotonic in length", () => {
    let previous = MESSAGE_OVERHEAD_TOKENS;
    for (let length = 0; length < 200; length++) {
      const tokens = estimateTokens("y".repeat(length));
      expect(tokens).toBe(estimateTokens("z".repeat(length)));
      expect(tokens).toBeGreaterThanOrEqual(previous);
      previous = tokens;
    }
  });
});
