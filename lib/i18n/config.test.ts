import { describe, expect, it } from "vitest";
import { negotiateLocale, resolveLocale } from "./config";
import { createFormat } from "./format";

describe("negotiateLocale", () => {
  it.each([
    [null, "en"],
    ["", "en"],
    ["en-US,en;q=0.9", "en"],
    ["zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"],
    ["zh-TW", "zh-CN"],
    ["zh", "zh-CN"],
    ["fr-FR,fr;q=0.9", "en"],
    ["fr-FR,zh;q=0.5,en;q=0.4", "zh-CN"],
    ["en;q=0.5,zh-Hans;q=0.8", "zh-CN"],
    ["zh;q=0,en", "en"],
  ] as const)("%s → %s", (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });

  it("prefers the user's cookie over the browser's languages, ignoring unknown values", () => {
    expect(resolveLocale("zh-CN", "en-US")).toBe("zh-CN");
    expect(resolveLocale("en", "zh-CN")).toBe("en");
    expect(resolveLocale("de", "zh-CN")).toBe("zh-CN");
  });
});

describe("createFormat", () => {
  const iso = "2026-11-30T08:18:05.000Z";
  it("formats dates in UTC in the reader's language", () => {
    expect(createFormat("en").dateTime(iso)).toBe("Nov 30, 2026, 08:18 UTC");
    expect(createFormat("zh-CN").dateTime(iso)).toContain("2026年11月30日");
    expect(createFormat("zh-CN").dateTimeSeconds(iso)).toContain("08:18:05");
    expect(createFormat("en").date("not a date")).toBe("not a date");
  });
  it("groups digits by locale", () => {
    expect(createFormat("en").number(1234567)).toBe("1,234,567");
    expect(createFormat("zh-CN").number(1234567)).toBe("1,234,567");
  });
});
