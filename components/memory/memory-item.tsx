"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import { MAX_FACT_CHARS, type MemoryView, sourceHref } from "./types";

/**
 * One fact: its text, when and where it was learned (a link to the message), and its actions. Edit is inline:
 * Enter saves, Escape cancels, and focus goes back to the Edit button either way.
 */
export function MemoryItem({
  memory,
  onSaved,
  onDelete,
}: {
  memory: MemoryView;
  /** The text was saved: read the list again. */
  onSaved: () => Promise<unknown>;
  onDelete: (memory: MemoryView) => void;
}) {
  const t = useT("memory");
  const format = useFormat();
  const errorText = useErrorText();
  const id = useId();
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

  const replaced = Boolean(memory.supersededById);
  const edited = memory.updatedAt !== memory.createdAt;

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

  return (
    <li
      className="px-3 py-3 text-sm sm:px-4"
      data-testid="memory-item"
      data-memory-id={memory.id}
      data-replaced={replaced ? "true" : undefined}
    >
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          className="space-y-2"
        >
          <label htmlFor={`${id}-text`} className="sr-only">
            {t("list.fieldLabel")}
          </label>
          <textarea
            ref={field}
            id={`${id}-text`}
            value={draft}
            maxLength={MAX_FACT_CHARS}
            rows={2}
            readOnly={saving}
            aria-describedby={`${id}-hint`}
            aria-invalid={failure ? true : undefined}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void save();
              } else if (e.key === "Escape") {
                e.preventDefault();
                e.stopPropagation();
                stop();
              }
            }}
            className="block w-full resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus:border-zinc-900 focus:ring-1 focus:ring-zinc-900 focus:outline-none"
            data-testid="memory-edit-input"
          />
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" disabled={saving} data-testid="memory-save">
              {saving ? t("list.saving") : t("list.save")}
            </Button>
            <Button variant="secondary" disabled={saving} onClick={stop}>
              {t("list.cancel")}
            </Button>
            <span id={`${id}-hint`} className="text-xs text-zinc-500">
              {t("list.editHint")}
            </span>
          </div>
          {failure && (
            <p role="alert" className="rounded-md bg-red-50 p-2 text-red-800" data-testid="memory-edit-error">
              {failure}
            </p>
          )}
        </form>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-4">
          <div className="min-w-0 flex-1">
            <p
              className={`whitespace-pre-wrap [overflow-wrap:anywhere] ${replaced ? "text-zinc-500 line-through decoration-zinc-400" : "text-zinc-900"}`}
              data-testid="memory-text"
            >
              {memory.text}
            </p>
            <p className="mt-1 text-xs text-zinc-500">
              {replaced && (
                <span
                  className="mr-2 rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900 no-underline"
                  title={t("list.replacedHint")}
                  data-testid="memory-replaced"
                >
                  {t("list.replaced")}
                </span>
              )}
              {t.rich("list.learnedIn", {
                when: format.dateTime(memory.createdAt),
                title: memory.sourceSessionTitle,
                link: (chunks) => (
                  <Link
                    href={sourceHref(memory)}
                    className="underline hover:text-zinc-900"
                    data-testid="memory-source"
                  >
                    {chunks}
                  </Link>
                ),
              })}
              {edited && <> · {t("list.edited", { when: format.dateTime(memory.updatedAt) })}</>}
            </p>
            {replaced && <p className="sr-only">{t("list.replacedHint")}</p>}
          </div>
          <div className="flex shrink-0 gap-1">
            {!replaced && (
              <button
                ref={editButton}
                type="button"
                className="rounded-md px-2 py-1 text-sm font-medium text-zinc-700 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900"
                onClick={start}
                aria-label={t("list.editAria", { text: memory.text })}
                data-testid="memory-edit"
              >
                {t("list.edit")}
              </button>
            )}
            <Button
              variant="ghost"
              className="px-2 py-1 text-red-700 hover:bg-red-50"
              onClick={() => onDelete(memory)}
              aria-label={t("list.deleteAria", { text: memory.text })}
              data-testid="memory-delete"
            >
              {t("list.delete")}
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}
