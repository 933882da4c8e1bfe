"use client";

import type { RefObject } from "react";
import { useT } from "@/lib/i18n/client";

/** "Context" under an answer: shows or hides what was sent to the model for it. */
export function ContextButton({
  buttonRef,
  open,
  onToggle,
}: {
  buttonRef: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onToggle: () => void;
}) {
  const t = useT("chat");
  return (
    <button
      ref={buttonRef}
      type="button"
      onClick={onToggle}
      className="-my-1 py-1 underline"
      data-testid="context-button"
      aria-expanded={open}
    >
      {open ? t("message.hideContext") : t("message.context")}
    </button>
  );
}
