import { describe, expect, it } from "vitest";
import { lastDays, usageSeries } from "./series";

describe("usage series", () => {
  it("lists the last days oldest first, across a month's end", () => {
    expect(lastDays(3, new Date("2026-12-01T05:00:00Z"))).toEqual(["2026-11-29", "2026-11-30", "2026-12-01"]);
    expect(lastDays(30, new Date("2026-12-01T23:59:59Z"))).toHaveLength(30);
  });

  it("stacks each day's models, keeps empty days, and totals per model heaviest first", () => {
    const rows = [
      { day: "2026-11-30", model: "small", promptTokens: 10, completionTokens: 5, answers: 1 },
      { day: "2026-12-01", model: "small", promptTokens: 4, completionTokens: 1, answers: 1 },
      { day: "2026-12-01", model: "large", promptTokens: 100, completionTokens: 50, answers: 2 },
    ];
    const s = usageSeries(rows, ["2026-11-29", "2026-11-30", "2026-12-01"]);
    expect(s.models).toEqual(["large", "small"]);
    expect(s.columns).toEqual([
      { day: "2026-11-29", segments: [], total: 0 },
      { day: "2026-11-30", segments: [{ model: "small", tokens: 15 }], total: 15 },
      {
        day: "2026-12-01",
        segments: [
          { model: "large", tokens: 150 },
          { model: "small", tokens: 5 },
        ],
        total: 155,
      },
    ]);
    expect(s.max).toBe(155);
    expect(s.totals).toEqual([
      { model: "large", promptTokens: 100, completionTokens: 50, answers: 2 },
      { model: "small", promptTokens: 14, completionTokens: 6, answers: 2 },
    ]);
  });

  it("scales an empty chart", () => {
    expect(usageSeries([], ["2026-12-01"]).max).toBe(1);
  });
});
