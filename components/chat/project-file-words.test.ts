import { beforeAll, describe, expect, it } from "vitest";
import { RequestError } from "@/lib/client/api";
import { createFormat } from "@/lib/i18n/format";
import { i18nFor } from "@/lib/i18n/testing";
import type { Translator } from "@/lib/i18n/translate";
import { fileDetails, fileSize, uploadRefusal } from "./project-file-words";

let en: Translator<"projectFiles">;
let zh: Translator<"projectFiles">;
beforeAll(async () => {
  en = (await i18nFor("en")).t("projectFiles");
  zh = (await i18nFor("zh-CN")).t("projectFiles");
});
const fmtEn = createFormat("en");
const fmtZh = createFormat("zh-CN");
const MB = 1024 * 1024;
const refused = (status: number, code?: string, details?: unknown) =>
  new RequestError("server sentence", status, code, code !== undefined, details);
const other = (e: unknown) => `other: ${(e as Error).message}`;

describe("fileSize and fileDetails", () => {
  it("writes bytes, KB and MB with one decimal at most", () => {
    expect(fileSize(en, fmtEn, 812)).toBe("812 B");
    expect(fileSize(en, fmtEn, 3482)).toBe("3.4 KB");
    expect(fileSize(en, fmtEn, 10 * MB)).toBe("10 MB");
  });

  it("gives a file's size, parts and day", () => {
    const file = { bytes: 2048, chunkCount: 3, createdAt: "2026-12-03T10:00:00.000Z" };
    expect(fileDetails(en, fmtEn, file)).toBe("2 KB · 3 parts · added Dec 3, 2026");
    expect(fileDetails(en, fmtEn, { ...file, chunkCount: 1 })).toContain("1 part ·");
    expect(fileDetails(zh, fmtZh, file)).toBe("2 KB · 3 段 · 添加于 2026年12月3日");
  });
});

describe("uploadRefusal", () => {
  const reason = (e: unknown, t = en, fmt = fmtEn) => uploadRefusal(t, fmt, e, 10 * MB, other);

  it("names the limit of a file too large, from the server's details or the known limit", () => {
    expect(reason(refused(413, "payload_too_large", { maxBytes: 5 * MB }))).toBe(
      "it is larger than the limit of 5 MB.",
    );
    expect(reason(refused(413, "payload_too_large"))).toBe("it is larger than the limit of 10 MB.");
    expect(reason(refused(413))).toBe("it is larger than the limit of 10 MB.");
    expect(reason(refused(413, "payload_too_large", { maxBytes: 5 * MB }), zh, fmtZh)).toBe(
      "文件超过了 5 MB 的上限。",
    );
  });

  it("says too much text with the number of characters", () => {
    expect(reason(refused(413, "payload_too_large", { maxChars: 2_000_000 }))).toBe(
      "it holds more than 2,000,000 characters of text. Split it into smaller files.",
    );
  });

  it("tells an unsupported type, an empty file, no text and a full project apart", () => {
    expect(reason(refused(415, "unsupported_media_type"))).toMatch(/^it is neither text nor a readable PDF/);
    expect(reason(refused(400, "bad_request"))).toBe("the file is empty.");
    expect(reason(refused(422, "validation_failed"))).toMatch(/^it holds no text to read/);
    expect(reason(refused(422, "validation_failed", { maxFiles: 100 }))).toBe(
      "a project holds at most 100 files. Delete one first.",
    );
    expect(reason(refused(415, "unsupported_media_type"), zh, fmtZh)).toMatch(/^它既不是文本/);
    expect(reason(refused(400, "bad_request"), zh, fmtZh)).toBe("文件是空的。");
    expect(reason(refused(422, "validation_failed"), zh, fmtZh)).toMatch(/^文件中没有可读取的文字/);
  });

  it("leaves any other failure to the app's error text", () => {
    expect(reason(refused(429, "rate_limited"))).toBe("other: server sentence");
    expect(reason(new RequestError("offline", 0))).toBe("other: offline");
  });
});
