import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/memory";
import { visibleItems } from "./items";

describe("visibleItems", () => {
  const items: MemoryItem[] = [
    { role: "user", text: "look", seq: 1, imageUrls: ["data:image/png;base64,AAAA"] },
    { role: "assistant", text: "a cat", seq: 2 },
  ];

  it("sends images to a model with vision, unchanged", () => {
    expect(visibleItems({ vision: true }, items)).toBe(items);
  });

  it("keeps the text and drops the images for a model without vision", () => {
    const seen = visibleItems({ vision: false }, items);
    expect(seen).toEqual([
      { role: "user", text: "look", seq: 1 },
      { role: "assistant", text: "a cat", seq: 2 },
    ]);
    expect(items[0]?.imageUrls).toHaveLength(1);
  });
});
