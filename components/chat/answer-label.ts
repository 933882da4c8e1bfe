import type { ChatMessageView } from "@/lib/client/types";
import type { Translator } from "@/lib/i18n/translate";
import { formatCount } from "./format";

// The line under an answer saying which model wrote it and its tokens ("recall-offline · 120 → 45 tokens").
// Pure (the caller hands in its translator), so the wording is unit-tested (answer-label.test.ts).

type Meta = Pick<ChatMessageView, "model" | "modelName" | "promptTokens" | "completionTokens">;

/**
 * The model's name from the registry, else its stored id; then prompt → completion tokens when both are recorded.
 * Null when the answer names no model (written before models were recorded, or not stored yet).
 */
export function answerLabel(t: Translator<"models">, meta: Meta): string | null {
  const model = meta.modelName || meta.model;
  if (!model) return null;
  const { promptTokens: prompt, completionTokens: completion } = meta;
  if (prompt == null || completion == null) return model;
  return t("answerMeta", {
    model,
    prompt: formatCount(prompt),
    completion: formatCount(completion),
    n: completion,
  });
}
