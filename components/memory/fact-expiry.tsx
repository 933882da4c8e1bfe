"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { setMemoryExpiry } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";

/** The day part (YYYY-MM-DD, local) of an ISO date, for a date field. */
const dayOf = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

/** When a fact expires: set a day (it expires at the end of it, local time) or clear it (PATCH /api/memories/:id). */
export function FactExpiry({
  memoryId,
  expiresAt,
  onSaved,
}: {
  memoryId: string;
  expiresAt: string | null;
  onSaved: (expiresAt: string | null) => Promise<unknown>;
}) {
  const t = useT("memory");
  const format = useFormat();
  const errorText = useErrorText();
  const fieldId = useId();
  const [day, setDay] = useState(dayOf(expiresAt));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(value: string | null) {
    setSaving(true);
    setStatus(null);
    try {
      const { memory } = await setMemoryExpiry(memoryId, value);
      setDay(dayOf(memory.expiresAt));
      await onSaved(memory.expiresAt);
      setStatus({ ok: true, text: t("history.expirySaved") });
    } catch (e) {
      setStatus({ ok: false, text: t("history.expiryFailed", { reason: errorText(e) }) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="flex flex-wrap items-end gap-2 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        if (day) void save(new Date(`${day}T23:59:59`).toISOString());
      }}
    >
      <p className="w-full text-zinc-700" data-testid="memory-expiry">
        {expiresAt ? t("history.expiresAt", { when: format.dateTime(expiresAt) }) : t("history.never")}
      </p>
      <label htmlFor={fieldId} className="flex flex-col gap-1 text-zinc-700">
        {t("history.expiryLabel")}
        <input
          id={fieldId}
          type="date"
          value={day}
          onChange={(e) => setDay(e.target.value)}
          className="rounded-md border border-zinc-400 px-2 py-1 text-zinc-900"
          data-testid="memory-expiry-field"
        />
      </label>
      <Button type="submit" variant="ghost" className="px-2 py-1" disabled={saving || !day}>
        {t("history.setExpiry")}
      </Button>
      {expiresAt && (
        <Button
          type="button"
          variant="ghost"
          className="px-2 py-1"
          disabled={saving}
          onClick={() => void save(null)}
        >
          {t("history.clearExpiry")}
        </Button>
      )}
      <p role="status" className={`w-full ${status?.ok === false ? "text-red-700" : "text-zinc-600"}`}>
        {status?.text}
      </p>
    </form>
  );
}
