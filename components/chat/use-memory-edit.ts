"use client";

import { type FormEvent, useState } from "react";
import type { MemoryStateView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { changeOf, type Form, formOf } from "./memory-fields";
import type { useMemory } from "./use-memory";

type Memory = ReturnType<typeof useMemory>;

/** The memory popover's form: what is typed, saving it, clearing memory, and what the last step said. */
export function useMemoryEdit(
  memory: MemoryStateView | undefined,
  update: Memory["update"],
  clear: Memory["clear"],
) {
  const t = useT("chatMemory");
  const errorText = useErrorText();
  const [form, setForm] = useState<Form | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  /** Starts from the stored settings, with nothing said. */
  function reset(from: MemoryStateView) {
    setForm(formOf(from));
    setError(null);
    setStatus(null);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    // Save is not disabled while saving (that drops the focus to the page, and Escape with it): a second submit waits.
    if (!memory || !form || saving) return;
    const change = changeOf(form, memory);
    if (Object.keys(change).length === 0) {
      setStatus(t("control.nothingToChange"));
      return;
    }
    setSaving(true);
    setError(null);
    setStatus(null);
    try {
      await update(change);
      setStatus(t("control.saved"));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  async function confirmClear() {
    setClearing(true);
    setError(null);
    setStatus(null);
    try {
      await clear();
      setStatus(t("control.cleared"));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setClearing(false);
      setConfirming(false);
    }
  }

  return {
    form,
    setForm,
    saving,
    confirming,
    setConfirming,
    clearing,
    error,
    status,
    save,
    confirmClear,
    reset,
  };
}
