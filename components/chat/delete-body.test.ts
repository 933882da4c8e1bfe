import { describe, expect, it } from "vitest";
import { i18nFor } from "@/lib/i18n/testing";

// The deletion dialog's sentence for none, one and several facts, in both locales (the e2e covers 1 and 2 in English).

describe("the deletion dialog's fact count", () => {
  it("says none, one and several in English", async () => {
    const t = (await i18nFor("en")).t("sidebar");
    expect(t("factCount", { count: 0 })).toBe("No long-term facts were learned in it.");
    expect(t("factCount", { count: 1 })).toBe(
      "1 long-term fact learned in it goes with it (listed on the Memory page).",
    );
    expect(t("factCount", { count: 3 })).toBe(
      "3 long-term facts learned in it go with it (listed on the Memory page).",
    );
  });

  it("says none and several in Chinese", async () => {
    const t = (await i18nFor("zh-CN")).t("sidebar");
    expect(t("factCount", { count: 0 })).toBe("其中没有学到长期事实。");
    expect(t("factCount", { count: 3 })).toBe("其中学到的 3 条长期事实将一并删除（见“记忆”页）。");
  });
});
