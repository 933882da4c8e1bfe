"use client";

import { useFormat, useT } from "@/lib/i18n/client";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory/instructions";

/** A labelled instruction text with its hint and a count of the characters left of the 4 000. */
export function InstructionField({
  id,
  label,
  hint,
  value,
  onChange,
  rows = 6,
  testId,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  testId: string;
}) {
  const t = useT("instructions");
  const format = useFormat();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-zinc-600">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        rows={rows}
        maxLength={MAX_INSTRUCTION_CHARS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint ${id}-count` : `${id}-count`}
        className="mt-1 block w-full resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900"
        data-testid={testId}
      />
      <p id={`${id}-count`} className="mt-0.5 text-right text-xs tabular-nums text-zinc-600">
        {t("count", { count: format.number(value.length), max: format.number(MAX_INSTRUCTION_CHARS) })}
      </p>
    </div>
  );
}
