"use client";

import type { ReactNode, RefObject } from "react";
import { useT } from "@/lib/i18n/client";
import { ACTION } from "./message-actions";

/** The small actions under a question: its versions, edit (once the server has stored it) and copy. */
export function QuestionActions({
  versions,
  copy,
  canEdit,
  busy,
  editButton,
  onEdit,
}: {
  versions: ReactNode;
  copy: ReactNode;
  canEdit: boolean;
  busy: boolean;
  editButton: RefObject<HTMLButtonElement | null>;
  onEdit: () => void;
}) {
  const t = useT("chat");
  if (!versions && !copy && !canEdit) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center justify-end gap-3 text-xs text-zinc-600">
      {versions}
      {canEdit && (
        <button
          ref={editButton}
          type="button"
          className={ACTION}
          disabled={busy}
          aria-label={t("message.editLabel")}
          onClick={onEdit}
          data-testid="message-edit"
        >
          {t("message.edit")}
        </button>
      )}
      {copy}
    </div>
  );
}
