import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import {
  decodeCursor,
  decodeKeyCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeKeyCursor,
  encodeOffsetCursor,
  keysetArgs,
  keysetPage,
} from "./cursor";

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

  it("has one format for every list: the position's values as a base64url JSON array", () => {
    const values = (raw: string) => JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    expect(values(encodeCursor({ at, id: "abc" }) ?? "")).toEqual([at.toISOString(), "abc"]);
    expect(values(encodeKeyCursor("a@example.test"))).toEqual(["a@example.test"]);
    expect(values(encodeOffsetCursor(40))).toEqual([40]);
    expect(decodeKeyCursor(encodeKeyCursor("a@example.test"))).toBe("a@example.test");
    expect(decodeKeyCursor(undefined)).toBeUndefined();
    expect(decodeOffsetCursor(encodeOffsetCursor(40), 1000)).toBe(40);
    expect(decodeOffsetCursor(null, 1000)).toBe(0);
  });

  it("refuses a cursor of another list, of the old search format, past its bound or holding a NUL", () => {
    const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    expect(() => decodeOffsetCursor(raw({ o: 20 }), 1000)).toThrow(/start the search again/);
    expect(() => decodeOffsetCursor(encodeOffsetCursor(1020), 1000)).toThrow(AppError);
    expect(() => decodeOffsetCursor(encodeKeyCursor("x"), 1000)).toThrow(AppError);
    expect(() => decodeKeyCursor(encodeOffsetCursor(3))).toThrow(/cursor is not valid/);
    expect(() => decodeKeyCursor(raw(["a\u0000b"]))).toThrow(AppError);
    expect(() => decodeCursor(raw([at.toISOString(), "x\u0000"]))).toThrow(AppError);
  });
});
