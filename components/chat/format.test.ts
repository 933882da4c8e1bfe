import { describe, expect, it } from "vitest";
import { compileMessages } from "@/lib/i18n/compile";
import { loadMessages } from "@/lib/i18n/messages";
import { createTranslator } from "@/lib/i18n/translate";
import { roleWord } from "./format";

describe("roleWord", () => {
  it("names the context's roles in Chinese, and keeps a role it does not know", async () => {
    const zh = createTranslator("zh-CN", compileMessages(await loadMessages("zh-CN")), "chat");
    const en = createTranslator("en", compileMessages(await loadMessages("en")), "chat");
    expect(["system", "user", "assistant", "tool"].map((r) => roleWord(zh, r))).toEqual([
      "系统",
      "用户",
      "助手",
      "工具",
    ]);
    expect(roleWord(en, "assistant")).toBe("assistant");
    expect(roleWord(zh, "developer")).toBe("developer");
  });
});
