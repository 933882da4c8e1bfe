"use client";

import { useEffect, useRef, useState } from "react";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { MAX_FACT_CHARS, type MemoryView } from "./types";

/**
 * Editing one fact's text in place: checked here, saved with PATCH /api/memories/:id; focus goes to the field when
 * editing starts and back to the Edit button when it ends, saved or not.
 */
export function useFactEdit(memory: MemoryView, onSaved: () => Promise<unknown>) {
  const t = useT("memory");
  const errorText = useErrorText();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(memory.text);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const refocus = useRef(false);

  useEffect(() => {
    if (editing) {
      field.current?.focus();
      field.current?.select();
    } else if (refocus.current) {
      refocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  function start() {
    setDraft(memory.text);
    setFailure(null);
    setEditing(true);
  }

  function stop() {
    refocus.current = true;
    setEditing(false);
    setFailure(null);
  }

  async function save() {
    const text = draft.trim();
    if (text === memory.text) return stop();
    if (!text) return setFailure(t("list.emptyText"));
    if (text.length > MAX_FACT_CHARS) return setFailure(t("list.tooLong", { max: MAX_FACT_CHARS }));
    setSaving(true);
    setFailure(null);
    try {
      await sendJson(`/api/memories/${memory.id}`, "PATCH", { text });
      await onSaved();
      stop();
    } catch (e) {
      setFailure(t("list.saveFailed", { reason: errorText(e) }));
      field.current?.focus();
    } finally {
      setSaving(false);
    }
  }

  return { editing, draft, setDraft, saving, failure, editButton, field, start, stop, save };
}

export type FactEdit = ReturnType<typeof useFactEdit>;
