import { describe, expect, it } from "vitest";
import { expiryOf } from "@/lib/memory/fact-history";
import { durationDaysOf } from "./duration";

describe("durationDaysOf (the demo model's expiry from wording)", () => {
  it.each([
    ["For the next two weeks I'm in Tokyo", 14],
    ["I am in Tokyo for the next two weeks", 14],
    ["I'm working nights for 3 days", 3],
    ["I'm on leave for a month", 30],
    ["接下来两周我在东京", 14],
    ["未来3天我在出差", 3],
  ])("%s → %i days", (text, days) => {
    expect(durationDaysOf(text)).toBe(days);
  });

  it.each(["I live in Lyon", "I waited for weeks", "我在东京住了两年", "For 0 days"])("%s → none", (text) => {
    expect(durationDaysOf(text)).toBeNull();
  });
});

describe("expiryOf (the remember tool's arguments)", () => {
  const now = new Date("2026-12-02T12:00:00Z");
  it("a date wins over days; days count from now; neither: never expires", () => {
    const at = new Date("2026-12-05T00:00:00Z");
    expect(expiryOf({ expiresAt: at, days: 14, now })).toBe(at);
    expect(expiryOf({ days: 14, now })?.toISOString()).toBe("2026-12-16T12:00:00.000Z");
    expect(expiryOf({ now })).toBeNull();
  });
});
