import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { decodeCursor, encodeCursor, keysetArgs, keysetPage } from "./cursor";

describe("keyset pagination", () => {
  const at = new Date("2025-01-02T03:04:05.678Z");

  it("asks for one row more than the page, newest first with the id breaking ties", () => {
    expect(keysetArgs({ key: "createdAt", limit: 20 })).toEqual({
      where: {},
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 21,
    });
  });

  it("starts after the cursor: at or before its time, and strictly before it on (time, id)", () => {
    expect(keysetArgs({ key: "updatedAt", cursor: { at, id: "m" }, limit: 5 }).where).toEqual({
      AND: [{ updatedAt: { lte: at } }, { OR: [{ updatedAt: { lt: at } }, { id: { lt: "m" } }] }],
    });
  });

  it("cuts the extra row and names the next page by the page's last row", () => {
    const rows = [1, 2, 3, 4];
    expect(keysetPage({ rows, limit: 3, cursorOf: (n) => `after ${n}` })).toEqual({
      page: [1, 2, 3],
      nextCursor: "after 3",
    });
    expect(keysetPage({ rows: rows.slice(0, 3), limit: 3, cursorOf: (n) => n })).toEqual({
      page: [1, 2, 3],
      nextCursor: null,
    });
    expect(keysetPage({ rows: [], limit: 3, cursorOf: (n: number) => n })).toEqual({
      page: [],
      nextCursor: null,
    });
  });

  it("round-trips a cursor through its URL form and refuses garbage with a 400", () => {
    const encoded = encodeCursor({ at, id: "abc" });
    expect(encoded).toMatch(/^[\w-]+$/);
    expect(decodeCursor(encoded)).toEqual({ at, id: "abc" });
    expect(encodeCursor(null)).toBeNull();
    expect(decodeCursor(null)).toBeUndefined();
    expect(() => decodeCursor("garbage")).toThrow(AppError);
    expect(() => decodeCursor(Buffer.from('["not a date","x"]').toString("base64url"))).toThrow(
      /cursor is not valid/,
    );
  });
});
