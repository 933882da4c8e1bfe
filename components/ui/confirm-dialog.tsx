"use client";

import { useEffect, useId, useRef } from "react";
import { useT } from "@/lib/i18n/client";
import { Button } from "./button";

/** A modal confirmation on the native <dialog>: focus is trapped, Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  pending,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT("common");
  const ref = useRef<HTMLDialogElement>(null);
  // Unique per dialog: several can be on one page (the sidebar's and the memory control's).
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-full max-w-md rounded-xl p-0 shadow-xl backdrop:bg-black/40"
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
    >
      <div className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="text-sm text-zinc-600">{body}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {t("actions.cancel")}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending} data-testid="confirm-button">
            {pending ? t("actions.working") : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
