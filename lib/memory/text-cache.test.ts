import { describe, expect, it } from "vitest";
import { TextCache } from "./text-cache";

describe("TextCache", () => {
  it("keeps at most its entries, the oldest going first", () => {
    const cache = new TextCache<number>(2, 1000);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    expect(cache.size).toEqual({ entries: 2, chars: 2 });
  });

  it("keeps at most its characters, the oldest going first", () => {
    const cache = new TextCache<string>(100, 1000);
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(400)) as [string, string, string];
    for (const t of [a, b, c]) cache.set(t, t.slice(0, 1));
    expect([cache.get(a), cache.get(b), cache.get(c)]).toEqual([undefined, "b", "c"]);
    expect(cache.size).toEqual({ entries: 2, chars: 800 });
  });

  it("does not keep a text longer than its characters, nor drop the others for it", () => {
    const cache = new TextCache<number>(100, 1000);
    cache.set("short", 1);
    cache.set("h".repeat(1001), 2);
    expect(cache.get("h".repeat(1001))).toBeUndefined();
    expect(cache.get("short")).toBe(1);
    expect(cache.size).toEqual({ entries: 1, chars: 5 });
  });

  it("counts a text set twice once", () => {
    const cache = new TextCache<number>(100, 1000);
    cache.set("same", 1);
    cache.set("same", 2);
    expect(cache.get("same")).toBe(2);
    expect(cache.size).toEqual({ entries: 1, chars: 4 });
  });

  it("computes a value once and keeps it, within the same bounds", () => {
    const cache = new TextCache<number>(100, 10);
    let calls = 0;
    const length = (text: string) => {
      calls++;
      return text.length;
    };
    expect(cache.getOrSet("abc", length)).toBe(3);
    expect(cache.getOrSet("abc", length)).toBe(3);
    expect(calls).toBe(1);
    // Too long to keep: computed every time, the kept text stays.
    expect(cache.getOrSet("x".repeat(11), length)).toBe(11);
    expect(cache.getOrSet("x".repeat(11), length)).toBe(11);
    expect(calls).toBe(3);
    expect(cache.size).toEqual({ entries: 1, chars: 3 });
  });
});
