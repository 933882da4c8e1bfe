"use client";

import type { RefObject } from "react";
import type { MemoryChange, MemoryPolicyKind, MemoryStateView, RecallScope } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { RecallFields } from "./recall-fields";

const POLICY_LABELS = {
  window: "control.policyWindow",
  tokens: "control.policyTokens",
  summary: "control.policySummary",
} as const satisfies Record<MemoryPolicyKind, string>;

const MESSAGES_LABELS = {
  window: "control.messagesWindow",
  tokens: "control.messagesTokens",
  summary: "control.messagesSummary",
} as const satisfies Record<MemoryPolicyKind, string>;

export interface Form {
  enabled: boolean;
  policy: MemoryPolicyKind;
  maxMessages: string;
  maxTokens: string;
  recall: RecallScope;
  recallMaxTokens: string;
}

export const formOf = (state: MemoryStateView): Form => ({
  enabled: state.enabled,
  policy: state.policy,
  maxMessages: String(state.maxMessages),
  maxTokens: String(state.maxTokens),
  recall: state.recall,
  recallMaxTokens: String(state.recallMaxTokens),
});

/** A typed number as the server should judge it: a number when it is one, else the text (the server says why). */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

/** The fields that differ from the stored settings; a field that is not a number is sent as null (a 422). */
export function changeOf(form: Form, state: MemoryStateView): MemoryChange {
  const change: Record<string, unknown> = {};
  if (form.enabled !== state.enabled) change.enabled = form.enabled;
  if (form.policy !== state.policy) change.policy = form.policy;
  if (form.recall !== state.recall) change.recall = form.recall;
  for (const field of ["maxMessages", "maxTokens", "recallMaxTokens"] as const) {
    const value = numberOf(form[field]);
    if (value !== state[field]) change[field] = Number.isFinite(value) ? value : null;
  }
  return change as MemoryChange;
}

/** The memory settings as typed: on or off, the policy, its numbers, and recall. */
export function MemoryFields({
  form,
  onChange,
  firstFieldRef,
}: {
  form: Form;
  onChange: (form: Form) => void;
  firstFieldRef: RefObject<HTMLInputElement | null>;
}) {
  const t = useT("chatMemory");
  return (
    <>
      <label className="flex items-center gap-2">
        <input
          ref={firstFieldRef}
          type="checkbox"
          checked={form.enabled}
          onChange={(e) => onChange({ ...form, enabled: e.target.checked })}
          data-testid="memory-enabled"
        />
        {t("control.enabled")}
      </label>

      <label className="block">
        <span className="text-zinc-700">{t("control.policyLabel")}</span>
        <select
          value={form.policy}
          disabled={!form.enabled}
          onChange={(e) => onChange({ ...form, policy: e.target.value as MemoryPolicyKind })}
          className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5"
          data-testid="memory-policy"
        >
          {(Object.keys(POLICY_LABELS) as MemoryPolicyKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {t(POLICY_LABELS[kind])}
            </option>
          ))}
        </select>
      </label>

      <label className="block">
        <span className="text-zinc-700">{t(MESSAGES_LABELS[form.policy])}</span>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          value={form.maxMessages}
          disabled={!form.enabled}
          onChange={(e) => onChange({ ...form, maxMessages: e.target.value })}
          className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1.5"
          data-testid="memory-max-messages"
        />
      </label>

      {form.policy === "tokens" && (
        <label className="block">
          <span className="text-zinc-700">{t("control.tokenBudget")}</span>
          <input
            type="number"
            inputMode="numeric"
            min={100}
            value={form.maxTokens}
            disabled={!form.enabled}
            onChange={(e) => onChange({ ...form, maxTokens: e.target.value })}
            className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1.5"
            data-testid="memory-max-tokens"
          />
        </label>
      )}

      <RecallFields form={form} onChange={onChange} />
    </>
  );
}
