"use client";

import { useRef, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RequestError, sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/**
 * The admin users table's "Delete memories" action: every long-term fact of one user, after a confirmation
 * (DELETE /api/admin/users/:id/memories). The table shows the outcome.
 */
export function DeleteMemoriesButton({
  user,
  className,
  onDone,
  onError,
}: {
  user: { id: string; email: string; memoryFactCount: number };
  className?: string;
  onDone: (message: string) => void;
  onError: (error: { code: string; message: string }) => void;
}) {
  const t = useT("memory");
  const errorText = useErrorText();
  const [asking, setAsking] = useState(false);
  const [working, setWorking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The dialog is only mounted while asked for (one closed <dialog> per table row would be noise for assistive
  // technology and for the admin tests), so focus is handed back to the button by hand.
  const close = () => {
    setAsking(false);
    requestAnimationFrame(() => button.current?.focus());
  };

  async function run() {
    setWorking(true);
    try {
      const { deleted } = await sendJson<{ deleted: { MemoryFact: number } }>(
        `/api/admin/users/${user.id}/memories`,
        "DELETE",
      );
      onDone(t("admin.done", { count: deleted.MemoryFact, email: user.email }));
    } catch (e) {
      const code = e instanceof RequestError && e.status > 0 ? (e.code ?? String(e.status)) : "network";
      onError({ code, message: errorText(e) });
    } finally {
      setWorking(false);
      close();
    }
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        onClick={() => setAsking(true)}
        disabled={user.memoryFactCount === 0}
        data-testid="user-delete-memories"
      >
        {t("admin.action")}
      </button>
      {asking && (
        <ConfirmDialog
          open
          title={t("admin.confirmTitle")}
          body={t("admin.explain", { count: user.memoryFactCount, email: user.email })}
          confirmLabel={t("admin.confirm")}
          pending={working}
          onCancel={close}
          onConfirm={() => void run()}
        />
      )}
    </>
  );
}
