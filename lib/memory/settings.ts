import { none } from "./policies";
import { RECALL_SCOPES, type RecallScope } from "./recall";
import { type SummaryConfig, summaryPolicy } from "./summary";
import { windowPolicy } from "./token-window";
import type { MemoryPolicy, TokenCounter } from "./types";

export type MemoryPolicyKind = "window" | "tokens" | "summary";
const MEMORY_POLICY_KINDS: readonly MemoryPolicyKind[] = ["window", "tokens", "summary"];

/** A conversation's memory settings (stored per conversation; defaults come from the environment). */
export interface MemorySettings {
  enabled: boolean;
  policy: MemoryPolicyKind;
  maxMessages: number;
  maxTokens: number;
  /** Which earlier messages may be recalled into the context beside the window. */
  recall: RecallScope;
  /** The most tokens the recall section may take (inside the overall budget, after the window). */
  recallMaxTokens: number;
}

type IntegerField = "maxMessages" | "maxTokens" | "recallMaxTokens";

const MEMORY_LIMITS: Record<IntegerField, { min: number; max: number }> = {
  maxMessages: { min: 1, max: 10_000 },
  maxTokens: { min: 100, max: 1_000_000 },
  recallMaxTokens: { min: 100, max: 32_000 },
};

/** With summaries on, memory is summarized when it reaches `maxMessages × SUMMARY_TRIGGER_FACTOR` messages. */
export const SUMMARY_TRIGGER_FACTOR = 2;

export interface SettingsError {
  field: keyof MemorySettings | "settings";
  message: string;
}

export type SettingsCheck =
  | { ok: true; value: Partial<MemorySettings> }
  | { ok: false; errors: SettingsError[] };

const FIELD_NAMES = ["enabled", "policy", "maxMessages", "maxTokens", "recall", "recallMaxTokens"] as const;
const FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES);

function checkInteger(value: unknown, field: IntegerField, errors: SettingsError[]): number | undefined {
  const { min, max } = MEMORY_LIMITS[field];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    errors.push({ field, message: `${field} must be an integer from ${min} to ${max}` });
    return undefined;
  }
  return value;
}

/**
 * Checks a settings change (any subset of the fields; unknown fields are errors, so a typo is not silently
 * ignored). Plain range checks, so lib/memory needs no validation library; the route maps errors to 422.
 */
export function validateMemorySettings(input: unknown): SettingsCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: [{ field: "settings", message: "expected an object" }] };
  }
  const record = input as Record<string, unknown>;
  const errors: SettingsError[] = [];
  const value: Partial<MemorySettings> = {};
  for (const key of Object.keys(record)) {
    if (!FIELDS.has(key)) errors.push({ field: "settings", message: `unknown field ${key}` });
  }
  if (record.enabled !== undefined) {
    if (typeof record.enabled === "boolean") value.enabled = record.enabled;
    else errors.push({ field: "enabled", message: "enabled must be true or false" });
  }
  if (record.policy !== undefined) {
    if (MEMORY_POLICY_KINDS.includes(record.policy as MemoryPolicyKind)) {
      value.policy = record.policy as MemoryPolicyKind;
    } else {
      errors.push({ field: "policy", message: `policy must be one of ${MEMORY_POLICY_KINDS.join(", ")}` });
    }
  }
  if (record.recall !== undefined) {
    if (RECALL_SCOPES.includes(record.recall as RecallScope)) value.recall = record.recall as RecallScope;
    else errors.push({ field: "recall", message: `recall must be one of ${RECALL_SCOPES.join(", ")}` });
  }
  for (const field of ["maxMessages", "maxTokens", "recallMaxTokens"] as const) {
    if (record[field] === undefined) continue;
    const checked = checkInteger(record[field], field, errors);
    if (checked !== undefined) value[field] = checked;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

export interface ResolvedMemory {
  /** What the next turn uses: stored values over the defaults (an invalid stored value falls back). */
  settings: MemorySettings;
  /** The snapshot policy; its id is stored beside the snapshot. */
  policy: MemoryPolicy;
  /**
   * The `maxTokens` to hand to `buildContext`, or `undefined` when only the model's context limit applies
   * (the token budget covers the whole context only under the `tokens` policy).
   */
  contextMaxTokens: number | undefined;
  /** Where recall looks and how much it may send; null when nothing is recalled (off, or memory disabled). */
  recall: { scope: Exclude<RecallScope, "off">; maxTokens: number } | null;
}

/** The summary shape of settings: the last `maxMessages` kept, summarized when memory reaches twice that. */
export function summaryConfigFor(settings: Pick<MemorySettings, "maxMessages">): SummaryConfig {
  return { keepRecent: settings.maxMessages, trigger: settings.maxMessages * SUMMARY_TRIGGER_FACTOR };
}

/** The policy for effective settings (they must be valid; see `resolveMemorySettings`). */
function policyForSettings(settings: MemorySettings, count: TokenCounter): MemoryPolicy {
  if (!settings.enabled) return none;
  switch (settings.policy) {
    case "window":
      return windowPolicy({ maxMessages: settings.maxMessages });
    case "tokens":
      return windowPolicy({ maxMessages: settings.maxMessages, maxTokens: settings.maxTokens, count });
    case "summary":
      return summaryPolicy(summaryConfigFor(settings));
  }
}

/**
 * A conversation's effective memory: its stored settings (`null` when none) over `defaults`. A stored field
 * that is missing or out of range (an older row, a lowered limit) takes the default, so a turn never fails on it.
 */
export function resolveMemorySettings(
  stored: Partial<MemorySettings> | null,
  defaults: MemorySettings,
  count: TokenCounter,
): ResolvedMemory {
  const checkedDefaults = validateMemorySettings(defaults);
  if (!checkedDefaults.ok) {
    throw new RangeError(
      `invalid memory defaults: ${checkedDefaults.errors.map((e) => e.message).join("; ")}`,
    );
  }
  const settings: MemorySettings = { ...defaults };
  if (stored) {
    for (const field of FIELD_NAMES) {
      const checked = validateMemorySettings({ [field]: stored[field] });
      if (checked.ok && checked.value[field] !== undefined) {
        Object.assign(settings, { [field]: checked.value[field] });
      }
    }
  }
  return {
    settings,
    policy: policyForSettings(settings, count),
    contextMaxTokens: settings.enabled && settings.policy === "tokens" ? settings.maxTokens : undefined,
    // Memory switched off sends no history at all, recalled history included.
    recall:
      settings.enabled && settings.recall !== "off"
        ? { scope: settings.recall, maxTokens: settings.recallMaxTokens }
        : null,
  };
}
