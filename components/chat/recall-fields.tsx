"use client";

import type { RecallScope } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import type { Form } from "./memory-fields";

const SCOPE_LABELS = {
  off: "control.recallOff",
  conversation: "control.recallConversation",
  all: "control.recallAll",
} as const satisfies Record<RecallScope, string>;

/** Whether the model also recalls relevant earlier messages, from where, and how many tokens of them at most. */
export function RecallFields({ form, onChange }: { form: Form; onChange: (form: Form) => void }) {
  const t = useT("chatMemory");
  return (
    <>
      <label className="block">
        <span className="text-zinc-700">{t("control.recall")}</span>
        <select
          value={form.recall}
          disabled={!form.enabled}
          onChange={(e) => onChange({ ...form, recall: e.target.value as RecallScope })}
          className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5"
          data-testid="memory-recall"
        >
          {(Object.keys(SCOPE_LABELS) as RecallScope[]).map((scope) => (
            <option key={scope} value={scope}>
              {t(SCOPE_LABELS[scope])}
            </option>
          ))}
        </select>
      </label>

      {form.recall !== "off" && (
        <label className="block">
          <span className="text-zinc-700">{t("control.recallMaxTokens")}</span>
          <input
            type="number"
            inputMode="numeric"
            min={100}
            max={32000}
            value={form.recallMaxTokens}
            disabled={!form.enabled}
            onChange={(e) => onChange({ ...form, recallMaxTokens: e.target.value })}
            className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1.5"
            data-testid="memory-recall-max-tokens"
          />
        </label>
      )}
    </>
  );
}
