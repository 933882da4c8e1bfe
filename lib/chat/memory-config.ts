import { tokenizerFor } from "@/lib/context";
import { env } from "@/lib/env";
import {
  type MemorySettings,
  resolveMemorySettings,
  SUMMARY_SLACK_FACTOR,
  SUMMARY_TRIGGER_FACTOR,
  tailRowsFor,
} from "@/lib/memory";

/** The stored settings column as settings to resolve (each field is checked when resolved). */
export function storedMemorySettings(value: unknown): Partial<MemorySettings> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Partial<MemorySettings>)
    : null;
}

/** A conversation's memory settings when it has stored none: the environment's. */
function memoryDefaults(): MemorySettings {
  return {
    enabled: env.MEMORY_ENABLED,
    policy: env.MEMORY_POLICY,
    maxMessages: env.MEMORY_MAX_MESSAGES,
    maxTokens: env.MEMORY_MAX_TOKENS,
    recall: env.MEMORY_RECALL,
    recallMaxTokens: env.MEMORY_RECALL_MAX_TOKENS,
  };
}

/**
 * The memory in force for a conversation — its stored settings over the environment's defaults — and how deep a
 * rebuild reads. Shared by turns and by the admin's "next turn" view.
 */
export function memoryConfig(
  stored: Partial<MemorySettings> | null = null,
  model: { modelId: string; contextTokens: number } = {
    modelId: env.model,
    contextTokens: env.MODEL_CONTEXT_TOKENS,
  },
) {
  const tokenizer = tokenizerFor(model.modelId);
  const resolved = resolveMemorySettings(stored, memoryDefaults(), tokenizer.countItem);
  const { enabled, policy, maxMessages } = resolved.settings;
  // Under summaries the snapshot holds messages up to the trigger, and past it while a summary is being made.
  const window =
    policy === "summary" ? maxMessages * SUMMARY_TRIGGER_FACTOR * SUMMARY_SLACK_FACTOR : maxMessages;
  return {
    ...resolved,
    tokenizer,
    modelContextTokens: model.contextTokens,
    tailRows: tailRowsFor({ enabled, maxMessages: window }),
  };
}

export type MemoryConfig = ReturnType<typeof memoryConfig>;
