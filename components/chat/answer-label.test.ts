import { beforeAll, describe, expect, it } from "vitest";
import { compileMessages } from "@/lib/i18n/compile";
import { loadMessages } from "@/lib/i18n/messages";
import { createTranslator, type Translator } from "@/lib/i18n/translate";
import { answerLabel } from "./answer-label";

let en: Translator<"models">;
let zh: Translator<"models">;
beforeAll(async () => {
  en = createTranslator("en", compileMessages(await loadMessages("en")), "models");
  zh = createTranslator("zh-CN", compileMessages(await loadMessages("zh-CN")), "models");
});

describe("answerLabel", () => {
  it("names the model and its prompt → completion tokens", () => {
    const meta = {
      model: "recall-offline",
      modelName: "recall-offline",
      promptTokens: 120,
      completionTokens: 45,
    };
    expect(answerLabel(en, meta)).toBe("recall-offline · 120 → 45 tokens");
    expect(answerLabel(zh, meta)).toBe("recall-offline · 120 → 45 个 token");
  });

  it("says token for one, and groups digits with a no-break space", () => {
    expect(answerLabel(en, { model: "m", promptTokens: 12_345, completionTokens: 1 })).toBe(
      "m · 12\u00a0345 → 1 token",
    );
    expect(answerLabel(en, { model: "m", promptTokens: 7, completionTokens: 0 })).toBe("m · 7 → 0 tokens");
  });

  it("prefers the registry's name to the stored id, and falls back to the id", () => {
    const tokens = { promptTokens: 3, completionTokens: 2 };
    expect(answerLabel(en, { model: "clx123", modelName: "Fake A", ...tokens })).toBe(
      "Fake A · 3 → 2 tokens",
    );
    expect(answerLabel(en, { model: "clx123", ...tokens })).toBe("clx123 · 3 → 2 tokens");
  });

  it("names only the model when no tokens are recorded, and says nothing without a model", () => {
    expect(answerLabel(en, { model: "m", promptTokens: null, completionTokens: null })).toBe("m");
    expect(answerLabel(en, { model: "m", promptTokens: 5, completionTokens: null })).toBe("m");
    expect(answerLabel(en, { model: "m" })).toBe("m");
    expect(answerLabel(en, { model: null, promptTokens: 5, completionTokens: 5 })).toBeNull();
    expect(answerLabel(en, {})).toBeNull();
  });
});
