"use client";

import { useEffect, useId, useRef, useState } from "react";
import { listPickableModels, type PickableModel } from "@/lib/client/api";
import { useT } from "@/lib/i18n/client";
import { ACTION } from "./message-actions";

/** "Regenerate", and "Regenerate with…" a small menu of the other models when there are several. */
export function RegenerateActions({
  busy,
  onRegenerate,
}: {
  busy: boolean;
  /** No model: the conversation's. */
  onRegenerate: (model?: string) => void;
}) {
  const t = useT("chat");
  const tm = useT("models");
  const id = useId();
  const [models, setModels] = useState<PickableModel[]>([]);
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLSpanElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void listPickableModels().then(
      (list) => live && setModels(list),
      () => undefined,
    );
    const outside = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => {
      live = false;
      document.removeEventListener("pointerdown", outside);
    };
  }, [open]);

  const pick = (model: string) => {
    setOpen(false);
    trigger.current?.focus();
    onRegenerate(model);
  };

  return (
    <span className="relative inline-flex items-center gap-2" ref={wrapper}>
      <button
        type="button"
        className={ACTION}
        disabled={busy}
        aria-label={t("message.regenerateLabel")}
        onClick={() => onRegenerate()}
        data-testid="message-regenerate"
      >
        {t("message.regenerate")}
      </button>
      <button
        ref={trigger}
        type="button"
        className={ACTION}
        disabled={busy}
        aria-label={tm("regenerateWithLabel")}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => setOpen(!open)}
        data-testid="message-regenerate-with"
      >
        {tm("regenerateWith")}
      </button>
      {open && models.length > 0 && (
        <ul
          id={`${id}-menu`}
          className="absolute bottom-full left-0 z-20 mb-1 w-56 rounded-lg border border-zinc-200 bg-white py-1 text-sm shadow-lg"
          onKeyDown={(e) => {
            if (e.key !== "Escape") return;
            e.stopPropagation();
            setOpen(false);
            trigger.current?.focus();
          }}
        >
          {models.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                onClick={() => pick(m.id)}
                className="block w-full px-3 py-2 text-left text-zinc-800 hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none"
                data-testid="regenerate-with-model"
              >
                {m.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
