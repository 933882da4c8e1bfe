"use client";

import { useEffect, useRef } from "react";
import { useT } from "@/lib/i18n/client";

/**
 * Editing a question in its bubble: Enter sends it as a new version, Shift+Enter adds a line, Escape
 * (or Cancel) gives up. Focus starts in the field, at the end of the text.
 */
export function MessageEditor({
  text,
  onChange,
  onSend,
  onCancel,
  disabled,
}: {
  text: string;
  onChange: (text: string) => void;
  onSend: () => void;
  onCancel: () => void;
  /** An answer is being written: the edit can be typed but not sent yet. */
  disabled: boolean;
}) {
  const t = useT("chat");
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = field.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const canSend = !disabled && text.trim().length > 0;
  return (
    <form
      className="w-full rounded-2xl border border-zinc-300 bg-white p-2"
      data-testid="message-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend();
      }}
    >
      <textarea
        ref={field}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        aria-label={t("message.editField")}
        aria-describedby="message-editor-hint"
        data-testid="message-editor-input"
        rows={2}
        className="field-sizing-content max-h-60 min-h-16 w-full min-w-0 resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus:border-zinc-900 focus:outline-none"
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            // Also keeps a context panel open elsewhere on the page from closing on the same key.
            e.preventDefault();
            onCancel();
          } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (canSend) onSend();
          }
        }}
      />
      <p id="message-editor-hint" className="mt-1 text-xs text-zinc-600">
        {t("message.editHint")}
      </p>
      <div className="mt-2 flex justify-end gap-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-md border border-zinc-300 px-3 py-1 text-sm text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
          data-testid="message-editor-cancel"
        >
          {t("message.editCancel")}
        </button>
        <button
          type="submit"
          disabled={!canSend}
          className="rounded-md bg-zinc-900 px-3 py-1 text-sm text-white hover:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:bg-zinc-400"
          data-testid="message-editor-send"
        >
          {t("message.editSend")}
        </button>
      </div>
    </form>
  );
}
